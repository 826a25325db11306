/**
 * The Redis-backed quota limiter against a real redis-server: several "replicas" (each its own
 * connection, replica id and limiter, as separate daemons would have) share one quota. The window
 * admits exactly per_minute under concurrent acquires from all of them; a refusal's retry time comes
 * from Redis's clock; a call that never ran gives its entry back; concurrency slots are shared, queue
 * FIFO across replicas and are woken by a release on another replica; a replica that vanishes
 * without releasing (as after SIGKILL) frees its slot when the lease expires; Redis down refuses
 * with `state_unavailable` (never admits), and after a restart the quota works again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaGate, type QuotaDecision } from '../../src/quotas/index.ts';
import { RedisQuotaLimiter, redisQuotaSlots } from '../../src/quotas/redis-limiter.ts';
import { createRedisChannels, type RedisChannels } from '../../src/state/channels.ts';
import { openRedisConnection, type RedisConnection } from '../../src/state/redis-connection.ts';
import { startRedis, type RedisServer } from '../fleet/harness.ts';

let redis: RedisServer;
const opened: Array<{ connection: RedisConnection; channels: RedisChannels }> = [];
let prefixCounter = 0;

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const { connection, channels } of opened) {
    channels.close();
    await connection.close();
  }
  await redis?.stop();
});

/** `count` replicas' connections under one fresh key prefix (each test its own quota state). */
async function replicas(count: number): Promise<Array<{ connection: RedisConnection; channels: RedisChannels }>> {
  const keyPrefix = `test${++prefixCounter}:`;
  const made = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const connection = await openRedisConnection({ url: redis.url, keyPrefix, replicaId: `replica-${index}` });
      await connection.waitReady(30_000);
      return { connection, channels: createRedisChannels(connection) };
    }),
  );
  opened.push(...made);
  return made;
}

function admitted(decision: QuotaDecision): Extract<QuotaDecision, { ok: true }> {
  if (!decision.ok) throw new Error(`expected an admission, got ${decision.reason}`);
  return decision;
}

describe('Redis quota limiter: per_minute across replicas', () => {
  it('admits exactly per_minute of 40 concurrent acquires from 4 replicas, and refuses the rest with the time until the oldest leaves', async () => {
    const limiters = (await replicas(4)).map((parts) => new RedisQuotaLimiter('echo', { perMinute: 10 }, parts));
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, index) => limiters[index % 4]!.acquire()));
    const ok = decisions.filter((decision) => decision.ok);
    expect(ok).toHaveLength(10);
    for (const decision of decisions) {
      if (decision.ok) continue;
      expect(decision.reason).toBe('per_minute');
      expect(decision.retryAfterMs).toBeGreaterThan(0);
      expect(decision.retryAfterMs).toBeLessThanOrEqual(60_000);
    }
    expect(limiters[0]!.state().windowCalls).toBe(10);
    for (const limiter of limiters) limiter.close();
  });

  it('gives the window entry back for a call that never ran', async () => {
    const [a, b] = await replicas(2);
    const first = new RedisQuotaLimiter('q', { perMinute: 1 }, a!);
    const second = new RedisQuotaLimiter('q', { perMinute: 1 }, b!);
    admitted(await first.acquire()).release({ ran: false });
    // release is sent without waiting; the next acquire on another replica must see it (same connection order is not guaranteed across connections)
    let decision = await second.acquire();
    for (let attempt = 0; !decision.ok && attempt < 100; attempt += 1) decision = await second.acquire();
    admitted(decision).release();
    expect((await first.acquire()).ok).toBe(false);
  });
});

