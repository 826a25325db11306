/**
 * The scheduler on a real host (built-in tools, the real approval queue), in this process: overlap
 * `queue` runs a tick after the running one (at most one waiting; later ticks are skipped as
 * `queue_full`), an undecided `ask` is refused at the approval deadline, jitter delays a run after its
 * tick, and an unknown tool is a refused run. Waits are on the host's events.
 */
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostApprovals } from '../../src/approvals/index.ts';
import { createHost } from '../../src/host.ts';
import type { Host, HostEvent } from '../../src/host-types.ts';
import { silentLogger } from '../../src/logger.ts';
import type { PermissionLevel } from '../../src/permission.ts';
import type { ScheduleConfig } from '../../src/schedules/config.ts';
import { createScheduler, type Scheduler } from '../../src/schedules/index.ts';
import type { SchedulesBody } from '../../src/schedules/types.ts';

const open: Array<{ host: Host; scheduler: Scheduler }> = [];
afterEach(async () => {
  for (const { host, scheduler } of open.splice(0)) {
    scheduler.stop();
    await host.close({ graceMs: 0 });
    await scheduler.close();
  }
});

/** Host events, with a wait for the first that matches. */
function eventsOf(host: Host): { events: HostEvent[]; waitFor(match: (event: HostEvent) => boolean): Promise<HostEvent> } {
  const events: HostEvent[] = [];
  const waiters = new Set<() => void>();
  host.onEvent((event) => {
    events.push(event);
    for (const wake of [...waiters]) wake();
  });
  return {
    events,
    async waitFor(match) {
      for (;;) {
        const found = events.find(match);
        if (found !== undefined) return found;
        await new Promise<void>((resolve) => {
          const wake = (): void => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
        });
      }
    },
  };
}

async function start(schedules: ScheduleConfig[], options: { approvals?: boolean; approvalTimeoutMs?: number; random?: () => number; permissionMode?: PermissionLevel; exclude?: string[] } = {}) {
  const workspaceRoot = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-scheduler-')));
  const host = await createHost({
    workspaceRoot,
    ...(options.permissionMode !== undefined ? { permissionMode: options.permissionMode } : {}),
    ...(options.exclude !== undefined ? { exclude: options.exclude } : {}),
    ...(options.approvals ? { approvals: [{ tool: 'write_file', action: 'ask' as const }] } : {}),
    ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
  });
  hostApprovals(host)?.attend();
  const events = eventsOf(host);
  const scheduler = createScheduler({ schedules, host, logger: silentLogger(), ...(options.random !== undefined ? { random: options.random } : {}) });
  open.push({ host, scheduler });
  scheduler.start();
  return { host, scheduler, events };
}

/** Waits (on host events) until the scheduler's answer matches. */
async function until(scheduler: Scheduler, events: ReturnType<typeof eventsOf>, match: (body: SchedulesBody) => boolean): Promise<SchedulesBody> {
  for (;;) {
    const body = await scheduler.list();
    if (match(body)) return body;
    const seen = events.events.length;
    await Promise.race([events.waitFor(() => events.events.length > seen), new Promise((resolve) => setTimeout(resolve, 200))]);
  }
}

