/**
 * What the scheduler records and serves (`GET /v1/schedules`, `toolhost schedules`, the console),
 * and the state it keeps behind one interface (src/schedules/state.ts in memory, redis-state.ts for a
 * fleet): which replica fires a tick, whether a run is running, the last results and counts.
 */
import type { ScheduleOverlap } from './config.ts';

/** How a tick ended: the call ran and succeeded / returned is_error, a gate refused it, or it did not run (overlap). */
export type ScheduleRunStatus = 'ok' | 'error' | 'refused' | 'skipped';

/** One tick's outcome. */
export interface ScheduleRun {
  /** The tick this run was for (ISO 8601): the cron time, before jitter. */
  tick: string;
  /** ISO 8601: when the call started (for `skipped`, when the tick was skipped). */
  started_at: string;
  finished_at: string;
  status: ScheduleRunStatus;
  is_error: boolean;
  duration_ms: number;
  /** The call's id (as on `/v1/events` and `GET /v1/calls`); null when it did not run. */
  call_id: string | null;
  /** `metadata.reason` of a refused or failed call, or why a tick was skipped (`overlap`, `queue_full`). */
  reason?: string;
  /** The replica that ran it (in a fleet). */
  replica?: string;
}

export interface ScheduleCounts {
  ok: number;
  error: number;
  refused: number;
  skipped: number;
}

/** What the state holds for one schedule. */
export interface ScheduleRecord {
  last_run: ScheduleRun | null;
  counts: ScheduleCounts;
  /** The most recent runs, newest first (at most RECENT_RUNS). */
  recent: ScheduleRun[];
}

/** One entry of `GET /v1/schedules`. */
export interface ScheduleStatus extends ScheduleRecord {
  name: string;
  cron: string;
  tool: string;
  /** The configured time zone, else the daemon's own. */
  timezone: string;
  overlap: ScheduleOverlap;
  jitter_ms: number;
  /** ISO 8601; null when the expression fires no more. */
  next_run: string | null;
}

/** `GET /v1/schedules`. */
export interface SchedulesBody {
  schedules: ScheduleStatus[];
  /** `memory` (this process) or `redis` (shared by the fleet: last results from every replica). */
  state: 'memory' | 'redis';
  /** Set when shared state could not be read: the entries show only this replica's own runs. */
  state_error?: string;
}

/** How many recent runs the state keeps per schedule. */
export const RECENT_RUNS = 64;

/** A held mark (the schedule's run, or its one queue place); release it when done. */
export interface ScheduleLease {
  release(): Promise<void>;
}

/** The scheduler's state: in memory on one machine, in Redis for a fleet. */
export interface ScheduleState {
  readonly kind: 'memory' | 'redis';
  /** The replica's id in a fleet. */
  readonly replicaId?: string;
  /** Claims tick `tickMs` of `name`: true on exactly one replica (in memory: always). Rejects when shared state is unreachable. */
  claimTick(name: string, tickMs: number): Promise<boolean>;
  /** Marks `name` running; undefined when a run of it is running already (on any replica). */
  tryAcquireRun(name: string): Promise<ScheduleLease | undefined>;
  /** Takes `name`'s one place in the queue; undefined when a run already waits there. */
  tryAcquireQueue(name: string): Promise<ScheduleLease | undefined>;
  /** Resolves when a run of `name` may have ended (then try again), or when `signal` aborts. */
  waitForRunEnd(name: string, signal: AbortSignal): Promise<void>;
  /** Records a tick's outcome (last result, counts, recent). */
  record(name: string, run: ScheduleRun): Promise<void>;
  /** What is recorded for each name. */
  read(names: readonly string[]): Promise<Map<string, ScheduleRecord>>;
  /** This replica's own records, when `read` (shared state) fails. */
  readLocal?(names: readonly string[]): Map<string, ScheduleRecord>;
  close(): Promise<void>;
}

/** The scheduler as the daemon holds it (src/server/serve.ts starts it once listening, stops it at shutdown). */
export interface ScheduleService {
  start(): void;
  list(): Promise<SchedulesBody>;
  /** No more ticks (before the host closes). */
  stop(): void;
  /** After the host closed: waits for runs to be recorded, closes the state. */
  close(): Promise<void>;
}
