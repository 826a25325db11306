/**
 * openSharedState: memory by default (the replica id from TOOLHOST_REPLICA_ID, a bad one refused),
 * Redis when configured (against a real redis-server): the event fan-out hands a replica the other
 * replicas' fleet events with their origin, never its own back, and drops what a replica would never
 * send (not JSON, a tool set event, a forged empty origin, an oversized message); a host on it stamps
 * fleet-scope events with `replica` and keeps replica-scope subscribers to its own events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolHostError } from '../../src/errors.ts';
import type { HostEvent } from '../../src/host-types.ts';
import { silentLogger } from '../../src/logger.ts';
import { MAX_EVENT_BYTES } from '../../src/state/redis-events.ts';
import { openSharedState, type SharedState } from '../../src/state/index.ts';
import { createTestHost } from '../server/helpers.ts';
import { startRedis, type RedisServer } from '../fleet/harness.ts';

describe('openSharedState: memory', () => {
  it('is memory without a Redis URL, with the replica id the environment names', async () => {
    const state = await openSharedState(undefined, { env: { TOOLHOST_REPLICA_ID: 'pod-7.a_b' }, logger: silentLogger() });
    expect(state.backend).toBe('memory');
    expect(state.redis).toBeUndefined();
    expect(state.status()).toEqual({ id: 'pod-7.a_b', state: 'memory' });
    const generated = await openSharedState(undefined, { env: {}, logger: silentLogger() });
    expect(generated.replicaId).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{6}$/);
  });

  it('refuses a replica id that could smuggle text into logs, keys or /healthz', async () => {
    for (const bad of ['a b', 'pod\nfake log line', ':colon', 'x'.repeat(129), '../etc']) {
      await expect(openSharedState(undefined, { env: { TOOLHOST_REPLICA_ID: bad }, logger: silentLogger() })).rejects.toSatisfy((error: unknown) => ToolHostError.is(error, 'CONFIG_INVALID'));
    }
  });
});

describe('openSharedState: redis', () => {
  let redis: RedisServer;
  const states: SharedState[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const state of states) await state.close();
    await redis?.stop();
  });

  async function replica(id: string): Promise<SharedState> {
    const state = await openSharedState({ redis: redis.url }, { env: { TOOLHOST_REPLICA_ID: id }, logger: silentLogger(), connectWaitMs: 30_000 });
    states.push(state);
    return state;
  }

  it('fans fleet events out to the other replicas with their origin, drops its own echo and anything malformed', async () => {
    const a = await replica('replica-a');
    const b = await replica('replica-b');
    expect(a.status()).toEqual({ id: 'replica-a', state: 'redis', redis: 'up' });
    const onA: Array<[HostEvent, string]> = [];
    const onB: Array<[HostEvent, string]> = [];
    a.events!.subscribe((event, origin) => onA.push([event, origin]));
    b.events!.subscribe((event, origin) => onB.push([event, origin]));
    const channel = a.redis!.key('events');
    const publisher = a.redis!.commands;
    // what a replica never sends: none of these may reach a listener
    await publisher.publish(channel, 'not json');
    await publisher.publish(channel, JSON.stringify({ replica: 'replica-c', event: { type: 'added', name: 'x', source: 'builtin' } }));
    await publisher.publish(channel, JSON.stringify({ replica: '', event: { type: 'call_finished', tool: 'x', call_id: 'forged', duration_ms: 1, is_error: false } }));
    await publisher.publish(channel, JSON.stringify({ replica: 'replica-c', event: { type: 'call_finished', tool: 'x'.repeat(MAX_EVENT_BYTES), call_id: 'huge', duration_ms: 1, is_error: false } }));
    a.events!.publish({ type: 'call_finished', tool: 'glob', call_id: 'call-1', duration_ms: 2, is_error: false });
    // a marker from B: A's listener has seen everything published before it once it arrives
    b.events!.publish({ type: 'call_finished', tool: 'glob', call_id: 'marker', duration_ms: 1, is_error: false });
    await expect.poll(() => onA.length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => onB.length, { timeout: 30_000 }).toBe(1);
    expect(onA).toEqual([[{ type: 'call_finished', tool: 'glob', call_id: 'marker', duration_ms: 1, is_error: false }, 'replica-b']]);
    expect(onB).toEqual([[{ type: 'call_finished', tool: 'glob', call_id: 'call-1', duration_ms: 2, is_error: false }, 'replica-a']]);
  });

  it('stamps fleet-scope events with their replica; replica-scope subscribers see only their own, unstamped', async () => {
    const a = await replica('host-a');
    const b = await replica('host-b');
    const hostA = await createTestHost({ state: a });
    const hostB = await createTestHost({ state: b });
    const fleet: HostEvent[] = [];
    const local: HostEvent[] = [];
    hostA.onEvent((event) => fleet.push(event), { scope: 'fleet' });
    hostA.onEvent((event) => local.push(event));
    await hostA.callTool('echo', { text: 'a' });
    await hostB.callTool('echo', { text: 'b' });
    await expect.poll(() => fleet.filter((event) => event.type === 'call_finished').length, { timeout: 30_000 }).toBe(2);
    expect(fleet.filter((event) => event.type === 'call_finished').map((event) => event.replica)).toEqual(['host-a', 'host-b']);
    expect(local.filter((event) => event.type === 'call_finished')).toHaveLength(1);
    expect(local.every((event) => event.replica === undefined)).toBe(true);
    await hostA.close();
    await hostB.close();
    states.splice(states.indexOf(a), 1);
    states.splice(states.indexOf(b), 1);
  });
});
