/**
 * The approval queue: every call that needs a person's decision waits here, whichever edge it came
 * from, so one list (`GET /v1/approvals`) and one event stream show them all. A pending approval ends
 * exactly once: decided (HTTP or the caller's own approver), timed out, cancelled with its call, or
 * refused because nobody can be asked or the host stops. Ending it aborts its signal, which tells an
 * approver still asking (an MCP elicitation, a terminal prompt) to stop.
 *
 * In a fleet (`shared`, src/approvals/shared.ts) each pending approval is also announced to the other
 * replicas: `listAll` shows the fleet's, `decideAnywhere` decides one wherever it waits, and every
 * ending here first claims the approval in the shared store, so of two deciders exactly one wins (a
 * lost claim takes the winner's recorded decision). A call whose approval cannot be announced (the
 * store is unreachable) is refused at once: it fails closed.
 */
import { randomUUID } from 'node:crypto';
import type { SharedApprovals, SharedDecideOutcome } from './shared.ts';
import type { ApprovalChannel, ApprovalDecision, ApprovalEndReason, ApprovalEvent, ApprovalOutcome, ApprovalRequest } from './types.ts';

export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

export interface ApprovalQueueOptions {
  /** How long a call waits for a decision before it is refused. Default 120 s. */
  timeoutMs?: number;
  emit?: (event: ApprovalEvent) => void;
  /** The fleet's shared approvals; absent on one machine. */
  shared?: SharedApprovals;
}

export interface PendingApproval {
  readonly request: ApprovalRequest;
  /** Settles once, when the approval ends; never rejects. */
  readonly outcome: Promise<ApprovalOutcome>;
  /** Aborted when the approval ends. */
  readonly signal: AbortSignal;
}

interface Entry {
  request: ApprovalRequest;
  /** Ends it (claiming it in the shared store first, unless `claimed`: the store already gave it to this decider). */
  settle: (outcome: ApprovalOutcome, claimed?: boolean) => void;
}

/** What `decideAnywhere` did. */
export type DecideAnywhereOutcome = SharedDecideOutcome;

export class ApprovalQueue {
  readonly timeoutMs: number;
  private readonly emit: (event: ApprovalEvent) => void;
  private readonly pending = new Map<string, Entry>();
  private attendants = 0;
  private closed = false;
  private readonly shared: SharedApprovals | undefined;
  private readonly stopListening: () => void;

  constructor(options: ApprovalQueueOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.emit = options.emit ?? (() => undefined);
    this.shared = options.shared;
    // A decision another replica won for a call waiting here.
    this.stopListening =
      this.shared?.onDecision(({ id, decision, decidedBy }) => this.pending.get(id)?.settle({ decision, reason: 'user', via: 'http', ...(decidedBy !== undefined ? { decided_by: decidedBy } : {}) }, true)) ?? (() => undefined);
  }

