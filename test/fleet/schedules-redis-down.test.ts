/**
 * Scheduled runs while Redis is down (one replica, real redis-server stopped and started again):
 * a tick is not fired while its claim cannot be made (firing it could double it in a fleet), the
 * daemon keeps serving, `GET /v1/schedules` says shared state is unreachable and shows this
 * replica's own runs, and ticks fire again once Redis is back. Waits are on the daemon's log lines
 * and event stream.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDaemon, type DaemonProcess } from '../server/daemon-process.ts';
import { ADMIN_HEADERS, TEST_ADMIN_TOKEN, temporaryDirectory } from '../server/helpers.ts';
import { EventCollector, waitForSchedules } from '../schedules/helpers.ts';
import { startRedis, type RedisServer } from './harness.ts';

let redis: RedisServer | undefined;
let daemon: DaemonProcess | undefined;
let events: EventCollector | undefined;

afterAll(async () => {
  await events?.close();
  await daemon?.stop();
  await redis?.stop();
});

/** Resolves when the daemon's stderr, from now on, has a line matching `pattern`. */
function logLine(process: DaemonProcess, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      process.child.stderr?.off('data', onData);
      reject(new Error(`no log line ${pattern} within ${timeoutMs} ms`));
    }, timeoutMs);
    function onData(chunk: string): void {
      seen += chunk;
      const line = seen.split('\n').find((entry) => pattern.test(entry));
      if (line === undefined) return;
      clearTimeout(timer);
      process.child.stderr?.off('data', onData);
      resolve(line);
    }
    process.child.stderr?.on('data', onData);
  });
}

describe('scheduled runs while Redis is down', () => {
  it('fire no tick without shared state, keep serving, and resume when Redis is back', async () => {
    redis = await startRedis();
    const folder = temporaryDirectory('toolhost-schedules-redis-down-');
    const workspace = join(folder, 'workspace');
    mkdirSync(workspace);
    const config = join(folder, 'toolhost.json');
    writeFileSync(config, JSON.stringify({ workspace, schedules: [{ name: 'beat', cron: '* * * * * *', tool: 'list_dir', arguments: { path: '.' }, timezone: 'UTC' }] }));
    daemon = await startDaemon(['--config', config], { cwd: folder, env: { ...process.env, TOOLHOST_ADMIN_TOKEN: TEST_ADMIN_TOKEN, TOOLHOST_REDIS_URL: redis.url } });
    events = await EventCollector.open(daemon.url, ADMIN_HEADERS);
    const up = await waitForSchedules(daemon.url, (body) => (body.schedules[0]?.counts.ok ?? 0) >= 2, { events });
    expect(up.state).toBe('redis');
    expect(up.schedules[0]?.last_run?.replica).toEqual(expect.any(String));

    await redis.stop();
    // two ticks come and are not fired
    await logLine(daemon, /schedule tick not fired: shared state unavailable/);
    await logLine(daemon, /schedule tick not fired: shared state unavailable/);
    const runsBefore = events.events.filter((event) => event.type === 'call_finished' && event.tool === 'list_dir').length;
    await logLine(daemon, /schedule tick not fired: shared state unavailable/);
    expect(events.events.filter((event) => event.type === 'call_finished' && event.tool === 'list_dir').length).toBe(runsBefore);
    // the daemon still answers; the list says Redis is unreachable and shows this replica's own runs
    const down = await waitForSchedules(daemon.url, (body) => body.state_error !== undefined, { events });
    expect(down.schedules[0]?.counts.ok).toBeGreaterThanOrEqual(2);
    const call = await fetch(`${daemon.url}/v1/tools/list_dir/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: { path: '.' } }) });
    expect(((await call.json()) as { is_error: boolean }).is_error).toBe(false);

    // Redis back (empty): ticks fire again and are recorded there
    await redis.start();
    const back = await waitForSchedules(daemon.url, (body) => body.state_error === undefined && (body.schedules[0]?.counts.ok ?? 0) >= 1, { events, timeoutMs: 90_000 });
    expect(back.schedules[0]?.last_run?.status).toBe('ok');
  }, 240_000);
});
