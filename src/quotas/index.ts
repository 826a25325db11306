/**
 * Quotas: the gate every call passes through in the host's call path (after approval, before the
 * bridge), whatever edge it came from. Each config key has one limiter (./limiter.ts); a call must be
 * admitted by every key that matches its tool, in config order, or it is refused with a retryable
 * is_error result whose metadata carries `retry_after_ms`. Counters feed `/metrics`.
 *
 * Where a quota's state lives is the `QuotaSlotsFactory` the gate is given: this process's memory
 * (./limiter.ts, the default) or a fleet's Redis (./redis-limiter.ts, chosen by src/compose.ts). A
 * shared state this replica cannot reach refuses the call with `metadata.reason: "state_unavailable"`
 * (fail closed: a quota never becomes unlimited because Redis is gone).
 */
import { compileGlob } from '../approvals/glob.ts';
import { errorResult, type ToolResult } from '../result.ts';
import type { QuotaConfig, QuotasConfig } from './config.ts';
import { memoryQuotaSlots, systemClock, type Clock, type QuotaAdmission, type QuotaRefusalReason, type QuotaSlots, type QuotaSlotsFactory, type QuotaState } from './limiter.ts';

export { quotaSchema, quotasSchema, type QuotaConfig, type QuotaHostOptions, type QuotasConfig } from './config.ts';
export { memoryQuotaSlots, QuotaLimiter, systemClock, WINDOW_MS, type Clock, type QuotaSlots, type QuotaSlotsFactory, type QuotaAdmission, type QuotaDecision, type QuotaLimits, type QuotaRefusal, type QuotaRefusalReason, type QuotaState } from './limiter.ts';

interface Quota {
  key: string;
  config: QuotaConfig;
  matches(tool: string): boolean;
  limiter: QuotaSlots;
  describe(reason: QuotaRefusalReason): string;
}

/** One quota's numbers for `/metrics`. */
export interface QuotaMetrics extends QuotaState {
  key: string;
  /** Refusals by reason. */
  refused: Partial<Record<QuotaRefusalReason, number>>;
  /** Calls that waited in the queue (admitted or not). */
  queued: number;
}

/** One quota as `GET /v1/quotas` shows it: its config and its numbers now. */
export interface QuotaStatus extends QuotaMetrics {
  limits: QuotaConfig;
}

/** What the host does with a call: run it (then `release`), or answer `result` instead. */
export type QuotaOutcome = { ok: true; release(): void } | { ok: false; result: ToolResult };

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.ceil(ms / 1000)} s` : `${ms} ms`;
}

export class QuotaGate {
  private readonly quotas: Quota[];
  private readonly counters = new Map<string, { refused: Partial<Record<QuotaRefusalReason, number>>; queued: number }>();

  /** `slots`: where each quota's state lives (default: this process's memory, on `clock`). */
  constructor(config: QuotasConfig = {}, clock: Clock = systemClock, slots: QuotaSlotsFactory = memoryQuotaSlots(clock)) {
    this.quotas = Object.entries(config).map(([key, quota]) => {
      const limiter = slots(key, { perMinute: quota.per_minute, concurrency: quota.concurrency, queue: quota.queue, queueTimeoutMs: quota.queue_timeout_ms });
      this.counters.set(key, { refused: {}, queued: 0 });
      const describe = (reason: QuotaRefusalReason): string => {
        if (reason === 'per_minute') return `at most ${quota.per_minute} call(s) per minute`;
        if (reason === 'queue_timeout') return `at most ${quota.concurrency} call(s) at once; it waited ${seconds(quota.queue_timeout_ms ?? 30_000)} for a slot`;
        return `at most ${quota.concurrency} call(s) at once and ${quota.queue ?? 16} waiting`;
      };
      return { key, config: quota, matches: compileGlob(key), limiter, describe };
    });
  }

  get size(): number {
    return this.quotas.length;
  }

  /**
   * Admits a call to `tool` under every matching quota, or refuses it. Never throws. `budgetMs`: the
   * call's time budget, which bounds the `retry_after_ms` later refusals give while it runs.
   * `onWait`: called when the call has to wait in a quota's queue for a slot (for progress reports).
   */
  async admit(tool: string, signal?: AbortSignal, budgetMs?: number, onWait?: () => void): Promise<QuotaOutcome> {
    const held: QuotaAdmission[] = [];
    for (const quota of this.quotas) {
      if (!quota.matches(tool)) continue;
      const decision = await quota.limiter.acquire(signal, budgetMs, onWait);
      const counters = this.counters.get(quota.key);
      if (decision.ok) {
        if (decision.queued && counters) counters.queued += 1;
        held.push(decision);
        continue;
      }
      if (counters) counters.refused[decision.reason] = (counters.refused[decision.reason] ?? 0) + 1;
      for (const admission of held) admission.release({ ran: false });
      return { ok: false, result: this.refusal(tool, quota, decision.reason, decision.retryAfterMs) };
    }
    return { ok: true, release: () => held.forEach((admission) => admission.release()) };
  }

  metrics(): QuotaMetrics[] {
    return this.quotas.map((quota) => {
      const counters = this.counters.get(quota.key) ?? { refused: {}, queued: 0 };
      return { key: quota.key, ...quota.limiter.state(), refused: { ...counters.refused }, queued: counters.queued };
    });
  }

  /** Each quota's configured limits and current numbers, in config order (read-only views: `GET /v1/quotas`). */
  states(): QuotaStatus[] {
    return this.metrics().map((metrics, index) => ({ ...metrics, limits: { ...(this.quotas[index]?.config ?? {}) } }));
  }

  /** Refuses every waiting call; the host is stopping. */
  close(): void {
    for (const quota of this.quotas) quota.limiter.close();
  }

  private refusal(tool: string, quota: Quota, reason: QuotaRefusalReason, retryAfterMs: number): ToolResult {
    const metadata = { reason: 'quota_exceeded', quota: quota.key, limit: reason, retryable: reason !== 'cancelled', retry_after_ms: retryAfterMs };
    if (reason === 'state_unavailable') {
      return errorResult(
        `The call to ${tool} was not run: its quota "${quota.key}" is counted in the fleet's shared state (Redis), which this replica cannot reach now, and a quota is never waived. It is safe to retry after ${seconds(retryAfterMs)} (metadata.retry_after_ms = ${retryAfterMs}).`,
        { reason: 'state_unavailable', quota: quota.key, retryable: true, retry_after_ms: retryAfterMs },
      );
    }
    if (reason === 'cancelled') return errorResult(`The call to ${tool} was cancelled while it waited for its quota "${quota.key}"; it did not run.`, metadata);
    const scope = quota.key === tool ? `tool ${tool}` : `tools matching "${quota.key}" (here ${tool})`;
    return errorResult(
      `Rate limited: the host allows ${scope} ${quota.describe(reason)}, so this call was not run. It is safe to retry the same call after ${seconds(retryAfterMs)} (metadata.retry_after_ms = ${retryAfterMs}).`,
      metadata,
    );
  }
}

/**
 * The quota gate of a host, for `/metrics`. Keyed by the host's registry, which every view of a
 * host (e.g. the metrics wrapper `instrumentHost`) shares with it.
 */
const gates = new WeakMap<object, QuotaGate>();

export function registerHostQuotas(registry: object, gate: QuotaGate): void {
  gates.set(registry, gate);
}

export function hostQuotas(host: { readonly registry: object }): QuotaGate | undefined {
  return gates.get(host.registry);
}
