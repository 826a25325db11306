/**
 * A schedule as reported (`GET /v1/schedules`, `toolhost schedules`) before any result: its config
 * minus the arguments (they may hold secret references), with the effective time zone, overlap and
 * jitter, and its next run.
 */
import type { ScheduleConfig } from './config.ts';
import { localTimeZone, parseCron } from './cron.ts';
import type { ScheduleStatus } from './types.ts';

export type ScheduleSummary = Omit<ScheduleStatus, 'last_run' | 'counts' | 'recent'>;

/** The summary with `nextRunMs` as its next run (undefined: none left). */
export function scheduleSummary(schedule: ScheduleConfig, nextRunMs: number | undefined): ScheduleSummary {
  return {
    name: schedule.name,
    cron: schedule.cron,
    tool: schedule.tool,
    timezone: schedule.timezone ?? localTimeZone(),
    overlap: schedule.overlap ?? 'skip',
    jitter_ms: schedule.jitter_ms ?? 0,
    next_run: nextRunMs === undefined ? null : new Date(nextRunMs).toISOString(),
  };
}

/** The summary with the next run after `now`, computed from the expression (what the CLI shows without a daemon). */
export function plannedSchedule(schedule: ScheduleConfig, now: number = Date.now()): ScheduleSummary {
  return scheduleSummary(schedule, parseCron(schedule.cron, schedule.timezone).nextAfter(now));
}
