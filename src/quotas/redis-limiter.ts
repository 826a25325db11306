/**
 * One quota's state shared by every replica of a fleet, in Redis (the scripts: ./redis-scripts.ts).
 * Same contract as the in-memory limiter (./limiter.ts), across replicas:
 * - `per_minute`: exact. Each admission is a member of one sorted set trimmed to the last 60 s, by
 *   Redis's clock, inside one atomic script: N replicas admitting at once never admit more than N.
 *   A refusal's `retryAfterMs` is the exact time until the oldest admission leaves the window.
 * - `concurrency`: each running call holds a slot leased for `SLOT_LEASE_MS`; the replica renews the
 *   leases of its running calls every third of that, so a replica killed with SIGKILL frees its
 *   slots when their leases run out. Calls over the limit wait in one fleet-wide FIFO queue (bounded
 *   by `queue`, each for at most `queue_timeout_ms`); a release anywhere publishes a notice that wakes
 *   the waiters on every replica, and each waiter also tries again every `WAIT_POLL_MS` (that is how a
 *   slot freed by an expired lease is found, and the waiter's heartbeat). The retry hint of a full
 *   queue is the in-memory limiter's rule applied to every replica's running calls.
 * - Fail closed: when Redis cannot be reached (or does not answer within `STATE_TIMEOUT_MS`) the
 *   call is refused with reason `state_unavailable` and a retry hint; a waiting call that loses Redis
 *   is refused the same way. A release that cannot reach Redis leaves the slot to expire with its lease.
 *
 * `state()`: `inUse` and `waiting` count this replica's calls; `windowCalls` is the fleet's count as
 * of this replica's last admission check.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.ts';
import type { RedisChannels } from '../state/channels.ts';
import type { RedisConnection } from '../state/redis-connection.ts';
import { DEFAULT_QUEUE, DEFAULT_QUEUE_TIMEOUT_MS, WINDOW_MS, type QuotaAdmission, type QuotaDecision, type QuotaLimits, type QuotaRefusal, type QuotaRefusalReason, type QuotaSlots, type QuotaSlotsFactory, type QuotaState } from './limiter.ts';
import { ACQUIRE_SCRIPT, RELEASE_SCRIPT, RENEW_SCRIPT } from './redis-scripts.ts';

/** How long a concurrency slot is held without renewal (a dead replica's slot is free after this). */
export const SLOT_LEASE_MS = 10_000;
/** How long a waiting call keeps its place in the queue without trying again. */
export const WAITER_LEASE_MS = 5_000;
/** A waiting call tries again at least this often (besides every release notice). */
export const WAIT_POLL_MS = 500;
/** A Redis answer slower than this counts as Redis unavailable. */
export const STATE_TIMEOUT_MS = 3_000;
/** The retry hint of a `state_unavailable` refusal (about one reconnection attempt). */
export const STATE_RETRY_MS = 2_000;
/** Weight of the newest duration in the running mean behind the retry hint (as in ./limiter.ts). */
const DURATION_SMOOTHING = 0.2;

type AcquireStatus = 'ok' | 'per_minute' | 'concurrency' | 'wait';
type AcquireReply = [AcquireStatus, number, number];

/** The scripts as ioredis commands (EVALSHA, falling back to EVAL once per connection). */
interface QuotaCommands {
  toolhostQuotaAcquire(...args: (string | number)[]): Promise<AcquireReply>;
  toolhostQuotaRelease(...args: (string | number)[]): Promise<number>;
  toolhostQuotaRenew(...args: (string | number)[]): Promise<number>;
}

function quotaCommands(connection: RedisConnection): QuotaCommands {
  const commands = connection.commands as unknown as Partial<QuotaCommands> & RedisConnection['commands'];
  if (commands.toolhostQuotaAcquire === undefined) {
    commands.defineCommand('toolhostQuotaAcquire', { numberOfKeys: 5, lua: ACQUIRE_SCRIPT });
    commands.defineCommand('toolhostQuotaRelease', { numberOfKeys: 5, lua: RELEASE_SCRIPT });
    commands.defineCommand('toolhostQuotaRenew', { numberOfKeys: 2, lua: RENEW_SCRIPT });
  }
  return commands as unknown as QuotaCommands;
}

