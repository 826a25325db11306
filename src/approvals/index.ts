/**
 * Approvals: the one gate every call passes through (the host's call path, after lookup and before the
 * bridge runs the tool), whatever edge it came from. Config rules decide allow / ask / deny; an `ask`
 * waits in the host's ApprovalQueue, answered over HTTP (`/v1/approvals`) or by the caller's own
 * approver (MCP elicitation, a terminal prompt), whichever comes first, until the timeout refuses it.
 *
 * Text written to a background process's stdin (`process` with action `write_stdin`) may be read by a
 * shell as commands, so its `input` is also checked as `shell` `{command: <input>}`, whatever program
 * reads it, and the stricter outcome wins (deny > ask > allow > no rule). Input a shell would join to
 * the next write (a line without its newline, an open quote, a line continuation, a here-document or
 * case still open) is remembered per process and checked again in front of that next write.
 */
import { validateArguments } from '../bridge/call-tool.ts';
import type { Logger } from '../logger.ts';
import { errorResult, type ToolResult } from '../result.ts';
import type { AnyTool } from '../tool.ts';
import { ApprovalQueue } from './queue.ts';
import { redactArguments } from './redact.ts';
import type { SharedApprovals } from './shared.ts';
import { AlwaysAllowed, alwaysKey, ApprovalRules, canonicalJson, SHELL_TOOL, type ApprovalAction, type ApprovalRule, type RuleMatch } from './rules.ts';
import { parseShellScript, type ParsedScript } from './shell-script.ts';
import type { ApprovalEvent, ApprovalOutcome, Approver } from './types.ts';

export { ApprovalQueue, DEFAULT_APPROVAL_TIMEOUT_MS, type DecideAnywhereOutcome, type PendingApproval } from './queue.ts';
export type { SharedApprovals, SharedDecideOutcome, SharedDecision } from './shared.ts';
export { AlwaysAllowed, ApprovalRules, approvalRuleSchema, approvalRulesSchema, argumentText, canonicalJson, SHELL_TOOL, type ApprovalRule, type RuleMatch } from './rules.ts';
export { parseShellScript, type ParsedScript, type ShellWord, type SimpleCommand } from './shell-script.ts';
export { redactArguments, REDACTED } from './redact.ts';
export { APPROVAL_DECISIONS, type ApprovalChannel, type ApprovalDecision, type ApprovalEndReason, type ApprovalEvent, type ApprovalOutcome, type ApprovalRequest, type Approver, type ApproverUnavailable } from './types.ts';

/** Longest argument text quoted back to a model in a refusal. */
const MAX_QUOTED_ARGUMENTS = 500;
/** The tool and action whose input is checked as a shell script too. */
const PROCESS_TOOL = 'process';
const WRITE_STDIN = 'write_stdin';
/** Unfinished stdin kept per process, at most: past it the process's input is treated as unreadable. */
const MAX_STDIN_TAIL_CHARS = 64 * 1024;
/** Processes whose unfinished stdin is remembered, at most (the oldest is forgotten, as unreadable). */
const MAX_STDIN_TAILS = 64;
/** A remembered stdin the rules can no longer follow. */
const LOST = Symbol('lost');

const STRICTNESS: Record<ApprovalAction, number> = { allow: 1, ask: 2, deny: 3 };

/** The stricter of two outcomes; the first on a tie. */
function stricter(first: RuleMatch | undefined, second: RuleMatch | undefined): RuleMatch | undefined {
  if (second === undefined) return first;
  if (first === undefined) return second;
  return STRICTNESS[second.action] > STRICTNESS[first.action] ? second : first;
}

/** A deciding rule, and whether it decided on the write_stdin input read as a shell command. */
interface Decision {
  match: RuleMatch | undefined;
  viaStdin: boolean;
  /** For write_stdin: what to remember of this process's stdin once the call goes ahead. */
  commit?: () => Promise<void>;
}

