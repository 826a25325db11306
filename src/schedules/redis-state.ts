/**
 * The scheduler's state in Redis, for a fleet: every replica arms the same ticks, and
 *
 * - a tick fires on exactly one replica: `SET schedules:<name>:tick:<ms> <replica> NX PX` — the
 *   first replica to set it runs the tick. The key outlives every replica's chance to try the same
 *   tick (a tick is tried only within MISSED_TICK_GRACE_MS of its time), so a replica that dies
 *   mid-run leaves the tick claimed: no other replica re-fires it (that tick is lost, never doubled);
 * - the run mark (`schedules:<name>:running`) and the one queue place (`…:queued`) are leases
 *   (SET NX PX with a token naming the holder's Redis client id), renewed while held and released
 *   only by their holder (Lua compare-and-delete). A replica finding a mark held by a client Redis
 *   no longer lists (its process died: the kernel closed its connection) takes it over at once
 *   (Lua compare-and-set); a holder that vanished without closing its connection (a lost node)
 *   loses the mark when the lease runs out (RUN_LEASE_MS). So a killed replica's run blocks no later
 *   tick of its schedule;
 * - each outcome goes to `…:last` (JSON), `…:counts` (a hash by status) and `…:recent` (a capped
 *   list), so `GET /v1/schedules` on any replica shows the fleet's results.
 *
 * Redis unreachable: a tick is not fired (its claim fails: firing it could double it), overlap marks
 * cannot be taken (the tick is skipped), and reads fall back to this replica's own runs, kept in
 * memory too.
 */
import { randomBytes } from 'node:crypto';
import type { RedisConnection } from '../state/redis-connection.ts';
import { MemoryScheduleState, emptyRecord } from './memory-state.ts';
import { MISSED_TICK_GRACE_MS } from './scheduler.ts';
import { RECENT_RUNS, type ScheduleLease, type ScheduleRecord, type ScheduleRun, type ScheduleState } from './types.ts';

/** How long a tick's claim stays: well past the last moment any replica may still try that tick. */
export const TICK_CLAIM_MS = MISSED_TICK_GRACE_MS + 60_000;
/** A run mark's lease; renewed every third of it while the run lasts. */
export const RUN_LEASE_MS = 30_000;
/** How often a queued run looks whether the running one has ended. */
export const QUEUE_POLL_MS = 250;

const RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";
const SWAP = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 else return 0 end";
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

export class RedisScheduleState implements ScheduleState {
  readonly kind = 'redis';
  readonly replicaId: string;
  /** This replica's own runs: what reads answer with when Redis cannot. */
  private readonly local = new MemoryScheduleState();
  private readonly leases = new Set<NodeJS.Timeout>();

  constructor(private readonly connection: RedisConnection) {
    this.replicaId = connection.replicaId;
  }

  async claimTick(name: string, tickMs: number): Promise<boolean> {
    const answer = await this.connection.commands.set(this.key(name, 'tick', String(tickMs)), this.replicaId, 'PX', TICK_CLAIM_MS, 'NX');
    return answer === 'OK';
  }

  tryAcquireRun(name: string): Promise<ScheduleLease | undefined> {
    return this.lease(this.key(name, 'running'));
  }

  tryAcquireQueue(name: string): Promise<ScheduleLease | undefined> {
    return this.lease(this.key(name, 'queued'));
  }

  /** The running mark may be on another replica: look again after QUEUE_POLL_MS (the caller tries to take it). */
  async waitForRunEnd(_name: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, QUEUE_POLL_MS);
      function done(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
  }

  async record(name: string, run: ScheduleRun): Promise<void> {
    await this.local.record(name, run);
    const json = JSON.stringify(run);
    await this.connection.commands
      .multi()
      .set(this.key(name, 'last'), json)
      .hincrby(this.key(name, 'counts'), run.status, 1)
      .lpush(this.key(name, 'recent'), json)
      .ltrim(this.key(name, 'recent'), 0, RECENT_RUNS - 1)
      .exec();
  }

  async read(names: readonly string[]): Promise<Map<string, ScheduleRecord>> {
    const pipeline = this.connection.commands.pipeline();
    for (const name of names) pipeline.get(this.key(name, 'last')).hgetall(this.key(name, 'counts')).lrange(this.key(name, 'recent'), 0, RECENT_RUNS - 1);
    const answers = (await pipeline.exec()) ?? [];
    const records = new Map<string, ScheduleRecord>();
    names.forEach((name, index) => {
      const [last, counts, recent] = answers.slice(index * 3, index * 3 + 3).map(([error, value]) => {
        if (error) throw error;
        return value;
      });
      const record = emptyRecord();
      record.last_run = typeof last === 'string' ? (JSON.parse(last) as ScheduleRun) : null;
      for (const status of ['ok', 'error', 'refused', 'skipped'] as const) record.counts[status] = Number((counts as Record<string, string> | undefined)?.[status] ?? 0);
      record.recent = ((recent as string[] | undefined) ?? []).map((entry) => JSON.parse(entry) as ScheduleRun);
      records.set(name, record);
    });
    return records;
  }

  /** This replica's own runs (what a caller shows when `read` fails). */
  readLocal(names: readonly string[]): Map<string, ScheduleRecord> {
    return this.local.readNow(names);
  }

  async close(): Promise<void> {
    for (const timer of this.leases) clearInterval(timer);
    this.leases.clear();
    await this.local.close();
  }

  /** Takes `key` over when its holder's Redis client is gone (a killed replica); false when it is alive. */
  private async takeOverStale(key: string, token: string): Promise<boolean> {
    const { commands } = this.connection;
    const holder = await commands.get(key);
    if (holder === null) return (await commands.set(key, token, 'PX', RUN_LEASE_MS, 'NX')) === 'OK';
    const clientId = holder.slice(0, holder.indexOf(':'));
    if (!/^\d{1,20}$/.test(clientId)) return false;
    const listed = String(await commands.client('LIST', 'ID', clientId));
    if (listed.trim() !== '') return false;
    return (await commands.eval(SWAP, 1, key, holder, token, RUN_LEASE_MS)) === 1;
  }

  private key(name: string, ...parts: string[]): string {
    return this.connection.key('schedules', name, ...parts);
  }

  /** A lease on `key`, renewed while held; undefined when a live holder has it. */
  private async lease(key: string): Promise<ScheduleLease | undefined> {
    const { commands } = this.connection;
    // `<client id>:<replica>:<random>`: the client id tells others whether the holder is still connected.
    const token = `${String(await commands.client('ID'))}:${this.replicaId}:${randomBytes(8).toString('hex')}`;
    if ((await commands.set(key, token, 'PX', RUN_LEASE_MS, 'NX')) !== 'OK' && !(await this.takeOverStale(key, token))) return undefined;
    const renew = setInterval(() => void commands.eval(RENEW, 1, key, token, RUN_LEASE_MS).catch(() => undefined), RUN_LEASE_MS / 3);
    renew.unref();
    this.leases.add(renew);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renew);
        this.leases.delete(renew);
        await commands.eval(RELEASE, 1, key, token);
      },
    };
  }
}
