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
