/**
 * Scheduled runs in a real `toolhost serve` on loopback (its own process): a six-field schedule
 * firing every second runs through the one call path (its `call_finished` on /v1/events, its record
 * in `GET /v1/calls` with transport `schedule`, its last result in `GET /v1/schedules`); an `ask`
 * approval rule holds a scheduled run until it is decided through the approvals route, the ticks that
 * come meanwhile are skipped (overlap `skip`), and a denied run is recorded as refused.
 * Waits are on events and answers, never on time.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduleStatus } from '../../src/schedules/types.ts';
import { runCli } from '../cli/run-cli.ts';
import { startDaemon, type DaemonProcess } from '../server/daemon-process.ts';
import { ADMIN_HEADERS, TEST_ADMIN_TOKEN, temporaryDirectory } from '../server/helpers.ts';
import { EventCollector, readSchedules, waitForSchedules } from './helpers.ts';

const TIMEOUT_MS = 120_000;

let daemon: DaemonProcess;
let workspace: string;
let events: EventCollector;

function scheduleNamed(schedules: readonly ScheduleStatus[], name: string): ScheduleStatus {
  const found = schedules.find((schedule) => schedule.name === name);
  if (found === undefined) throw new Error(`no schedule ${name}`);
  return found;
}

beforeAll(async () => {
  const folder = temporaryDirectory('toolhost-schedules-');
  workspace = join(folder, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'seen.txt'), 'x');
  const config = join(folder, 'toolhost.json');
  writeFileSync(
    config,
    JSON.stringify({
      workspace,
      approvals: [{ tool: 'write_file', action: 'ask' }],
      schedules: [
        { name: 'heartbeat', cron: '* * * * * *', tool: 'list_dir', arguments: { path: '.' }, timezone: 'UTC' },
        { name: 'gated', cron: '* * * * * *', tool: 'write_file', arguments: { path: 'gated.txt', content: 'written by a schedule\n' }, overlap: 'skip' },
      ],
    }),
  );
  daemon = await startDaemon(['--config', config], { cwd: folder, env: { ...process.env, TOOLHOST_ADMIN_TOKEN: TEST_ADMIN_TOKEN } });
  events = await EventCollector.open(daemon.url, ADMIN_HEADERS);
}, TIMEOUT_MS);

afterAll(async () => {
  await events?.close();
  await daemon?.stop();
});

describe('scheduled runs in a daemon', () => {
  it('runs a six-field schedule through the call path: event, call history, last result', async () => {
    const finished = await events.waitFor((event) => event.type === 'call_finished' && event.tool === 'list_dir', TIMEOUT_MS, 'call_finished of list_dir');
    const callId = finished.call_id as string;
    expect(finished.is_error).toBe(false);
    const body = await waitForSchedules(daemon.url, (answer) => scheduleNamed(answer.schedules, 'heartbeat').recent.some((run) => run.call_id === callId), { events });
    expect(body.state).toBe('memory');
    const heartbeat = scheduleNamed(body.schedules, 'heartbeat');
    expect(heartbeat).toMatchObject({ cron: '* * * * * *', tool: 'list_dir', timezone: 'UTC', overlap: 'skip', jitter_ms: 0 });
    const run = heartbeat.recent.find((entry) => entry.call_id === callId);
    expect(run).toMatchObject({ status: 'ok', is_error: false, call_id: callId });
    expect(heartbeat.last_run).not.toBeNull();
    expect(heartbeat.counts.ok).toBeGreaterThanOrEqual(1);
    expect(heartbeat.counts.error + heartbeat.counts.refused).toBe(0);
    // next_run is a tick after the last run's tick, on a whole second (six fields, every second)
    expect(Date.parse(heartbeat.next_run ?? '')).toBeGreaterThan(Date.parse(heartbeat.last_run?.tick ?? ''));
    expect(heartbeat.next_run).toMatch(/\.000Z$/);
    // the call history (admin token) has it, as a scheduled call
    const record = (await (await fetch(`${daemon.url}/v1/calls/${callId}`, { headers: ADMIN_HEADERS })).json()) as { transport: string; tool: string };
    expect(record).toMatchObject({ transport: 'schedule', tool: 'list_dir' });
  }, TIMEOUT_MS);

  it('holds a run under an ask rule until decided; ticks meanwhile are skipped; a denied run is refused', async () => {
    const requested = await events.waitFor((event) => event.type === 'approval_requested' && event.tool === 'write_file', TIMEOUT_MS, 'approval_requested');
    const approvalId = requested.id as string;
    const callId = requested.call_id as string;
    // while it waits, later ticks of `gated` find it running: skipped and recorded
    const waiting = await waitForSchedules(daemon.url, (answer) => scheduleNamed(answer.schedules, 'gated').counts.skipped >= 2, { events, timeoutMs: TIMEOUT_MS });
    const gated = scheduleNamed(waiting.schedules, 'gated');
    expect(gated.last_run).toMatchObject({ status: 'skipped', call_id: null, reason: 'overlap', is_error: false });
    expect(gated.counts.ok).toBe(0);
    expect(existsSync(join(workspace, 'gated.txt'))).toBe(false);
    // one approval pending for it, no second run queued behind it
    const pending = (await (await fetch(`${daemon.url}/v1/approvals`, { headers: ADMIN_HEADERS })).json()) as { approvals: Array<{ id: string; call_id: string }> };
    expect(pending.approvals.map((approval) => approval.call_id)).toEqual([callId]);

    const decided = await fetch(`${daemon.url}/v1/approvals/${approvalId}`, { method: 'POST', headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'allow' }) });
    expect(decided.status).toBe(200);
    const finished = await events.waitFor((event) => event.type === 'call_finished' && event.call_id === callId, TIMEOUT_MS, 'call_finished of the approved run');
    expect(finished.is_error).toBe(false);
    expect(readFileSync(join(workspace, 'gated.txt'), 'utf8')).toBe('written by a schedule\n');
    const afterAllow = await waitForSchedules(daemon.url, (answer) => scheduleNamed(answer.schedules, 'gated').recent.some((run) => run.call_id === callId), { events });
    expect(scheduleNamed(afterAllow.schedules, 'gated').recent.find((run) => run.call_id === callId)).toMatchObject({ status: 'ok', is_error: false });

    // the next tick asks again; denied, it is recorded as refused
    const next = await events.waitFor((event) => event.type === 'approval_requested' && event.tool === 'write_file' && event.id !== approvalId, TIMEOUT_MS, 'a second approval_requested');
    const denied = await fetch(`${daemon.url}/v1/approvals/${next.id as string}`, { method: 'POST', headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'deny' }) });
    expect(denied.status).toBe(200);
    const afterDeny = await waitForSchedules(daemon.url, (answer) => scheduleNamed(answer.schedules, 'gated').recent.some((run) => run.call_id === next.call_id), { events });
    const refused = scheduleNamed(afterDeny.schedules, 'gated').recent.find((run) => run.call_id === next.call_id);
    expect(refused).toMatchObject({ status: 'refused', is_error: true, reason: 'approval_denied' });
  }, 4 * TIMEOUT_MS);

  it('toolhost schedules shows the daemon view: last results and counts', async () => {
    await waitForSchedules(daemon.url, (answer) => scheduleNamed(answer.schedules, 'heartbeat').last_run !== null, { events });
    const run = await runCli(['schedules', '--url', daemon.url, '--json'], { cwd: workspace });
    expect(run.exitCode, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout) as { source: string; url: string; state: string; schedules: ScheduleStatus[] };
    expect(body).toMatchObject({ source: 'daemon', url: daemon.url, state: 'memory' });
    expect(scheduleNamed(body.schedules, 'heartbeat').counts.ok).toBeGreaterThanOrEqual(1);
    const table = await runCli(['schedules', '--url', daemon.url], { cwd: workspace });
    expect(table.stdout).toMatch(/^NAME\s+CRON\s+TOOL\s+NEXT RUN\s+LAST\s+OK\/ERR\/REFUSED\/SKIPPED$/m);
    expect(table.stdout).toMatch(/^heartbeat\s.*\sok \d{4}-/m);
  }, TIMEOUT_MS);

  it('lists every schedule, in config order, without their arguments', async () => {
    const body = await readSchedules(daemon.url);
    expect(body.schedules.map((schedule) => schedule.name)).toEqual(['heartbeat', 'gated']);
    expect(JSON.stringify(body)).not.toContain('written by a schedule');
  });
});
