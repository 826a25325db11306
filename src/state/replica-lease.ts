/**
 * A replica's lease in Redis: the key `replicas:<replica id>` exists while the replica lives. It is
 * set with a time to live of `ttlMs` and renewed every `ttlMs / 3`; a replica that dies (SIGKILL,
 * lost machine) stops renewing it and is reported dead `ttlMs` later at most. What other replicas
 * hold on its behalf (pending approvals, background processes) is then reported lost with it.
 *
 * `alive(id)` reads the lease; a Redis error propagates (callers fail closed: an approval or a
 * process whose owner cannot be checked is not acted on).
 */
import type { RedisConnection } from './redis-connection.ts';

export const DEFAULT_REPLICA_LEASE_MS = 6_000;

export interface ReplicaLease {
  readonly replicaId: string;
  /** Whether `replicaId`'s lease is held now (this replica's own is always alive). */
  alive(replicaId: string): Promise<boolean>;
  /** Ids of every replica whose lease is held now. */
  members(): Promise<string[]>;
  /** Stops renewing and drops the lease (a clean shutdown is seen at once). */
  stop(): Promise<void>;
}

export function startReplicaLease(connection: RedisConnection, options: { ttlMs?: number } = {}): ReplicaLease {
  const ttlMs = options.ttlMs ?? DEFAULT_REPLICA_LEASE_MS;
  const own = connection.key('replicas', connection.replicaId);
  const renew = (): void => {
    connection.commands.set(own, String(Date.now()), 'PX', ttlMs).catch(() => undefined);
  };
  renew();
  // Renewed on reconnection too: a Redis restarted empty learns the replica again at once.
  connection.commands.on('ready', renew);
  const timer = setInterval(renew, Math.max(100, Math.floor(ttlMs / 3)));
  timer.unref();
  let stopped = false;
  return {
    replicaId: connection.replicaId,
    async alive(replicaId) {
      if (replicaId === connection.replicaId) return !stopped;
      return (await connection.commands.exists(connection.key('replicas', replicaId))) === 1;
    },
    async members() {
      const prefix = connection.key('replicas', '');
      const found: string[] = [];
      let cursor = '0';
      do {
        const [next, keys] = await connection.commands.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 100);
        cursor = next;
        for (const key of keys) found.push(key.slice(prefix.length));
      } while (cursor !== '0' && found.length < 10_000);
      return found;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      connection.commands.off('ready', renew);
      await connection.commands.del(own).catch(() => undefined);
    },
  };
}
