/**
 * Approval rules (config key `approvals`): `{tool, match?, action}`, checked in order; the first rule
 * whose `tool` glob matches the tool's name and whose every `match` glob matches the named argument
 * decides. No matching rule means "no opinion": the permission mode decides, as without rules.
 *
 * Argument values are matched as text: a string as it is, anything else (number, boolean, null, array,
 * object) as its JSON text, e.g. `5`, `true`, `["a","b"]`. A parameter the call does not carry never
 * matches, not even `*`. Matching sees the arguments after the bridge parsed them (coercions and
 * defaults applied, so `"5"` sent for a number matches `5`) and before secrets are substituted (a
 * secret parameter is matched as its `<secret_ref:NAME>` placeholder).
 */
import { z } from 'zod';
import { compileGlob } from './glob.ts';

export const APPROVAL_ACTIONS = ['allow', 'ask', 'deny'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** A glob that compiles (a class range out of order such as `[z-a]` does not). */
const globSchema = z
  .string()
  .min(1)
  .superRefine((pattern, context) => {
    try {
      compileGlob(pattern);
    } catch (error) {
      context.addIssue({ code: z.ZodIssueCode.custom, message: `invalid glob "${pattern}": ${(error as Error).message}` });
    }
  });

/** Non-string match values are globbed as their text, so `{"replace_all": true}` can be written as JSON. */
const matchValueSchema = z.union([globSchema, z.number(), z.boolean()]).transform((value) => String(value));

export const approvalRuleSchema = z
  .object({
    /** Glob on the tool name, e.g. `shell` or `*`. */
    tool: globSchema,
    /** Parameter name → glob on that argument's value; all must match. Absent or `{}`: every call of the tool. */
    match: z.record(z.string().min(1), matchValueSchema).optional(),
    action: z.enum(APPROVAL_ACTIONS),
  })
  .strict();

export type ApprovalRule = z.output<typeof approvalRuleSchema>;

export const approvalRulesSchema = z.array(approvalRuleSchema);

/** The rule that decided, with its position (1-based, as a user counts the config list). */
export interface RuleMatch {
  action: ApprovalAction;
  /** 1-based position in the `approvals` list. */
  position: number;
  rule: ApprovalRule;
}

interface CompiledRule {
  rule: ApprovalRule;
  position: number;
  tool: (name: string) => boolean;
  match: Array<[parameter: string, test: (value: string) => boolean]>;
}

/** The text an argument value is globbed as (see the module comment). */
export function argumentText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Rules compiled once per host; `decide` is then a plain scan. */
export class ApprovalRules {
  private readonly compiled: CompiledRule[];

  constructor(rules: readonly ApprovalRule[]) {
    this.compiled = rules.map((rule, index) => ({
      rule,
      position: index + 1,
      tool: compileGlob(rule.tool),
      match: Object.entries(rule.match ?? {}).map(([parameter, pattern]) => [parameter, compileGlob(pattern)]),
    }));
  }

  get size(): number {
    return this.compiled.length;
  }

  /** The first rule matching the call, or undefined when none does. */
  decide(tool: string, args: Readonly<Record<string, unknown>>): RuleMatch | undefined {
    for (const candidate of this.compiled) {
      if (!candidate.tool(tool)) continue;
      const matches = candidate.match.every(([parameter, test]) => Object.hasOwn(args, parameter) && args[parameter] !== undefined && test(argumentText(args[parameter])));
      if (matches) return { action: candidate.rule.action, position: candidate.position, rule: candidate.rule };
    }
    return undefined;
  }
}

/** JSON text with object keys sorted at every level, so equal arguments give equal keys. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry;
    return Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/**
 * Calls allowed by an `always` decision: that tool with exactly those (parsed, pre-substitution)
 * arguments, for the life of the host. Kept in memory only; a restarted host asks again.
 */
export class AlwaysAllowed {
  private readonly keys = new Set<string>();

  private static key(tool: string, args: unknown): string {
    return `${tool}\u0000${canonicalJson(args)}`;
  }

  add(tool: string, args: unknown): void {
    this.keys.add(AlwaysAllowed.key(tool, args));
  }

  has(tool: string, args: unknown): boolean {
    return this.keys.has(AlwaysAllowed.key(tool, args));
  }

  get size(): number {
    return this.keys.size;
  }
}
