/**
 * One quota's limiter: at most `perMinute` admissions in any sliding 60-second window, and at most
 * `concurrency` admitted calls at once, with up to `queue` more waiting (FIFO, each for at most
 * `queueTimeoutMs`) for a slot.
 *
 * Why these choices: a call over the rate is refused at once with the exact wait (when the oldest
 * admission leaves the window), because queueing for up to a minute would outlast most callers'
 * own timeouts; a call over the concurrency limit usually needs only one running call to finish,
 * so it waits in a short, bounded queue. Refusals carry `retryAfterMs`: for the rate it is exact;
 * for a full queue (and a queue timeout) it is the time until the earliest expected slot release,
 * since that is when the queue's head moves in and a place in the queue frees. Each running call is
 * expected to end one mean call duration after it was admitted (a running mean of finished calls'
 * durations); a call already past that, or any call before one has finished, is expected to end at
 * its time budget (`budgetMs`, the call's deadline: it cannot run longer); with neither known, one
 * mean duration (else 1 s) from now. Never less than 1 ms.
 *
 * Time comes from an injected clock, so the window and queue timeouts are testable without waiting.
 */

export const WINDOW_MS = 60_000;
export const DEFAULT_QUEUE = 16;
export const DEFAULT_QUEUE_TIMEOUT_MS = 30_000;
/** The retry hint for a full queue before any call's duration is known. */
export const DEFAULT_RETRY_HINT_MS = 1_000;
/** Weight of the newest duration in the running mean behind the retry hint. */
const DURATION_SMOOTHING = 0.2;

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface QuotaLimits {
  perMinute?: number | undefined;
  concurrency?: number | undefined;
  /** Calls that may wait for a concurrency slot (default 16); 0 refuses at once. */
  queue?: number | undefined;
  /** Longest wait for a slot before the call is refused (default 30 s). */
  queueTimeoutMs?: number | undefined;
}

/**
 * Why a call was not admitted: the metrics' `reason` label. `state_unavailable`: the quota's state is
 * shared by a fleet (Redis) and this replica cannot reach it now; the call is refused (fail closed).
 */
export type QuotaRefusalReason = 'per_minute' | 'concurrency' | 'queue_timeout' | 'cancelled' | 'state_unavailable';

export interface QuotaRefusal {
  ok: false;
  reason: QuotaRefusalReason;
  retryAfterMs: number;
}

export interface QuotaAdmission {
  ok: true;
  /** True when the call waited in the queue before it was admitted. */
  queued: boolean;
  /** Frees the concurrency slot; `{ran: false}` also gives back the rate-window entry (the call never ran). */
  release(options?: { ran?: boolean }): void;
}

export type QuotaDecision = QuotaAdmission | QuotaRefusal;

/** An admitted call still holding its slot. */
interface Running {
  at: number;
  budgetMs: number | undefined;
}

interface Waiter {
  resolve(decision: QuotaDecision): void;
  budgetMs: number | undefined;
  timer: unknown;
  detach(): void;
}

/**
 * What the quota gate needs of one quota's state (this in-memory limiter, or a fleet's shared one:
 * src/quotas/redis-limiter.ts). `acquire` never throws: every failure is a refusal.
 */
export interface QuotaSlots {
  acquire(signal?: AbortSignal, budgetMs?: number, onWait?: () => void): Promise<QuotaDecision>;
  /** The numbers `/metrics` and `GET /v1/quotas` show. */
  state(): QuotaState;
  /** Refuses every waiting call (the host is stopping); later acquires are refused too. */
  close(): void;
}

/** Makes the state of the quota under config key `key` (one per key, when the host starts). */
export type QuotaSlotsFactory = (key: string, limits: QuotaLimits) => QuotaSlots;

/** The in-memory limiters (one process's memory: the default). */
export function memoryQuotaSlots(clock: Clock = systemClock): QuotaSlotsFactory {
  return (_key, limits) => new QuotaLimiter(limits, clock);
}

export interface QuotaState {
  inUse: number;
  waiting: number;
  /** Admissions in the current 60-second window. */
  windowCalls: number;
}

