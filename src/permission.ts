/**
 * Permission levels are ordered: none < read_only < write < execute.
 * Network access is a separate flag on a tool (`network: true`), because a read-only tool
 * that fetches a URL is still read-only on the workspace but reaches the open world.
 */
export const PERMISSION_LEVELS = ['none', 'read_only', 'write', 'execute'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export function permissionRank(level: PermissionLevel): number {
  return PERMISSION_LEVELS.indexOf(level);
}

/** True when a tool needing `required` may run under a host in `mode`. */
export function isPermitted(required: PermissionLevel, mode: PermissionLevel): boolean {
  return permissionRank(required) <= permissionRank(mode);
}

export function isPermissionLevel(value: unknown): value is PermissionLevel {
  return typeof value === 'string' && (PERMISSION_LEVELS as readonly string[]).includes(value);
}

/**
 * What running a command does to the world, as a spec the author ships declares it (jdx/usage's
 * `effect`): `read` only inspects, `write` creates or modifies but removes nothing that cannot be
 * recreated, `destructive` may delete or irreversibly overwrite. Ordered read < write < destructive.
 */
export const TOOL_EFFECTS = ['read', 'write', 'destructive'] as const;
export type ToolEffect = (typeof TOOL_EFFECTS)[number];

/**
 * The permission level a tool needs once its declared effect is counted: a declared `write` or
 * `destructive` raises it to at least `write` (a tool with no folder grants that deletes remote data is
 * hidden from read_only hosts); `read`, or no declaration, leaves `base` as it is. A declaration never
 * lowers the level its grants give: the sandbox, not the claim, decides what a tool can touch.
 */
export function permissionWithEffect(base: PermissionLevel, effect: ToolEffect | undefined): PermissionLevel {
  if (effect === 'write' || effect === 'destructive') return permissionRank(base) >= permissionRank('write') ? base : 'write';
  return base;
}

const EFFECT_RANK: Readonly<Record<ToolEffect, number>> = { read: 0, write: 1, destructive: 2 };

/** The greater of two effects (`read` < `write` < `destructive`); undefined when neither is declared. */
export function maxEffect(left: ToolEffect | undefined, right: ToolEffect | undefined): ToolEffect | undefined {
  if (left === undefined) return right;
  if (right === undefined) return left;
  return EFFECT_RANK[right] > EFFECT_RANK[left] ? right : left;
}
