/**
 * The quota limiter and gate on a fake clock: the sliding minute window and its exact retry time,
 * the bounded FIFO queue for concurrency, queue timeouts, cancellation, calls that never ran giving
 * their window entry back, several matching quotas, and the config schema's field-naming errors.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { QuotaGate, QuotaLimiter, type Clock, type QuotaDecision } from '../../src/quotas/index.ts';

class FakeClock implements Clock {
  time = 1_000_000;
  private timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Moves time forward, firing due timers in time order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter(([, timer]) => timer.at <= target).sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = target;
  }
}

function admitted(decision: QuotaDecision): Extract<QuotaDecision, { ok: true }> {
  if (!decision.ok) throw new Error(`expected an admission, got ${decision.reason}`);
  return decision;
}

describe('QuotaLimiter: per_minute', () => {
  it('admits N calls in a sliding minute, then refuses with the exact time until the oldest leaves', async () => {
    const clock = new FakeClock();
    const limiter = new QuotaLimiter({ perMinute: 3 }, clock);
    for (let index = 0; index < 3; index += 1) {
      admitted(await limiter.acquire()).release();
      clock.advance(10_000);
    }
    // Calls at t0, t0+10s, t0+20s; now t0+30s.
    expect(await limiter.acquire()).toEqual({ ok: false, reason: 'per_minute', retryAfterMs: 30_000 });
    clock.advance(29_999);
    expect(await limiter.acquire()).toEqual({ ok: false, reason: 'per_minute', retryAfterMs: 1 });
    clock.advance(1);
    admitted(await limiter.acquire());
    expect(limiter.state().windowCalls).toBe(3);
  });

  it('gives the window entry back for a call that never ran', async () => {
    const clock = new FakeClock();
    const limiter = new QuotaLimiter({ perMinute: 1 }, clock);
    admitted(await limiter.acquire()).release({ ran: false });
    admitted(await limiter.acquire()).release();
    expect((await limiter.acquire()).ok).toBe(false);
  });
});

describe('QuotaLimiter: concurrency', () => {
  it('queues beyond the limit in FIFO order, up to the bound, and refuses beyond it with a retry hint', async () => {
    const clock = new FakeClock();
    const limiter = new QuotaLimiter({ concurrency: 1, queue: 2 }, clock);
    const first = admitted(await limiter.acquire());
    const order: string[] = [];
    const second = limiter.acquire().then((decision) => (order.push('second'), admitted(decision)));
    const third = limiter.acquire().then((decision) => (order.push('third'), admitted(decision)));
    expect(limiter.state()).toMatchObject({ inUse: 1, waiting: 2 });
    expect(await limiter.acquire()).toEqual({ ok: false, reason: 'concurrency', retryAfterMs: 1_000 });
    clock.advance(400);
    first.release();
    const secondAdmission = await second;
    expect(secondAdmission.queued).toBe(true);
    expect(order).toEqual(['second']);
    secondAdmission.release();
    (await third).release();
    expect(order).toEqual(['second', 'third']);
    expect(limiter.state()).toMatchObject({ inUse: 0, waiting: 0 });
  });

  it('hints the mean call duration once calls have finished', async () => {
    const clock = new FakeClock();
    const limiter = new QuotaLimiter({ concurrency: 1, queue: 0 }, clock);
    const call = admitted(await limiter.acquire());
    clock.advance(2_500);
    call.release();
    admitted(await limiter.acquire());
    expect(await limiter.acquire()).toEqual({ ok: false, reason: 'concurrency', retryAfterMs: 2_500 });
  });

  it('hints the time until the earliest expected slot release, not a constant', async () => {
    const clock = new FakeClock();
    const limiter = new QuotaLimiter({ concurrency: 1, queue: 0 }, clock);
    const first = admitted(await limiter.acquire());
    clock.advance(2_000);
    first.release(); // mean duration now 2 s
    const running = admitted(await limiter.acquire());
    clock.advance(500);
    // The running call is expected to end 2 s after it started: 1.5 s from now.
    expect(await limiter.acquire()).toEqual({ ok: false, reason: 'concurrency', retryAfterMs: 1_500 });
    clock.advance(1_400);
    expect(await limiter.acquire()).toEqual({ ok: false, reason: 'concurrency', retryAfterMs: 100 });
    running.release();
  });

  it('before any call has finished, and for a call past the mean, hints the time left in the running call\'s budget', async () => {
    const clock = new FakeClock();
    const limiter = new QuotaLimiter({ concurrency: 1, queue: 0 }, clock);
    const slow = admitted(await limiter.acquire(undefined, 10_000));
    clock.advance(4_000);
    expect(await limiter.acquire()).toEqual({ ok: false, reason: 'concurrency', retryAfterMs: 6_000 });
    slow.release(); // mean 4 s
    const overdue = admitted(await limiter.acquire(undefined, 30_000));
    clock.advance(5_000);
    // Past the 4 s mean: it ends by its 30 s budget at the latest.
    expect(await limiter.acquire()).toEqual({ ok: false, reason: 'concurrency', retryAfterMs: 25_000 });
    overdue.release();
  });

  it('with several running calls, hints the one expected to free its slot first', async () => {
    const clock = new FakeClock();
    const limiter = new QuotaLimiter({ concurrency: 2, queue: 0 }, clock);
    const long = admitted(await limiter.acquire(undefined, 60_000));
    clock.advance(1_000);
    const short = admitted(await limiter.acquire(undefined, 5_000));
    clock.advance(1_000);
    expect(await limiter.acquire()).toEqual({ ok: false, reason: 'concurrency', retryAfterMs: 4_000 });
    short.release();
    long.release();
  });

  it('QuotaGate passes the call budget through: retry_after_ms says when the running call ends', async () => {
    const clock = new FakeClock();
    const gate = new QuotaGate({ slow_tool: { concurrency: 1, queue: 0 } }, clock);
    const first = await gate.admit('slow_tool', undefined, 8_000);
    expect(first.ok).toBe(true);
    clock.advance(3_000);
    const refused = await gate.admit('slow_tool', undefined, 8_000);
    expect(refused).toMatchObject({ ok: false, result: { is_error: true, metadata: { limit: 'concurrency', retry_after_ms: 5_000 } } });
    if (first.ok) first.release();
  });

  it('refuses a queued call after the queue timeout, and one whose signal aborts', async () => {
    const clock = new FakeClock();
    const limiter = new QuotaLimiter({ concurrency: 1, queue: 5, queueTimeoutMs: 5_000 }, clock);
    const holder = admitted(await limiter.acquire());
    const timedOut = limiter.acquire();
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal);
    controller.abort();
    expect(await aborted).toMatchObject({ ok: false, reason: 'cancelled' });
    clock.advance(5_000);
    expect(await timedOut).toMatchObject({ ok: false, reason: 'queue_timeout' });
    expect(limiter.state()).toMatchObject({ inUse: 1, waiting: 0 });
    holder.release();
    expect(limiter.state().inUse).toBe(0);
  });

  it('refuses a queued call over the rate when its slot frees', async () => {
    const clock = new FakeClock();
    const limiter = new QuotaLimiter({ concurrency: 1, perMinute: 1 }, clock);
    const holder = admitted(await limiter.acquire());
    const queued = limiter.acquire();
    // The rate is checked first, so this one never queues.
    expect(await limiter.acquire()).toMatchObject({ ok: false, reason: 'per_minute' });
    holder.release();
    expect(await queued).toMatchObject({ ok: false, reason: 'per_minute', retryAfterMs: 60_000 });
  });

  it('refuses waiting and later calls once closed', async () => {
    const limiter = new QuotaLimiter({ concurrency: 1 }, new FakeClock());
    admitted(await limiter.acquire());
    const waiting = limiter.acquire();
    limiter.close();
    expect(await waiting).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(await limiter.acquire()).toMatchObject({ ok: false, reason: 'cancelled' });
  });
});

describe('QuotaGate', () => {
  it('applies every matching key (names and globs), and a refusal by one releases the others', async () => {
    const clock = new FakeClock();
    const gate = new QuotaGate({ 'fs_*': { concurrency: 1 }, fs_read: { per_minute: 1 } }, clock);
    const first = await gate.admit('fs_read');
    expect(first.ok).toBe(true);
    if (first.ok) first.release();
    const second = await gate.admit('fs_read');
    expect(second).toMatchObject({ ok: false, result: { is_error: true, metadata: { reason: 'quota_exceeded', quota: 'fs_read', limit: 'per_minute', retryable: true, retry_after_ms: 60_000 } } });
    // The glob's slot taken by the refused call was given back.
    const other = await gate.admit('fs_write');
    expect(other.ok).toBe(true);
    expect((await gate.admit('shell')).ok).toBe(true);
    const metrics = gate.metrics();
    expect(metrics.find((quota) => quota.key === 'fs_*')).toMatchObject({ inUse: 1, waiting: 0 });
    expect(metrics.find((quota) => quota.key === 'fs_read')).toMatchObject({ refused: { per_minute: 1 }, windowCalls: 1 });
  });

  it('words a refusal so a model knows it may retry, and when', async () => {
    const gate = new QuotaGate({ 'net_*': { per_minute: 1 } }, new FakeClock());
    const first = await gate.admit('net_get');
    if (first.ok) first.release();
    const refused = await gate.admit('net_post');
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.result.content).toBe(
        'Rate limited: the host allows tools matching "net_*" (here net_post) at most 1 call(s) per minute, so this call was not run. It is safe to retry the same call after 60 s (metadata.retry_after_ms = 60000).',
      );
    }
  });
});

describe('the quotas config key', () => {
  it('accepts names and globs with per_minute and/or concurrency', () => {
    const config = parseConfig({ quotas: { shell: { per_minute: 10 }, 'fs_*': { concurrency: 2, queue: 0, queue_timeout_ms: 100 } } });
    expect(config.quotas).toEqual({ shell: { per_minute: 10 }, 'fs_*': { concurrency: 2, queue: 0, queue_timeout_ms: 100 } });
  });

  it('names the field of every problem', () => {
    const message = (value: unknown): string => {
      try {
        parseConfig(value, { source: 'config file q.json' });
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(message({ quotas: { shell: { per_minute: 0 } } })).toContain('quotas.shell.per_minute: number must be greater than 0');
    expect(message({ quotas: { shell: { concurrency: 'two' } } })).toContain('quotas.shell.concurrency: expected integer, received string');
    expect(message({ quotas: { shell: { burst: 3, per_minute: 1 } } })).toContain('quotas.shell.burst: unknown field');
    expect(message({ quotas: { shell: {} } })).toContain('quotas.shell: a quota sets per_minute, concurrency, or both');
  });
});