/** Rejects when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface RedisQuotaOptions {
  connection: RedisConnection;
  channels: RedisChannels;
  logger?: Logger | undefined;
  /** Tests shorten these; the defaults are the constants above. */
  slotLeaseMs?: number;
  waitPollMs?: number;
}

/** One limiter per quota key, all on the replica's connection. */
export function redisQuotaSlots(options: RedisQuotaOptions): QuotaSlotsFactory {
  return (key, limits) => new RedisQuotaLimiter(key, limits, options);
}

interface Held {
  at: number;
}

export class RedisQuotaLimiter implements QuotaSlots {
  private readonly keys: string[];
  private readonly channel: string;
  private readonly commands: QuotaCommands;
  private readonly held = new Map<string, Held>();
  private readonly waiters = new Set<() => void>();
  private readonly slotLeaseMs: number;
  private readonly waitPollMs: number;
  private readonly unsubscribe: () => void;
  private renewTimer: NodeJS.Timeout | undefined;
  private meanDurationMs: number | undefined;
  private windowCalls = 0;
  private closed = false;
  private reportedDown = false;

  constructor(
    readonly key: string,
    private readonly limits: QuotaLimits,
    private readonly options: RedisQuotaOptions,
  ) {
    const { connection } = options;
    this.keys = ['window', 'slots', 'ends', 'queue', 'alive'].map((part) => connection.key('quota', key, part));
    this.channel = connection.key('quota', key, 'released');
    this.commands = quotaCommands(connection);
    this.slotLeaseMs = options.slotLeaseMs ?? SLOT_LEASE_MS;
    this.waitPollMs = options.waitPollMs ?? WAIT_POLL_MS;
    this.unsubscribe = limits.concurrency === undefined ? () => undefined : options.channels.subscribe(this.channel, () => this.wakeWaiters());
  }

  state(): QuotaState {
    return { inUse: this.held.size, waiting: this.waiters.size, windowCalls: this.windowCalls };
  }

  async acquire(signal?: AbortSignal, budgetMs?: number, onWait?: () => void): Promise<QuotaDecision> {
    if (this.closed || signal?.aborted) return refusal('cancelled', 0);
    const member = `${this.options.connection.replicaId}:${randomUUID()}`;
    let reply: AcquireReply;
    try {
      reply = await this.attempt(member, 'new', budgetMs);
    } catch (error) {
      return this.unavailable(error);
    }
    if (reply[0] === 'ok') return this.admission(member, false);
    if (reply[0] !== 'wait') return refusal(reply[0], reply[1]);
    onWait?.();
    return this.waitForSlot(member, budgetMs, signal, reply[1]);
  }

  /** Refuses the waiting calls; running calls keep their slots (and leases) until they end. */
  close(): void {
    this.closed = true;
    this.wakeWaiters();
    this.unsubscribe();
  }

  private attempt(member: string, mode: 'new' | 'wait', budgetMs: number | undefined): Promise<AcquireReply> {
    const { perMinute, concurrency, queue } = this.limits;
    return within(
      this.commands
        .toolhostQuotaAcquire(
          ...this.keys,
          member,
          perMinute ?? 0,
          concurrency ?? 0,
          queue ?? DEFAULT_QUEUE,
          this.slotLeaseMs,
          WAITER_LEASE_MS,
          this.meanDurationMs === undefined ? -1 : Math.round(this.meanDurationMs),
          budgetMs === undefined ? -1 : Math.round(budgetMs),
          mode,
          WINDOW_MS,
        )
        .then((reply) => {
          this.reportedDown = false;
          this.windowCalls = Number(reply[2]);
          return [reply[0], Number(reply[1]), Number(reply[2])] as AcquireReply;
        }),
      STATE_TIMEOUT_MS,
    );
  }