export interface ApprovalGateOptions {
  rules?: readonly ApprovalRule[];
  timeoutMs?: number;
  emit?: (event: ApprovalEvent) => void;
  logger?: Logger;
  /** A fleet's shared approvals (pending requests, decisions, `always`); absent on one machine. */
  shared?: SharedApprovals;
}

export interface GateCall {
  callId: string;
  /** The call's own cancellation (client gone, host stopping): ends a pending approval as cancelled. */
  signal?: AbortSignal | undefined;
  /** The edge's interactive approver, if it has one. */
  approve?: Approver | undefined;
  /** The call's principal's subject: shown as `requested_by`; a decision from the caller's own approver is recorded as theirs. */
  requestedBy?: string | undefined;
  /** Identity mode: the principal's own approval rules, tried before the host's (first match wins over both). */
  rules?: ApprovalRules | undefined;
  /** Called once when the call starts to wait for a decision (a rule said `ask`): for progress reports. */
  onWait?: (() => void) | undefined;
}

function quote(args: Record<string, unknown>): string {
  const text = canonicalJson(args);
  return text.length > MAX_QUOTED_ARGUMENTS ? `${text.slice(0, MAX_QUOTED_ARGUMENTS)}…` : text;
}

function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

function describeRule(match: RuleMatch, viaStdin: boolean): string {
  const conditions = Object.entries(match.rule.match ?? {}).map(([key, glob]) => `${key} ~ "${glob}"`);
  if (match.rule.argv_prefix) conditions.push(`argv_prefix ${JSON.stringify(match.rule.argv_prefix)}`);
  const how = viaStdin ? `; the stdin input was checked as a ${SHELL_TOOL} command` : '';
  return `rule ${match.position} (tool "${match.rule.tool}"${conditions.length > 0 ? `, ${conditions.join(', ')}` : ''}${how})`;
}

export class ApprovalGate {
  readonly queue: ApprovalQueue;
  private readonly rules: ApprovalRules;
  private readonly always = new AlwaysAllowed();
  private readonly shared: SharedApprovals | undefined;
  private readonly logger: Logger | undefined;
  /** Per process id: stdin written that a shell would join to the next write. */
  private readonly stdinTails = new Map<string, string | typeof LOST>();

