/**
 * Scheduled runs (config `schedules`): the daemon's scheduler, with its state in memory or, when a
 * Redis connection is given (config `state.redis`), in Redis so each tick fires on exactly one
 * replica of a fleet. Imported by the composition root only when the config has schedules.
 */
import type { Host } from '../host-types.ts';
import type { Logger } from '../logger.ts';
import type { RedisConnection } from '../state/redis-connection.ts';
import type { ScheduleConfig } from './config.ts';
import { MemoryScheduleState } from './memory-state.ts';
import { RedisScheduleState } from './redis-state.ts';
import { Scheduler } from './scheduler.ts';

export { Scheduler, schedulePrincipal, runStatusOf, MISSED_TICK_GRACE_MS } from './scheduler.ts';
export type { ScheduleService, SchedulesBody, ScheduleStatus, ScheduleRun, ScheduleRunStatus, ScheduleCounts } from './types.ts';

export interface CreateSchedulerOptions {
  schedules: readonly ScheduleConfig[];
  host: Pick<Host, 'callTool'>;
  logger: Logger;
  /** The replica's Redis connection (shared state); absent = in memory. The caller closes it. */
  connection?: RedisConnection;
  /** In [0, 1): the jitter's randomness (default Math.random). */
  random?: () => number;
}

export function createScheduler(options: CreateSchedulerOptions): Scheduler {
  const state = options.connection !== undefined ? new RedisScheduleState(options.connection) : new MemoryScheduleState();
  return new Scheduler({ schedules: options.schedules, host: options.host, logger: options.logger, state, ...(options.random !== undefined ? { random: options.random } : {}) });
}