export class QuotaLimiter implements QuotaSlots {
  private readonly perMinute: number | undefined;
  private readonly concurrency: number | undefined;
  private readonly queueLimit: number;
  private readonly queueTimeoutMs: number;
  private readonly clock: Clock;
  /** Admission times inside the window, oldest first. */
  private readonly admitted: number[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly running = new Set<Running>();
  private inUse = 0;
  private meanDurationMs: number | undefined;
  private closed = false;

  constructor(limits: QuotaLimits, clock: Clock = systemClock) {
    this.perMinute = limits.perMinute;
    this.concurrency = limits.concurrency;
    this.queueLimit = limits.queue ?? DEFAULT_QUEUE;
    this.queueTimeoutMs = limits.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS;
    this.clock = clock;
  }

  state(): QuotaState {
    this.prune();
    return { inUse: this.inUse, waiting: this.waiters.length, windowCalls: this.admitted.length };
  }

  /**
   * Admits the call now, after a wait in the queue, or refuses it; never throws. `budgetMs`: the
   * call's time budget once admitted (its deadline), which bounds the retry hint of later refusals.
   * `onWait`: called once when the call joins the queue (it will wait for a slot).
   */
  acquire(signal?: AbortSignal, budgetMs?: number, onWait?: () => void): Promise<QuotaDecision> {
    if (this.closed || signal?.aborted) return Promise.resolve(this.refusal('cancelled', 0));
    const rate = this.rateRefusal();
    if (rate) return Promise.resolve(rate);
    if (this.hasSlot()) return Promise.resolve(this.admit(false, budgetMs));
    if (this.waiters.length >= this.queueLimit) return Promise.resolve(this.refusal('concurrency', this.retryHint()));
    return new Promise<QuotaDecision>((resolve) => {
      const onAbort = (): void => this.dropWaiter(waiter, this.refusal('cancelled', 0));
      const waiter: Waiter = {
        resolve,
        budgetMs,
        timer: this.clock.setTimeout(() => this.dropWaiter(waiter, this.refusal('queue_timeout', this.retryHint())), this.queueTimeoutMs),
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      onWait?.();
    });
  }

  /** Refuses every waiting call (the host is stopping); later acquires are refused too. */
  close(): void {
    this.closed = true;
    for (const waiter of [...this.waiters]) this.dropWaiter(waiter, this.refusal('cancelled', 0));
  }

  private hasSlot(): boolean {
    return this.concurrency === undefined || this.inUse < this.concurrency;
  }

  private prune(): void {
    const horizon = this.clock.now() - WINDOW_MS;
    while (this.admitted.length > 0 && (this.admitted[0] ?? 0) <= horizon) this.admitted.shift();
  }

  private rateRefusal(): QuotaRefusal | undefined {
    if (this.perMinute === undefined) return undefined;
    this.prune();
    if (this.admitted.length < this.perMinute) return undefined;
    const oldest = this.admitted[0] ?? this.clock.now();
    return this.refusal('per_minute', Math.max(1, oldest + WINDOW_MS - this.clock.now()));
  }

  private refusal(reason: QuotaRefusalReason, retryAfterMs: number): QuotaRefusal {
    return { ok: false, reason, retryAfterMs: Math.ceil(retryAfterMs) };
  }

  /** When a running call is expected to give its slot back (see the header). */
  private expectedEnd(call: Running, now: number): number {
    const mean = this.meanDurationMs;
    if (mean !== undefined && call.at + mean > now) return call.at + mean;
    if (call.budgetMs !== undefined && call.at + call.budgetMs > now) return call.at + call.budgetMs;
    return now + (mean ?? DEFAULT_RETRY_HINT_MS);
  }

  /** Milliseconds until the earliest expected slot release. */
  private retryHint(): number {
    const now = this.clock.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const call of this.running) earliest = Math.min(earliest, this.expectedEnd(call, now));
    if (earliest === Number.POSITIVE_INFINITY) earliest = now + (this.meanDurationMs ?? DEFAULT_RETRY_HINT_MS);
    return Math.max(1, Math.round(earliest - now));
  }

  private admit(queued: boolean, budgetMs: number | undefined): QuotaAdmission {
    const at = this.clock.now();
    this.admitted.push(at);
    this.inUse += 1;
    const running: Running = { at, budgetMs };
    this.running.add(running);
    let released = false;
    return {
      ok: true,
      queued,
      release: (options = {}) => {
        if (released) return;
        released = true;
        this.inUse -= 1;
        this.running.delete(running);
        if (options.ran === false) {
          const index = this.admitted.lastIndexOf(at);
          if (index !== -1) this.admitted.splice(index, 1);
        } else {
          const duration = this.clock.now() - at;
          this.meanDurationMs = this.meanDurationMs === undefined ? duration : this.meanDurationMs + DURATION_SMOOTHING * (duration - this.meanDurationMs);
        }
        this.grantWaiters();
      },
    };
  }

  /** Hands free slots to the oldest waiters; a waiter over the rate by then is refused instead. */
  private grantWaiters(): void {
    while (this.waiters.length > 0 && this.hasSlot()) {
      const waiter = this.waiters[0];
      if (!waiter) return;
      this.dropWaiter(waiter, this.rateRefusal() ?? this.admit(true, waiter.budgetMs));
    }
  }

  private dropWaiter(waiter: Waiter, decision: QuotaDecision): void {
    const index = this.waiters.indexOf(waiter);
    if (index === -1) {
      // Already answered: an admission made for it must not leak its slot.
      if (decision.ok) decision.release({ ran: false });
      return;
    }
    this.waiters.splice(index, 1);
    this.clock.clearTimeout(waiter.timer);
    waiter.detach();
    waiter.resolve(decision);
  }
}