  /**
   * Marks that something answers this queue (the HTTP routes of a daemon); returns the release.
   * Without an attendant, a call whose caller cannot ask interactively is refused at once instead of
   * waiting out the timeout for a decision that cannot come.
   */
  attend(): () => void {
    this.attendants += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.attendants -= 1;
    };
  }

  get attended(): boolean {
    return this.attendants > 0;
  }

  /** Approvals waiting for a decision, oldest first. */
  list(): ApprovalRequest[] {
    return [...this.pending.values()].map((entry) => entry.request);
  }

  get size(): number {
    return this.pending.size;
  }

  /** The fleet's pending approvals (this replica's alone without a shared store). Rejects while the store is unreachable. */
  async listAll(): Promise<ApprovalRequest[]> {
    return this.shared ? this.shared.list() : this.list();
  }

  /**
   * A person's decision for an approval pending on any replica. Exactly one of concurrent deciders
   * gets `decided`; `lost` when the replica it waited on is gone. Rejects while the store is unreachable.
   */
  async decideAnywhere(id: string, decision: ApprovalDecision, via: ApprovalChannel, decidedBy?: string): Promise<DecideAnywhereOutcome> {
    if (!this.shared) return this.decide(id, decision, via, decidedBy) ? { status: 'decided', replica: 'local' } : { status: 'not_found' };
    const outcome = await this.shared.decide(id, decision, decidedBy);
    // Waiting here: release it now rather than when the published decision comes back.
    if (outcome.status === 'decided' && outcome.replica === this.shared.replicaId) this.pending.get(id)?.settle({ decision, reason: 'user', via, ...(decidedBy !== undefined ? { decided_by: decidedBy } : {}) }, true);
    return outcome;
  }

  /**
   * Queues a call for a decision. `cancel` (the call's own signal: client gone, host stopping) ends it
   * as cancelled. The timeout starts now.
   */
  open(call: { tool: string; callId: string; arguments: Record<string, unknown>; requestedBy?: string | undefined }, cancel?: AbortSignal): PendingApproval {
    const created = Date.now();
    const request: ApprovalRequest = {
      id: randomUUID(),
      tool: call.tool,
      arguments: call.arguments,
      created_at: new Date(created).toISOString(),
      expires_at: new Date(created + this.timeoutMs).toISOString(),
      call_id: call.callId,
      ...(call.requestedBy !== undefined ? { requested_by: call.requestedBy } : {}),
    };
    const ended = new AbortController();
    let resolveOutcome: (outcome: ApprovalOutcome) => void = () => undefined;
    const outcome = new Promise<ApprovalOutcome>((resolve) => {
      resolveOutcome = resolve;
    });
    const timer = setTimeout(() => settle({ decision: 'deny', reason: 'timeout' }), this.timeoutMs);
    const onCancel = (): void => settle({ decision: 'deny', reason: 'cancelled' });
    let claiming = false;
    /** Resolves true once announced to the fleet, false when that failed (and the approval was refused). */
    let announced: Promise<boolean> | undefined;
    const settle = (result: ApprovalOutcome, claimed = false): void => {
      if (!this.pending.has(request.id)) return;
      const { shared } = this;
      if (shared === undefined || claimed) {
        finish(result);
        return;
      }
      if (claiming) return;
      claiming = true;
      // Claimed only once announced: a claim racing the announcement would leave a record behind.
      (announced ?? Promise.resolve(true))
        .then((ok) => (ok ? shared.claim(request.id) : true))
        .then(
          async (won) => {
          if (won) return finish(result);
          // Another replica won: its decision is on its way (or recorded, if the message was missed).
          const recorded = await shared.decisionOf(request.id).catch(() => undefined);
          finish(recorded !== undefined ? { decision: recorded, reason: 'user', via: 'http' } : result);
        },
        // The store is unreachable: end it here (nobody else can reach it either).
        () => finish(result),
      );
    };
    const finish = (result: ApprovalOutcome): void => {
      if (!this.pending.delete(request.id)) return;
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
      this.emit({
        type: 'approval_decided',
        id: request.id,
        tool: request.tool,
        call_id: request.call_id,
        decision: result.decision,
        reason: result.reason,
        ...(result.via ? { via: result.via } : {}),
        ...(result.decided_by !== undefined ? { decided_by: result.decided_by } : {}),
      });
      ended.abort();
      resolveOutcome(result);
    };
    this.pending.set(request.id, { request, settle });
    this.emit({ type: 'approval_requested', ...request });
    if (this.closed) {
      finish({ decision: 'deny', reason: 'shutdown' });
      return { request, outcome, signal: ended.signal };
    }
    announced = this.shared?.announce(request, created + this.timeoutMs).then(
      () => true,
      (error: unknown) => {
        finish({ decision: 'deny', reason: 'no_approver', detail: `the fleet's shared approval state is unreachable (${error instanceof Error ? error.message : String(error)})` });
        return false;
      },
    );
    if (cancel?.aborted) settle({ decision: 'deny', reason: 'cancelled' });
    else if (cancel?.aborted) settle({ decision: 'deny', reason: 'cancelled' });
    else cancel?.addEventListener('abort', onCancel, { once: true });
    return { request, outcome, signal: ended.signal };
  }

  /**
   * A person's decision; false when no such approval is pending (decided, expired, or never existed).
   * `decidedBy`: who decided (a principal's subject, `admin-token`), recorded on `approval_decided`.
   */
  decide(id: string, decision: ApprovalDecision, via: ApprovalChannel, decidedBy?: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    entry.settle({ decision, reason: 'user', via, ...(decidedBy !== undefined ? { decided_by: decidedBy } : {}) });
    return true;
  }

  /** Ends a pending approval without a person's decision (e.g. nobody can be asked); false when not pending. */
  refuse(id: string, reason: Exclude<ApprovalEndReason, 'user'>, detail?: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    entry.settle({ decision: 'deny', reason, ...(detail !== undefined ? { detail } : {}) });
    return true;
  }

  /** Refuses everything pending and everything opened later (the host is stopping). */
  close(): void {
    this.closed = true;
    this.stopListening();
    for (const entry of [...this.pending.values()]) entry.settle({ decision: 'deny', reason: 'shutdown' });
  }
}
