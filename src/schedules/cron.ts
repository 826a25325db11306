/**
 * Cron expressions through croner, loaded on first use (synchronously, so config validation can use
 * it): a daemon whose config has no `schedules` never loads it. Five fields (minute precision) or
 * six (seconds first); croner's nicknames (`@daily`, `@hourly`, …) too. Times are read in `timezone`
 * (an IANA name), else in the daemon's local time zone.
 */
import { createRequire } from 'node:module';
import type { Cron as CronJob } from 'croner';

type CronModule = typeof import('croner');

let loaded: CronModule | undefined;

function croner(): CronModule {
  loaded ??= createRequire(import.meta.url)('croner') as CronModule;
  return loaded;
}

/** A parsed expression that computes its runs; never fires anything itself. */
export interface CronSchedule {
  /** The first run strictly after `after` (ms since the epoch), or undefined when none is left. */
  nextAfter(after: number): number | undefined;
}

/**
 * Parses `expression` in `timezone`.
 * @throws Error with croner's reason (an invalid field, a wrong number of fields, an unknown time zone).
 */
export function parseCron(expression: string, timezone?: string): CronSchedule {
  const { Cron } = croner();
  const job: CronJob = new Cron(expression, { paused: true, mode: '5-or-6-parts', ...(timezone !== undefined ? { timezone } : {}) });
  return {
    nextAfter(after) {
      const next = job.nextRun(new Date(after));
      return next === null ? undefined : next.getTime();
    },
  };
}

/** Why `expression` (in `timezone`) cannot be scheduled, or undefined when it can. */
export function cronProblem(expression: string, timezone?: string): string | undefined {
  if (timezone !== undefined && !isTimeZone(timezone)) return `time zone "${timezone}" is not an IANA time zone name (e.g. "Europe/Berlin", "UTC")`;
  let schedule: CronSchedule;
  try {
    schedule = parseCron(expression, timezone);
  } catch (error) {
    return `cron "${expression}" is not valid: ${(error as Error).message.replace(/^CronPattern: /, '')}`;
  }
  if (schedule.nextAfter(Date.now()) === undefined) return `cron "${expression}" never fires`;
  return undefined;
}

/** Whether Intl knows the time zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The daemon's own time zone (what a schedule without `timezone` runs in). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