describe('scheduler', () => {
  it('overlap queue: one tick waits for the running run, later ones are skipped as queue_full', async () => {
    const { host, scheduler, events } = await start([{ name: 'queued', cron: '* * * * * *', tool: 'write_file', arguments: { path: 'out.txt', content: 'x' }, overlap: 'queue' }], { approvals: true });
    const first = await events.waitFor((event) => event.type === 'approval_requested');
    if (first.type !== 'approval_requested') throw new Error('unreachable');
    // while the first waits for a person: one tick queued behind it, the ones after skipped
    const waiting = await until(scheduler, events, (body) => (body.schedules[0]?.counts.skipped ?? 0) >= 2);
    expect(waiting.schedules[0]?.last_run).toMatchObject({ status: 'skipped', reason: 'queue_full', call_id: null });
    expect(hostApprovals(host)?.list().map((request) => request.call_id)).toEqual([first.call_id]);
    hostApprovals(host)?.decide(first.id, 'allow', 'http');
    const firstFinished = await events.waitFor((event) => event.type === 'call_finished' && event.call_id === first.call_id);
    // the queued tick runs next: its approval comes after the first call finished
    const second = await events.waitFor((event) => event.type === 'approval_requested' && event.id !== first.id);
    expect(events.events.indexOf(second)).toBeGreaterThan(events.events.indexOf(firstFinished));
    if (second.type !== 'approval_requested') throw new Error('unreachable');
    const body = await until(scheduler, events, (answer) => answer.schedules[0]?.recent.some((run) => run.call_id === first.call_id) === true);
    const firstRun = body.schedules[0]?.recent.find((run) => run.call_id === first.call_id);
    expect(firstRun).toMatchObject({ status: 'ok' });
    // the queued run's tick is earlier than the ticks skipped as queue_full after it
    const skipped = body.schedules[0]?.recent.filter((run) => run.reason === 'queue_full') ?? [];
    expect(skipped.length).toBeGreaterThanOrEqual(2);
    hostApprovals(host)?.decide(second.id, 'deny', 'http');
    const denied = await until(scheduler, events, (answer) => answer.schedules[0]?.recent.some((run) => run.call_id === second.call_id) === true);
    const queuedRun = denied.schedules[0]?.recent.find((run) => run.call_id === second.call_id);
    expect(queuedRun).toMatchObject({ status: 'refused', reason: 'approval_denied' });
    expect(Date.parse(queuedRun?.tick ?? '')).toBeLessThan(Math.max(...skipped.map((run) => Date.parse(run.tick))));
  }, 60_000);

  it('a run nobody decides is refused at the approval deadline', async () => {
    const { scheduler, events } = await start([{ name: 'undecided', cron: '* * * * * *', tool: 'write_file', arguments: { path: 'out.txt', content: 'x' } }], { approvals: true, approvalTimeoutMs: 300 });
    const requested = await events.waitFor((event) => event.type === 'approval_requested');
    if (requested.type !== 'approval_requested') throw new Error('unreachable');
    const body = await until(scheduler, events, (answer) => answer.schedules[0]?.recent.some((run) => run.call_id === requested.call_id) === true);
    expect(body.schedules[0]?.recent.find((run) => run.call_id === requested.call_id)).toMatchObject({ status: 'refused', is_error: true, reason: 'approval_timeout' });
  }, 60_000);

  it('jitter delays the run after its tick', async () => {
    const { scheduler, events } = await start([{ name: 'jittered', cron: '* * * * * *', tool: 'list_dir', arguments: { path: '.' }, jitter_ms: 800 }], { random: () => 0.999 });
    const body = await until(scheduler, events, (answer) => answer.schedules[0]?.last_run !== null);
    const run = body.schedules[0]?.last_run;
    expect(run?.status).toBe('ok');
    // random 0.999 of 800 ms: the call starts at least 799 ms after its tick (a lower bound, whatever the load)
    expect(Date.parse(run?.started_at ?? '') - Date.parse(run?.tick ?? '')).toBeGreaterThanOrEqual(799);
    expect(body.schedules[0]?.jitter_ms).toBe(800);
  }, 60_000);

  it('a schedule cannot reach past the permission mode or an exclude: refused, the file never written', async () => {
    const { host, scheduler, events } = await start(
      [
        { name: 'allowed-write', cron: '* * * * * *', tool: 'write_file', arguments: { path: 'allowed.txt', content: 'x' } },
        { name: 'excluded', cron: '* * * * * *', tool: 'shell', arguments: { command: 'touch pwned2.txt' } },
      ],
      { permissionMode: 'write', exclude: ['shell'] },
    );
    const body = await until(scheduler, events, (answer) => answer.schedules.every((schedule) => schedule.last_run !== null));
    expect(body.schedules[0]?.last_run).toMatchObject({ status: 'ok' });
    expect(body.schedules[1]?.last_run).toMatchObject({ status: 'refused', reason: 'excluded' });
    const readOnly = await start([{ name: 'escalate', cron: '* * * * * *', tool: 'write_file', arguments: { path: 'pwned.txt', content: 'x' } }], { permissionMode: 'read_only' });
    const refused = await until(readOnly.scheduler, readOnly.events, (answer) => answer.schedules[0]?.last_run !== null);
    expect(refused.schedules[0]?.last_run).toMatchObject({ status: 'refused', reason: 'permission' });
    expect(existsSync(join(readOnly.host.workspaceRoot, 'pwned.txt'))).toBe(false);
    expect(existsSync(join(host.workspaceRoot, 'pwned2.txt'))).toBe(false);
  }, 60_000);

  it('a tool that does not exist is a refused run, with the lookup reason', async () => {
    const { scheduler, events } = await start([{ name: 'ghost', cron: '* * * * * *', tool: 'no_such_tool', arguments: {} }]);
    const body = await until(scheduler, events, (answer) => answer.schedules[0]?.last_run !== null);
    expect(body.schedules[0]?.last_run).toMatchObject({ status: 'refused', is_error: true, reason: 'unknown' });
  }, 60_000);
});
