/**
 * The scheduler: for each configured schedule, a timer armed for its next cron tick; at each tick,
 * one run through the host's one call path (`host.callTool`: permission mode, tool visibility,
 * approvals, quotas, events, the call log), as the principal `{kind: 'schedule', subject:
 * 'schedule:<name>'}` over transport `schedule`.
 *
 * A tick, in order: claim it in the state (in a fleet exactly one replica wins; in memory always),
 * wait the jitter (random in [0, jitter_ms)), take the schedule's run mark (overlap `skip`: already
 * running → recorded as `skipped`; `queue`: wait for the running one to end, holding the one queue
 * place — a tick finding it taken is skipped), call, record the outcome (`ok`, `error`, `refused`
 * when a gate refused it), release. An `ask` approval rule holds the run in the approval queue
 * until decided or its deadline, like any call.
 *
 * Ticks come from the cron expression, not from the timer: a timer that fires late still runs its
 * tick (within MISSED_TICK_GRACE_MS; later ones are dropped and logged, never run twice), and the
 * next one is computed from the tick, so every replica of a fleet agrees on the tick times.
 *
 * `stop()` stops the timers and ends the waits (jitter, queue) of runs not yet started; calls already
 * running end with the host (host.close gives them their grace). `close()` then waits for them and
 * closes the state.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolOptions, Host } from '../host-types.ts';
import type { Principal } from '../identity/principal.ts';
import type { Logger } from '../logger.ts';
import type { ToolResult } from '../result.ts';
import { refusalOf } from '../server/call-history.ts';
import type { ScheduleConfig } from './config.ts';
import { parseCron, type CronSchedule } from './cron.ts';
import { scheduleSummary, type ScheduleSummary } from './summary.ts';
import type { ScheduleLease, ScheduleRun, ScheduleService, ScheduleState, ScheduleStatus, SchedulesBody } from './types.ts';

/** A tick whose timer fires later than this after the tick is dropped (logged), not run. */
export const MISSED_TICK_GRACE_MS = 5_000;
/** Longest single timer (setTimeout's limit is about 24.8 days); a longer wait re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface SchedulerOptions {
  schedules: readonly ScheduleConfig[];
  /** The host the runs call (the daemon passes its instrumented view, so metrics and `GET /v1/calls` see them). */
  host: Pick<Host, 'callTool'>;
  state: ScheduleState;
  logger: Logger;
  /** In [0, 1); default Math.random (the jitter). */
  random?: () => number;
}

/** The principal of a schedule's runs. */
export function schedulePrincipal(name: string): Principal {
  return { kind: 'schedule', subject: `schedule:${name}`, scopes: [] };
}

/** A finished call's status: `refused` when a gate (lookup, policy, approval, quota) refused it. */
export function runStatusOf(result: ToolResult): { status: 'ok' | 'error' | 'refused'; reason?: string } {
  if (!result.is_error) return { status: 'ok' };
  const refusal = refusalOf(result);
  if (refusal !== undefined) return { status: 'refused', reason: refusal.reason };
  const reason = result.metadata?.['reason'];
  return typeof reason === 'string' ? { status: 'error', reason: reason.slice(0, 64) } : { status: 'error' };
}

export class Scheduler implements ScheduleService {
  private readonly runners: ScheduleRunner[];
  private readonly stopping = new AbortController();

  constructor(private readonly options: SchedulerOptions) {
    this.runners = options.schedules.map((schedule) => new ScheduleRunner(schedule, options, this.stopping.signal));
  }

  start(): void {
    for (const runner of this.runners) runner.arm();
  }

  /** `GET /v1/schedules`: each schedule with its next run and what the state recorded. */
  async list(): Promise<SchedulesBody> {
    const names = this.runners.map((runner) => runner.schedule.name);
    let records;
    let stateError: string | undefined;
    try {
      records = await this.options.state.read(names);
    } catch (error) {
      stateError = (error as Error).message;
      records = this.options.state.readLocal?.(names) ?? new Map();
    }
    const schedules: ScheduleStatus[] = this.runners.map((runner) => ({
      ...runner.describe(),
      ...(records.get(runner.schedule.name) ?? { last_run: null, counts: { ok: 0, error: 0, refused: 0, skipped: 0 }, recent: [] }),
    }));
    return { schedules, state: this.options.state.kind, ...(stateError !== undefined ? { state_error: stateError } : {}) };
  }

  /** No more ticks; runs waiting for jitter or their queue place give up. */
  stop(): void {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    for (const runner of this.runners) runner.disarm();
  }

  /** Stops, waits for the runs under way to be recorded, and closes the state. */
  async close(): Promise<void> {
    this.stop();
    await Promise.all(this.runners.map((runner) => runner.settled()));
    await this.options.state.close();
  }
}

/** One schedule's timer and ticks. */
class ScheduleRunner {
  private readonly cron: CronSchedule;
  private nextTick: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly underway = new Set<Promise<void>>();

  constructor(
    readonly schedule: ScheduleConfig,
    private readonly options: SchedulerOptions,
    private readonly stopped: AbortSignal,
  ) {
    this.cron = parseCron(schedule.cron, schedule.timezone);
  }