describe('Redis quota limiter: concurrency across replicas', () => {
  it('shares the slots, queues FIFO across replicas, and wakes a waiter on one replica when another releases', async () => {
    const [a, b, c] = await replicas(3);
    const limits = { concurrency: 1, queue: 2, queueTimeoutMs: 60_000 };
    const onA = new RedisQuotaLimiter('slow', limits, a!);
    const onB = new RedisQuotaLimiter('slow', limits, b!);
    const onC = new RedisQuotaLimiter('slow', limits, c!);
    const running = admitted(await onA.acquire());
    let bJoined!: () => void;
    let cJoined!: () => void;
    const bQueued = new Promise<void>((resolve) => (bJoined = resolve));
    const cQueued = new Promise<void>((resolve) => (cJoined = resolve));
    const onBDecision = onB.acquire(undefined, undefined, () => bJoined());
    await bQueued;
    const onCDecision = onC.acquire(undefined, undefined, () => cJoined());
    await cQueued;
    // the fleet's queue is full (2): a third waiter is refused at once with a retry hint
    const refused = await onA.acquire();
    expect(refused).toMatchObject({ ok: false, reason: 'concurrency' });
    expect(refused.ok === false && refused.retryAfterMs).toBeGreaterThan(0);
    running.release();
    // B queued first, so B gets the slot (woken by A's release notice); C keeps waiting behind it
    const onBAdmission = admitted(await onBDecision);
    expect(onBAdmission.queued).toBe(true);
    expect(onC.state().waiting).toBe(1);
    onBAdmission.release();
    const onCAdmission = admitted(await onCDecision);
    expect(onCAdmission.queued).toBe(true);
    onCAdmission.release();
    onA.close();
    onB.close();
    onC.close();
  });

  it('never runs more than `concurrency` calls at once across replicas, and every queued call gets its turn', async () => {
    const parts = await replicas(3);
    const limits = { concurrency: 3, queue: 30, queueTimeoutMs: 120_000 };
    const limiters = parts.map((replica) => new RedisQuotaLimiter('busy', limits, replica));
    let running = 0;
    let most = 0;
    let queued = 0;
    const results = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const decision = admitted(await limiters[index % 3]!.acquire(undefined, 10_000));
        if (decision.queued) queued += 1;
        running += 1;
        most = Math.max(most, running);
        // hold the slot across a few Redis round trips (another replica's acquire interleaves here)
        for (let step = 0; step < 3; step += 1) await parts[index % 3]!.connection.commands.ping();
        running -= 1;
        decision.release();
        return true;
      }),
    );
    expect(results).toHaveLength(30);
    expect(most).toBeLessThanOrEqual(3);
    expect(queued).toBeGreaterThan(0);
    for (const limiter of limiters) limiter.close();
  });

  it('frees the slot of a replica that vanished without releasing once its lease expires', async () => {
    const [dead, live] = await replicas(2);
    const limits = { concurrency: 1, queue: 4, queueTimeoutMs: 60_000 };
    const doomed = new RedisQuotaLimiter('slot', limits, { ...dead!, slotLeaseMs: 1_000 });
    const survivor = new RedisQuotaLimiter('slot', limits, { ...live!, slotLeaseMs: 1_000, waitPollMs: 100 });
    admitted(await doomed.acquire());
    // the dead replica stops renewing (its process is gone) and never releases
    doomed.close();
    dead!.channels.close();
    await dead!.connection.close();
    let queued = false;
    const decision = admitted(await survivor.acquire(undefined, undefined, () => (queued = true)));
    expect(queued).toBe(true);
    expect(decision.queued).toBe(true);
    decision.release();
    survivor.close();
  });

  it('keeps a long call’s slot while its replica renews the lease', async () => {
    const [a, b] = await replicas(2);
    const limits = { concurrency: 1, queue: 0 };
    const holder = new RedisQuotaLimiter('renewed', limits, { ...a!, slotLeaseMs: 600 });
    const other = new RedisQuotaLimiter('renewed', limits, { ...b!, slotLeaseMs: 600 });
    const held = admitted(await holder.acquire());
    // several lease periods pass (observed through Redis's own clock via the slot's score moving on)
    const slotKey = a!.connection.key('quota', 'renewed', 'slots');
    const first = Number((await a!.connection.commands.zrange(slotKey, '0', '0', 'WITHSCORES'))[1]);
    await expect.poll(async () => Number((await a!.connection.commands.zrange(slotKey, '0', '0', 'WITHSCORES'))[1]), { timeout: 30_000 }).toBeGreaterThan(first + 1_200);
    expect(await other.acquire()).toMatchObject({ ok: false, reason: 'concurrency' });
    held.release();
    await expect.poll(async () => (await other.acquire()).ok, { timeout: 30_000 }).toBe(true);
    holder.close();
    other.close();
  });
});

describe('Redis quota limiter: retry hints', () => {
  it('hints a full queue with the time until the earliest slot is expected back, from the other replicas’ calls', async () => {
    const [a, b] = await replicas(2);
    const limits = { concurrency: 1, queue: 0 };
    const holder = new RedisQuotaLimiter('hinted', limits, a!);
    const other = new RedisQuotaLimiter('hinted', limits, b!);
    const held = admitted(await holder.acquire(undefined, 4_000));
    const refused = await other.acquire();
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.reason).toBe('concurrency');
    // no call has finished anywhere yet: the holder's time budget bounds when its slot comes back
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(4_000);
    held.release();
    holder.close();
    other.close();
  });
});

describe('Redis quota limiter: Redis down', () => {
  it('refuses with state_unavailable while Redis is stopped (never admits), and works again after a restart', async () => {
    const [a, b] = await replicas(2);
    const gate = new QuotaGate({ echo: { per_minute: 5 }, slow: { concurrency: 2 } }, undefined, redisQuotaSlots(a!));
    const ok = await gate.admit('echo');
    expect(ok.ok).toBe(true);
    if (ok.ok) ok.release();
    // a call waiting in a queue when Redis goes is refused too, not admitted
    const holder = new RedisQuotaLimiter('held', { concurrency: 1, queueTimeoutMs: 120_000 }, a!);
    const waiter = new RedisQuotaLimiter('held', { concurrency: 1, queueTimeoutMs: 120_000 }, { ...b!, waitPollMs: 50 });
    admitted(await holder.acquire());
    let queued!: () => void;
    const inQueue = new Promise<void>((resolve) => (queued = resolve));
    const waiting = waiter.acquire(undefined, undefined, () => queued());
    await inQueue;
    await redis.stop();
    expect(await waiting).toMatchObject({ ok: false, reason: 'state_unavailable' });
    holder.close();
    waiter.close();
    for (const tool of ['echo', 'slow']) {
      const outcome = await gate.admit(tool);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.result.is_error).toBe(true);
      expect(outcome.result.metadata).toMatchObject({ reason: 'state_unavailable', quota: tool, retryable: true });
      expect(outcome.result.content).toMatch(/cannot reach/);
    }
    // a tool under no quota is not gated at all
    const free = await gate.admit('other');
    expect(free.ok).toBe(true);
    await redis.start();
    await a!.connection.waitReady(30_000);
    const again = await gate.admit('slow');
    expect(again.ok).toBe(true);
    if (again.ok) again.release();
    expect(gate.metrics().find((quota) => quota.key === 'slow')?.refused).toEqual({ state_unavailable: 1 });
    gate.close();
  });
});