  constructor(options: ApprovalGateOptions = {}) {
    this.rules = new ApprovalRules(options.rules ?? []);
    this.shared = options.shared;
    this.queue = new ApprovalQueue({
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.emit ? { emit: options.emit } : {}),
      ...(options.shared ? { shared: options.shared } : {}),
    });
    this.logger = options.logger;
  }

  /**
   * Undefined when the call may run; else the refusal to return instead of running it. Arguments the
   * bridge would refuse pass through untouched: the bridge reports them, and nothing runs anyway.
   */
  async check(tool: AnyTool, rawArguments: unknown, call: GateCall): Promise<ToolResult | undefined> {
    if (this.rules.size === 0 && (call.rules?.size ?? 0) === 0) return undefined;
    const parsed = validateArguments(tool, rawArguments);
    if (!parsed.ok) return undefined;
    const args = parsed.value;
    const { match, viaStdin, commit } = await this.decide(tool.name, args, call.rules);
    // An `always` answer covers identical calls by the same principal (identity mode), not everyone's.
    const alwaysKey = call.requestedBy === undefined ? tool.name : `${call.requestedBy}\u0000${tool.name}`;
    if (match === undefined || match.action === 'allow' || (match.action === 'ask' && (await this.alwaysAllowed(alwaysKey, args)))) {
      await commit?.();
      return undefined;
    }
    const shown = redactArguments(args, tool.secretParams);
    if (match.action === 'deny') {
      return errorResult(
        `This call to ${tool.name} is denied by the host's approval ${describeRule(match, viaStdin)}: ${quote(shown)}. Do not retry it as is; choose another approach or ask the user.`,
        { reason: 'approval_denied', rule: match.position },
      );
    }
    const outcome = await this.ask(tool.name, shown, call);
    if (outcome.decision === 'always') this.rememberAlways(alwaysKey, args);
    if (outcome.decision !== 'deny') {
      await commit?.();
      return undefined;
    }
    return this.refusal(tool.name, shown, outcome);
  }

  /** An `always` decision covers the call: this replica's, else the fleet's (an unreachable store asks again). */
  private async alwaysAllowed(tool: string, args: Record<string, unknown>): Promise<boolean> {
    if (this.always.has(tool, args)) return true;
    if (this.shared === undefined) return false;
    const shared = await this.shared.hasAlways(alwaysKey(tool, args)).catch(() => false);
    if (shared) this.always.add(tool, args);
    return shared;
  }

  private rememberAlways(tool: string, args: Record<string, unknown>): void {
    this.always.add(tool, args);
    this.shared?.addAlways(alwaysKey(tool, args)).catch((error: unknown) => this.logger?.warn({ tool, error: String(error) }, 'an always decision was not shared with the fleet'));
  }

  /** The rule deciding a call; for write_stdin, the stricter of the call's own and its input's as a shell command. */
  private async decide(tool: string, args: Record<string, unknown>, principalRules?: ApprovalRules): Promise<Decision> {
    const rulesDecide = (name: string, values: Record<string, unknown>, script?: ParsedScript): RuleMatch | undefined =>
      principalRules?.decide(name, values, script) ?? this.rules.decide(name, values, script);
    const own = rulesDecide(tool, args);
    const processId = args['process_id'];
    if (tool !== PROCESS_TOOL || args['action'] !== WRITE_STDIN || typeof processId !== 'string') return { match: own, viaStdin: false };
    const before = await this.stdinTailOf(processId);
    const script = (typeof before === 'string' ? before : '') + (typeof args['input'] === 'string' ? args['input'] : '');
    const parsed = parseShellScript(script);
    if (before === LOST) parsed.commands.push({ text: '', words: [], redirects: [], unreadable: 'earlier input to this process could not be followed' });
    const commit = (): Promise<void> => this.rememberStdin(processId, before === LOST ? LOST : parsed.incompleteTail, args['close_stdin'] === true);
    if (script.length === 0) return { match: own, viaStdin: false, commit };
    const match = stricter(own, rulesDecide(SHELL_TOOL, { command: script }, parsed));
    return { match, viaStdin: match !== own, commit };
  }

  /**
   * What a shell would join to a process's next write. In a fleet the next write may come through
   * another replica, so the tail is the fleet's; an unreachable store counts as input that cannot be
   * followed (fail closed).
   */
  private async stdinTailOf(processId: string): Promise<string | typeof LOST | undefined> {
    if (this.shared === undefined) return this.stdinTails.get(processId);
    const tail = await this.shared.stdinTail(processId).catch(() => 'lost' as const);
    return tail === 'lost' ? LOST : tail;
  }

  /** Keeps what a shell would join to a process's next write (nothing once stdin is closed). */
  private async rememberStdin(processId: string, tail: string | typeof LOST, closing: boolean): Promise<void> {
    if (this.shared !== undefined) {
      const kept = closing || tail === '' ? undefined : tail === LOST || tail.length > MAX_STDIN_TAIL_CHARS ? ('lost' as const) : tail;
      // Awaited: the next write may come through another replica at once.
      await this.shared.setStdinTail(processId, kept).catch((error: unknown) => this.logger?.warn({ processId, error: String(error) }, 'stdin tail not shared with the fleet'));
      return;
    }
    this.stdinTails.delete(processId);
    if (closing || tail === '') return;
    this.stdinTails.set(processId, typeof tail === 'string' && tail.length > MAX_STDIN_TAIL_CHARS ? LOST : tail);
    // Text is kept for MAX_STDIN_TAILS processes; older ones keep only the mark that they cannot be followed
    // (forgetting them outright would let their next write be read without its beginning).
    let kept = 0;
    for (const entry of this.stdinTails.values()) if (entry !== LOST) kept += 1;
    if (kept <= MAX_STDIN_TAILS) return;
    for (const [id, entry] of this.stdinTails) {
      if (entry === LOST) continue;
      this.stdinTails.set(id, LOST);
      return;
    }
  }

  /** Refuses every pending approval; later calls that need one are refused too (host shutdown). */
  close(): void {
    this.queue.close();
  }

  private async ask(tool: string, shown: Record<string, unknown>, call: GateCall): Promise<ApprovalOutcome> {
    const pending = this.queue.open({ tool, callId: call.callId, arguments: shown, requestedBy: call.requestedBy }, call.signal);
    const { id } = pending.request;
    call.onWait?.();
    const nobody = (why: string): void => {
      if (this.queue.attended) {
        this.logger?.info({ tool, approvalId: id, why }, 'approval waits for the HTTP queue');
        return;
      }
      this.queue.refuse(id, 'no_approver', `${why}, and no approvals endpoint is being served (\`toolhost serve\` answers them at /v1/approvals)`);
    };
    if (call.approve) {
      call.approve(pending.request, pending.signal).then(
        (answer) => {
          if (typeof answer === 'string') this.queue.decide(id, answer, 'prompt', call.requestedBy);
          else nobody(answer.unavailable);
        },
        (error: unknown) => {
          if (pending.signal.aborted) return;
          nobody(`asking the caller failed (${error instanceof Error ? error.message : String(error)})`);
        },
      );
    } else {
      nobody('the caller cannot be asked interactively');
    }
    return pending.outcome;
  }

  private refusal(tool: string, shown: Record<string, unknown>, outcome: ApprovalOutcome): ToolResult {
    const args = quote(shown);
    switch (outcome.reason) {
      case 'user':
        return errorResult(`The user denied this call to ${tool}: ${args}. Do not repeat it; ask the user how to proceed or choose another approach.`, { reason: 'approval_denied' });
      case 'timeout':
        return errorResult(
          `This call to ${tool} needed the user's approval and nobody answered within ${formatDuration(this.queue.timeoutMs)}, so it was refused: ${args}. The user may be away; ask them before retrying.`,
          { reason: 'approval_timeout' },
        );
      case 'no_approver':
        return errorResult(`This call to ${tool} needs the user's approval, but nobody could be asked: ${outcome.detail ?? 'no approver'}. It was refused: ${args}.`, { reason: 'approval_unavailable' });
      case 'cancelled':
        return errorResult(`The call to ${tool} was cancelled while it waited for the user's approval.`, { reason: 'cancelled' });
      case 'shutdown':
        return errorResult(`The host is shutting down; the call to ${tool} was refused while it waited for the user's approval. Retry against a running host.`, { reason: 'shutting_down' });
    }
  }
}

/**
 * The approval queue of a host, for edges that answer it (the HTTP routes). Keyed by the host's
 * registry, which views of a host (e.g. the metrics wrapper `instrumentHost`) share with it, so the
 * routes find the queue whichever view they were given.
 */
const queues = new WeakMap<object, ApprovalQueue>();
const ruleLists = new WeakMap<object, readonly ApprovalRule[]>();

export function registerHostApprovals(registry: object, queue: ApprovalQueue, rules: readonly ApprovalRule[] = []): void {
  queues.set(registry, queue);
  ruleLists.set(registry, rules);
}

/** The host's approval rules as configured, in order (first match wins), for read-only views. */
export function hostApprovalRules(host: { readonly registry: object }): readonly ApprovalRule[] {
  return ruleLists.get(host.registry) ?? [];
}

export function hostApprovals(host: { readonly registry: object }): ApprovalQueue | undefined {
  return queues.get(host.registry);
}
