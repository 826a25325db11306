/**
 * Approval rules (config key `approvals`): `{tool, match?, argv_prefix?, action}`, checked in order;
 * the first rule whose `tool` glob matches the tool's name, whose every `match` glob matches the named
 * argument and whose `argv_prefix` (if any) matches decides. No matching rule means "no opinion": the
 * permission mode decides, as without rules.
 *
 * The `shell` tool's `command` is read as a script (shell-script.ts) into its simple commands (split
 * on `;`, `&`, `&&`, `|`, `||`, newlines and parentheses, and read inside substitutions):
 * - a `match.command` glob of an `ask` or `deny` rule matches when it matches the command as sent, the
 *   command with whitespace normalized, or any one simple command (as written, whitespace normalized;
 *   or as run: its words after quote removal from the command word on, joined by single spaces);
 * - a `match.command` glob of an `allow` rule matches only when every simple command (as written,
 *   whitespace normalized) matches it and none is unreadable;
 * - `argv_prefix: ["git", "push"]` (shell only) matches per shell-argv.ts: for ask and deny when any
 *   simple command may run `git push ...` (unknown words, wrappers and code the parser cannot see
 *   count as a match), for allow only when every simple command surely does.
 * Glob rules remain a convenience, not a security boundary: a command can reach the same effect
 * through programs and files the rule never sees.
 *
 * Argument values are matched as text: a string as it is, anything else (number, boolean, null, array,
 * object) as its JSON text, e.g. `5`, `true`, `["a","b"]`. A parameter the call does not carry never
 * matches, not even `*`. Matching sees the arguments after the bridge parsed them (coercions and
 * defaults applied, so `"5"` sent for a number matches `5`) and before secrets are substituted (a
 * secret parameter is matched as its `<secret_ref:NAME>` placeholder).
 */
import { z } from 'zod';
import { compileGlob } from './glob.ts';
import { commandLine, mayRun, surelyRuns } from './shell-argv.ts';
import { parseShellScript, type ParsedScript } from './shell-script.ts';

/** The tool whose `command` argument is read as a shell script. */
export const SHELL_TOOL = 'shell';

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
    /** Words a shell command must start with, after quote removal, e.g. `["git", "push"]` (see shell-argv.ts). */
    argv_prefix: z.array(z.string().min(1)).min(1).optional(),
    action: z.enum(APPROVAL_ACTIONS),
  })
  .strict()
  .superRefine((rule, context) => {
    if (rule.argv_prefix === undefined) return;
    let tool: ((name: string) => boolean) | undefined;
    try {
      tool = compileGlob(rule.tool);
    } catch {
      return; // reported on `tool`
    }
    if (!tool(SHELL_TOOL)) {
      context.addIssue({ code: z.ZodIssueCode.custom, path: ['argv_prefix'], message: `argv_prefix applies to the ${SHELL_TOOL} tool's command, and tool "${rule.tool}" does not match "${SHELL_TOOL}"` });
    }
    if (rule.match && Object.hasOwn(rule.match, 'command')) {
      context.addIssue({ code: z.ZodIssueCode.custom, path: ['match', 'command'], message: 'a rule takes either argv_prefix or match.command, not both' });
    }
  });

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
  argvPrefix: readonly string[] | undefined;
}

/** A `match.command` glob on a shell script (see the module comment). */
function commandGlobMatches(test: (value: string) => boolean, raw: string, script: ParsedScript, action: ApprovalAction): boolean {
  if (action === 'allow') {
    if (script.commands.length === 0) return test(script.normalized);
    return script.commands.every((command) => command.unreadable === undefined && test(command.text));
  }
  return (
    test(raw) ||
    test(script.normalized) ||
    script.commands.some((command) => test(command.text) || (command.unreadable === undefined && test(commandLine(command))))
  );
}

/** An `argv_prefix` on a shell script (see shell-argv.ts). */
function argvPrefixMatches(prefix: readonly string[], script: ParsedScript, action: ApprovalAction): boolean {
  if (action === 'allow') return script.commands.length > 0 && script.commands.every((command) => surelyRuns(command, prefix));
  return script.commands.some((command) => mayRun(command, prefix));
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
      argvPrefix: rule.argv_prefix,
    }));
  }

  get size(): number {
    return this.compiled.length;
  }

  /**
   * The first rule matching the call, or undefined when none does. `script` is the shell command
   * already parsed (the caller may have needed it too); else it is parsed here when a rule needs it.
   */
  decide(tool: string, args: Readonly<Record<string, unknown>>, script?: ParsedScript): RuleMatch | undefined {
    const command = tool === SHELL_TOOL && typeof args['command'] === 'string' ? args['command'] : undefined;
    let parsed = script;
    const shellScript = (): ParsedScript | undefined => (command === undefined ? undefined : (parsed ??= parseShellScript(command)));
    for (const candidate of this.compiled) {
      if (!candidate.tool(tool)) continue;
      const { action } = candidate.rule;
      if (candidate.argvPrefix !== undefined) {
        const readable = shellScript();
        if (readable === undefined || !argvPrefixMatches(candidate.argvPrefix, readable, action)) continue;
      }
      const matches = candidate.match.every(([parameter, test]) => {
        if (!Object.hasOwn(args, parameter) || args[parameter] === undefined) return false;
        if (parameter === 'command' && command !== undefined) return commandGlobMatches(test, command, shellScript() as ParsedScript, action);
        return test(argumentText(args[parameter]));
      });
      if (matches) return { action, position: candidate.position, rule: candidate.rule };
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
/** The identity of a call for `always`: the tool and its canonical arguments. */
export function alwaysKey(tool: string, args: unknown): string {
  return `${tool}\u0000${canonicalJson(args)}`;
}

export class AlwaysAllowed {
  private readonly keys = new Set<string>();

  private static key(tool: string, args: unknown): string {
    return alwaysKey(tool, args);
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
