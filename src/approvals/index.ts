/**
 * Approvals: the one gate every call passes through (the host's call path, after lookup and before the
 * bridge runs the tool), whatever edge it came from. Config rules decide allow / ask / deny; an `ask`
 * waits in the host's ApprovalQueue, answered over HTTP (`/v1/approvals`) or by the caller's own
 * approver (MCP elicitation, a terminal prompt), whichever comes first, until the timeout refuses it.
 */
import { validateArguments } from '../bridge/call-tool.ts';
import type { Logger } from '../logger.ts';
import { errorResult, type ToolResult } from '../result.ts';
import type { AnyTool } from '../tool.ts';
import { ApprovalQueue } from './queue.ts';
import { redactArguments } from './redact.ts';
import { AlwaysAllowed, ApprovalRules, canonicalJson, type ApprovalRule, type RuleMatch } from './rules.ts';
import type { ApprovalEvent, ApprovalOutcome, Approver } from './types.ts';

export { ApprovalQueue, DEFAULT_APPROVAL_TIMEOUT_MS, type PendingApproval } from './queue.ts';
export { AlwaysAllowed, ApprovalRules, approvalRuleSchema, approvalRulesSchema, argumentText, canonicalJson, type ApprovalRule, type RuleMatch } from './rules.ts';
export { redactArguments, REDACTED } from './redact.ts';
export { APPROVAL_DECISIONS, type ApprovalChannel, type ApprovalDecision, type ApprovalEndReason, type ApprovalEvent, type ApprovalOutcome, type ApprovalRequest, type Approver, type ApproverUnavailable } from './types.ts';

/** Longest argument text quoted back to a model in a refusal. */
const MAX_QUOTED_ARGUMENTS = 500;

export interface ApprovalGateOptions {
  rules?: readonly ApprovalRule[];
  timeoutMs?: number;
  emit?: (event: ApprovalEvent) => void;
  logger?: Logger;
}

export interface GateCall {
  callId: string;
  /** The call's own cancellation (client gone, host stopping): ends a pending approval as cancelled. */
  signal?: AbortSignal | undefined;
  /** The edge's interactive approver, if it has one. */
  approve?: Approver | undefined;
}

function quote(args: Record<string, unknown>): string {
  const text = canonicalJson(args);
  return text.length > MAX_QUOTED_ARGUMENTS ? `${text.slice(0, MAX_QUOTED_ARGUMENTS)}…` : text;
}

function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

function describeRule(match: RuleMatch): string {
  const conditions = Object.entries(match.rule.match ?? {}).map(([key, glob]) => `${key} ~ "${glob}"`);
  return `rule ${match.position} (tool "${match.rule.tool}"${conditions.length > 0 ? `, ${conditions.join(', ')}` : ''})`;
}

export class ApprovalGate {
  readonly queue: ApprovalQueue;
  private readonly rules: ApprovalRules;
  private readonly always = new AlwaysAllowed();
  private readonly logger: Logger | undefined;

  constructor(options: ApprovalGateOptions = {}) {
    this.rules = new ApprovalRules(options.rules ?? []);
    this.queue = new ApprovalQueue({ ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...(options.emit ? { emit: options.emit } : {}) });
    this.logger = options.logger;
  }

  /**
   * Undefined when the call may run; else the refusal to return instead of running it. Arguments the
   * bridge would refuse pass through untouched: the bridge reports them, and nothing runs anyway.
   */
  async check(tool: AnyTool, rawArguments: unknown, call: GateCall): Promise<ToolResult | undefined> {
    if (this.rules.size === 0) return undefined;
    const parsed = validateArguments(tool, rawArguments);
    if (!parsed.ok) return undefined;
    const args = parsed.value;
    if (this.always.has(tool.name, args)) return undefined;
    const match = this.rules.decide(tool.name, args);
    if (match === undefined || match.action === 'allow') return undefined;
    const shown = redactArguments(args, tool.secretParams);
    if (match.action === 'deny') {
      return errorResult(
        `This call to ${tool.name} is denied by the host's approval ${describeRule(match)}: ${quote(shown)}. Do not retry it as is; choose another approach or ask the user.`,
        { reason: 'approval_denied', rule: match.position },
      );
    }
    const outcome = await this.ask(tool.name, shown, call);
    if (outcome.decision === 'always') this.always.add(tool.name, args);
    if (outcome.decision !== 'deny') return undefined;
    return this.refusal(tool.name, shown, outcome);
  }

  /** Refuses every pending approval; later calls that need one are refused too (host shutdown). */
  close(): void {
    this.queue.close();
  }

  private async ask(tool: string, shown: Record<string, unknown>, call: GateCall): Promise<ApprovalOutcome> {
    const pending = this.queue.open({ tool, callId: call.callId, arguments: shown }, call.signal);
    const { id } = pending.request;
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
          if (typeof answer === 'string') this.queue.decide(id, answer, 'prompt');
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

export function registerHostApprovals(registry: object, queue: ApprovalQueue): void {
  queues.set(registry, queue);
}

export function hostApprovals(host: { readonly registry: object }): ApprovalQueue | undefined {
  return queues.get(host.registry);
}
