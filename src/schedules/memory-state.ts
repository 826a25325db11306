/**
 * The scheduler's state in this process (one daemon per machine): every tick is this replica's, a
 * run and a queue place are flags, and the records live in a map. The Redis state (redis-state.ts)
 * keeps a copy of this replica's own runs here too, to answer when Redis cannot.
 */
import { RECENT_RUNS, type ScheduleLease, type ScheduleRecord, type ScheduleRun, type ScheduleState } from './types.ts';

export function emptyRecord(): ScheduleRecord {
  return { last_run: null, counts: { ok: 0, error: 0, refused: 0, skipped: 0 }, recent: [] };
}

/** Adds `run` to `record` (newest first, capped). */
export function addRun(record: ScheduleRecord, run: ScheduleRun): void {
  record.last_run = run;
  record.counts[run.status] += 1;
  record.recent.unshift(run);
  if (record.recent.length > RECENT_RUNS) record.recent.length = RECENT_RUNS;
}

export class MemoryScheduleState implements ScheduleState {
  readonly kind = 'memory';
  private readonly records = new Map<string, ScheduleRecord>();
  private readonly running = new Set<string>();
  private readonly queued = new Set<string>();
  /** Called when a run of the schedule ends (what a queued run waits for). */
  private readonly runEnded = new Map<string, Set<() => void>>();

  async claimTick(): Promise<boolean> {
    return true;
  }

  async tryAcquireRun(name: string): Promise<ScheduleLease | undefined> {
    return this.flag(this.running, name, () => {
      for (const wake of [...(this.runEnded.get(name) ?? [])]) wake();
    });
  }

  async tryAcquireQueue(name: string): Promise<ScheduleLease | undefined> {
    return this.flag(this.queued, name);
  }

  waitForRunEnd(name: string, signal: AbortSignal): Promise<void> {
    if (!this.running.has(name) || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.runEnded.get(name) ?? new Set<() => void>();
      this.runEnded.set(name, waiters);
      const wake = (): void => {
        waiters.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      waiters.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  async record(name: string, run: ScheduleRun): Promise<void> {
    const record = this.records.get(name) ?? emptyRecord();
    this.records.set(name, record);
    addRun(record, run);
  }

  async read(names: readonly string[]): Promise<Map<string, ScheduleRecord>> {
    return this.readNow(names);
  }

  /** `read`, synchronously (what the Redis state falls back to). */
  readNow(names: readonly string[]): Map<string, ScheduleRecord> {
    return new Map(names.map((name) => [name, structuredClone(this.records.get(name) ?? emptyRecord())]));
  }

  async close(): Promise<void> {
    for (const waiters of this.runEnded.values()) for (const wake of [...waiters]) wake();
  }

  private flag(set: Set<string>, name: string, onRelease?: () => void): ScheduleLease | undefined {
    if (set.has(name)) return undefined;
    set.add(name);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        set.delete(name);
        onRelease?.();
      },
    };
  }
}