  /**
   * Waits in the fleet's queue: tries again on every release notice and every poll, until admitted,
   * refused (the rate, Redis lost), timed out, cancelled, or the limiter closes.
   */
  private async waitForSlot(member: string, budgetMs: number | undefined, signal: AbortSignal | undefined, firstHint: number): Promise<QuotaDecision> {
    let hint = firstHint;
    let ended: QuotaRefusal | undefined;
    let woken = false;
    let wake: (() => void) | undefined;
    const notify = (): void => {
      woken = true;
      wake?.();
    };
    const end = (decision: QuotaRefusal): void => {
      ended ??= decision;
      notify();
    };
    const deadline = setTimeout(() => end(refusal('queue_timeout', hint)), this.limits.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS);
    const onAbort = (): void => end(refusal('cancelled', 0));
    signal?.addEventListener('abort', onAbort, { once: true });
    this.waiters.add(notify);
    try {
      for (;;) {
        if (!woken) {
          await new Promise<void>((resolve) => {
            const poll = setTimeout(resolve, this.waitPollMs);
            wake = () => {
              clearTimeout(poll);
              resolve();
            };
          });
        }
        woken = false;
        wake = undefined;
        if (this.closed) ended ??= refusal('cancelled', 0);
        if (ended) break;
        let reply: AcquireReply;
        try {
          reply = await this.attempt(member, 'wait', budgetMs);
        } catch (error) {
          ended ??= this.unavailable(error);
          break;
        }
        if (reply[0] === 'ok') {
          const admission = this.admission(member, true);
          if (ended === undefined && !this.closed) return admission;
          admission.release({ ran: false });
          return ended ?? refusal('cancelled', 0);
        }
        if (reply[0] !== 'wait') return refusal(reply[0], reply[1]);
        hint = reply[1];
      }
      this.releaseInRedis(member, false);
      return ended;
    } finally {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      this.waiters.delete(notify);
    }
  }

  private wakeWaiters(): void {
    for (const notify of [...this.waiters]) notify();
  }

  private unavailable(error: unknown): QuotaRefusal {
    // once per outage, not once per refused call
    if (this.reportedDown) return refusal('state_unavailable', STATE_RETRY_MS);
    this.reportedDown = true;
    this.options.logger?.warn({ quota: this.key, error: error instanceof Error ? error.message : String(error) }, 'quota state unavailable; refusing the call');
    return refusal('state_unavailable', STATE_RETRY_MS);
  }

  private admission(member: string, queued: boolean): QuotaAdmission {
    const at = Date.now();
    const holdsSlot = this.limits.concurrency !== undefined;
    if (holdsSlot) {
      this.held.set(member, { at });
      this.startRenewing();
    }
    let released = false;
    return {
      ok: true,
      queued,
      release: (options = {}) => {
        if (released) return;
        released = true;
        this.held.delete(member);
        if (this.held.size === 0) this.stopRenewing();
        const ran = options.ran !== false;
        if (ran) {
          const duration = Date.now() - at;
          this.meanDurationMs = this.meanDurationMs === undefined ? duration : this.meanDurationMs + DURATION_SMOOTHING * (duration - this.meanDurationMs);
        }
        // A rate-only quota that ran keeps its window entry and holds no slot: nothing to tell Redis.
        if (holdsSlot || !ran) this.releaseInRedis(member, ran);
      },
    };
  }

  private releaseInRedis(member: string, ran: boolean): void {
    within(this.commands.toolhostQuotaRelease(...this.keys, member, ran ? '1' : '0', this.limits.concurrency === undefined ? '' : this.channel), STATE_TIMEOUT_MS).catch((error: unknown) => {
      this.options.logger?.warn({ quota: this.key, error: error instanceof Error ? error.message : String(error) }, 'quota slot not released in Redis; it frees when its lease expires');
    });
  }

  private startRenewing(): void {
    if (this.renewTimer !== undefined) return;
    this.renewTimer = setInterval(() => this.renew(), Math.max(1, Math.floor(this.slotLeaseMs / 3)));
    this.renewTimer.unref();
  }

  private stopRenewing(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = undefined;
  }

  private renew(): void {
    const members = [...this.held.keys()];
    if (members.length === 0) return;
    const [, slots, ends] = this.keys as [string, string, string];
    within(this.commands.toolhostQuotaRenew(slots, ends, this.slotLeaseMs, ...members), STATE_TIMEOUT_MS)
      .then((renewed) => {
        if (Number(renewed) < members.length) this.options.logger?.warn({ quota: this.key, held: members.length, renewed }, 'quota slot leases expired while their calls ran');
      })
      .catch((error: unknown) => this.options.logger?.debug({ quota: this.key, error: String(error) }, 'quota slot leases not renewed'));
  }
}

function refusal(reason: QuotaRefusalReason, retryAfterMs: number): QuotaRefusal {
  return { ok: false, reason, retryAfterMs: Math.max(reason === 'cancelled' ? 0 : 1, Math.ceil(retryAfterMs)) };
}
