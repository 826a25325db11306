/**
 * Scheduled runs in a fleet: real redis-server, three real `toolhost serve` replicas and HAProxy
 * (test/fleet/harness.ts). A schedule firing every 2 s (six-field cron) whose run takes half a
 * second must fire exactly once per tick across the three for at least 30 ticks (over a minute),
 * while one replica is SIGKILLed in the middle of a run: that tick may be lost (its claim stays, so
 * nobody re-fires it), no tick fires twice, and no later tick is lost or skipped (the dead replica's
 * run mark is taken over at once, its Redis connection being gone).
 *
 * Counted, not timed: each run's tick and call id come from the fleet's record (`GET /v1/schedules`
 * through the balancer, any replica), and every run must match one `call_finished` on the replicas'
 * event streams; the expected ticks are enumerated from the cron expression between the first and
 * the last recorded one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCron } from '../../src/schedules/cron.ts';
import type { ScheduleRun, ScheduleStatus } from '../../src/schedules/types.ts';
import { ADMIN_HEADERS, TEST_ADMIN_TOKEN, temporaryDirectory } from '../server/helpers.ts';
import { EventCollector, waitForSchedules } from '../schedules/helpers.ts';
import { startFleet, type Fleet } from './harness.ts';

const CRON = '*/2 * * * * *';
/** Ticks that must be recorded (2 s apart: over a minute). */
const TICKS = 32;
/** Ticks before the kill. */
const TICKS_BEFORE_KILL = 8;

let fleet: Fleet | undefined;
const collectors: EventCollector[] = [];

afterAll(async () => {
  for (const collector of collectors) await collector.close().catch(() => undefined);
  await fleet?.stop();
});

function fleetTick(body: { schedules: ScheduleStatus[] }): ScheduleStatus {
  const found = body.schedules.find((schedule) => schedule.name === 'fleet-tick');
  if (found === undefined) throw new Error('no schedule fleet-tick');
  return found;
}

function recorded(schedule: ScheduleStatus): number {
  return schedule.counts.ok + schedule.counts.error + schedule.counts.refused + schedule.counts.skipped;
}

describe('scheduled runs in a fleet of three', () => {
  it('fire exactly once per tick across the replicas, through a replica killed mid-run', async () => {
    const folder = temporaryDirectory('toolhost-fleet-schedules-');
    const workspace = join(folder, 'workspace');
    mkdirSync(workspace);
    const config = join(folder, 'toolhost.json');
    writeFileSync(config, JSON.stringify({ workspace, schedules: [{ name: 'fleet-tick', cron: CRON, tool: 'shell', arguments: { command: 'sleep 0.5' }, timezone: 'UTC' }] }));
    fleet = await startFleet({ count: 3, cwd: folder, serveArgs: ['--config', config], env: { TOOLHOST_ADMIN_TOKEN: TEST_ADMIN_TOKEN } });
    for (const replica of fleet.replicas) collectors.push(await EventCollector.open(replica.url, ADMIN_HEADERS));
    const balancer = fleet.balancer.url;

    const before = await waitForSchedules(balancer, (body) => fleetTick(body).counts.ok >= TICKS_BEFORE_KILL, { timeoutMs: 120_000, events: collectors[0] });
    expect(before.state).toBe('redis');

    // SIGKILL a replica while it runs a tick (its /healthz counts the call in flight)
    let victim = -1;
    while (victim < 0) {
      const loads = await Promise.all(fleet.replicas.map(async (replica) => ((await (await fetch(`${replica.url}/healthz`)).json()) as { in_flight_calls: number }).in_flight_calls));
      victim = loads.findIndex((count) => count > 0);
      if (victim < 0) await collectors[0]?.next(50);
    }
    const killed = fleet.replicas[victim];
    if (killed === undefined) throw new Error('no victim');
    killed.child.kill('SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
    const survivors = collectors.filter((_, index) => index !== victim);

    const body = await waitForSchedules(balancer, (answer) => recorded(fleetTick(answer)) >= TICKS, { timeoutMs: 240_000, events: survivors[0] });
    const schedule = fleetTick(body);
    const runs: ScheduleRun[] = [...schedule.recent].reverse();

    // every recorded run ran (none skipped, none failed), each tick once
    expect(runs.filter((run) => run.status !== 'ok'), JSON.stringify(runs, null, 1)).toEqual([]);
    const ticks = runs.map((run) => run.tick);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(schedule.counts).toEqual({ ok: runs.length, error: 0, refused: 0, skipped: 0 });

    // the ticks the cron expression has between the first and the last run: at most one missing (the one killed)
    const cron = parseCron(CRON, 'UTC');
    const first = Date.parse(ticks[0] ?? '');
    const last = Date.parse(ticks[ticks.length - 1] ?? '');
    const expected: string[] = [];
    for (let tick: number | undefined = first; tick !== undefined && tick <= last; tick = cron.nextAfter(tick)) expected.push(new Date(tick).toISOString());
    const missing = expected.filter((tick) => !ticks.includes(tick));
    expect(missing.length).toBeLessThanOrEqual(1);
    expect(ticks.every((tick) => expected.includes(tick))).toBe(true);
    expect(expected.length).toBeGreaterThanOrEqual(TICKS);

    // runs came from more than one replica, and each is one call_finished seen on the replicas' streams
    expect(new Set(runs.map((run) => run.replica)).size).toBeGreaterThan(1);
    for (const run of runs.slice(-3)) await Promise.any(survivors.map((collector) => collector.waitFor((event) => event.type === 'call_finished' && event.call_id === run.call_id, 30_000)));
    const finished = new Map<string, number>();
    for (const collector of collectors) {
      const seenHere = new Set<string>();
      for (const event of collector.events) if (event.type === 'call_finished' && event.tool === 'shell') seenHere.add(event.call_id as string);
      for (const callId of seenHere) finished.set(callId, (finished.get(callId) ?? 0) + 1);
    }
    const runIds = runs.map((run) => run.call_id ?? '');
    expect(runIds.filter((callId) => !finished.has(callId))).toEqual([]);
    // a call_finished without a recorded run: only a run cut off by the kill (its record never written) or one still being recorded
    expect([...finished.keys()].filter((callId) => !runIds.includes(callId)).length).toBeLessThanOrEqual(2);
  }, 420_000);
});