  describe(): ScheduleSummary {
    return scheduleSummary(this.schedule, this.nextTick ?? (this.stopped.aborted ? undefined : this.cron.nextAfter(Date.now())));
  }

  /** Arms the timer for the next tick after now. */
  arm(): void {
    this.setNext(this.cron.nextAfter(Date.now()));
  }

  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.nextTick = undefined;
  }

  async settled(): Promise<void> {
    await Promise.all([...this.underway]);
  }

  private setNext(tick: number | undefined): void {
    this.nextTick = tick;
    if (tick === undefined || this.stopped.aborted) return;
    this.timer = setTimeout(() => this.onTimer(tick), Math.min(Math.max(0, tick - Date.now()), MAX_TIMER_MS));
    this.timer.unref();
  }

  private onTimer(tick: number): void {
    if (this.stopped.aborted) return;
    const now = Date.now();
    // A timer may fire a little early (or a long wait was split): wait for the tick itself.
    if (now < tick) return this.setNext(tick);
    const following = this.cron.nextAfter(tick);
    this.setNext(following !== undefined && following < now - MISSED_TICK_GRACE_MS ? this.cron.nextAfter(now) : following);
    if (now - tick > MISSED_TICK_GRACE_MS) {
      this.options.logger.warn({ schedule: this.schedule.name, tick: new Date(tick).toISOString(), late_ms: now - tick }, 'schedule tick dropped: the timer fired too late');
      return;
    }
    const run = this.tick(tick).catch((error: unknown) => {
      this.options.logger.error({ schedule: this.schedule.name, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, 'schedule tick failed');
    });
    this.underway.add(run);
    void run.finally(() => this.underway.delete(run));
  }

  /** One tick: claim, jitter, overlap, call, record. */
  private async tick(tick: number): Promise<void> {
    const { state, logger } = this.options;
    const name = this.schedule.name;
    let claimed: boolean;
    try {
      claimed = await state.claimTick(name, tick);
    } catch (error) {
      // Without shared state nobody can know whether another replica fires it: none does (no double fire).
      logger.warn({ schedule: name, tick: new Date(tick).toISOString(), error: (error as Error).message }, 'schedule tick not fired: shared state unavailable');
      return;
    }
    if (!claimed) return;
    const jitterMs = this.schedule.jitter_ms ?? 0;
    if (jitterMs > 0 && !(await delay(Math.floor((this.options.random ?? Math.random)() * jitterMs), this.stopped))) return;
    const lease = await this.acquireRun(tick);
    if (lease === undefined) return;
    try {
      if (this.stopped.aborted) return;
      await this.call(tick);
    } finally {
      await lease.release().catch(() => undefined);
    }
  }

  /** The run mark, per `overlap`; undefined when the tick is skipped (recorded) or the scheduler stopped. */
  private async acquireRun(tick: number): Promise<ScheduleLease | undefined> {
    const { state } = this.options;
    const name = this.schedule.name;
    const lease = await state.tryAcquireRun(name);
    if (lease !== undefined) return lease;
    if ((this.schedule.overlap ?? 'skip') === 'skip') {
      await this.recordSkipped(tick, 'overlap');
      return undefined;
    }
    const place = await state.tryAcquireQueue(name);
    if (place === undefined) {
      await this.recordSkipped(tick, 'queue_full');
      return undefined;
    }
    try {
      for (;;) {
        await state.waitForRunEnd(name, this.stopped);
        if (this.stopped.aborted) return undefined;
        const acquired = await state.tryAcquireRun(name);
        if (acquired !== undefined) return acquired;
      }
    } finally {
      await place.release().catch(() => undefined);
    }
  }

  private async call(tick: number): Promise<void> {
    const { host, state } = this.options;
    const callId = randomUUID();
    const startedAt = new Date();
    const started = performance.now();
    const callOptions: CallToolOptions = { callId, transport: 'schedule', principal: schedulePrincipal(this.schedule.name) };
    const result = await host.callTool(this.schedule.tool, this.schedule.arguments, callOptions);
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    const { status, reason } = runStatusOf(result);
    await this.record({
      tick: new Date(tick).toISOString(),
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      status,
      is_error: result.is_error,
      duration_ms: durationMs,
      call_id: callId,
      ...(reason !== undefined ? { reason } : {}),
      ...(state.replicaId !== undefined ? { replica: state.replicaId } : {}),
    });
  }

  private async recordSkipped(tick: number, reason: 'overlap' | 'queue_full'): Promise<void> {
    const now = new Date().toISOString();
    this.options.logger.info({ schedule: this.schedule.name, tick: new Date(tick).toISOString(), reason }, 'schedule tick skipped: the previous run is still running');
    const replica = this.options.state.replicaId;
    await this.record({ tick: new Date(tick).toISOString(), started_at: now, finished_at: now, status: 'skipped', is_error: false, duration_ms: 0, call_id: null, reason, ...(replica !== undefined ? { replica } : {}) });
  }

  private async record(run: ScheduleRun): Promise<void> {
    try {
      await this.options.state.record(this.schedule.name, run);
    } catch (error) {
      this.options.logger.warn({ schedule: this.schedule.name, tick: run.tick, error: (error as Error).message }, 'schedule run not recorded: shared state unavailable');
    }
  }
}

/** Waits `ms`; false when `signal` aborted first. */
function delay(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
