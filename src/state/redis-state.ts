/**
 * The `redis` backend of `SharedState` (./shared-state.ts): the replica's one connection pair, the
 * pub/sub channels over it, quotas in Redis (src/quotas/redis-limiter.ts) and the event fan-out
 * (./redis-events.ts). Imported only when a Redis URL is configured.
 *
 * Start-up waits up to `connectWaitMs` for Redis, then starts anyway: a daemon whose Redis is down
 * serves calls that need no shared state and refuses those that do (each feature fails closed), and
 * the connection keeps reconnecting. Redis going down and coming back is logged once each way.
 */
import type { Logger } from '../logger.ts';
import { redisQuotaSlots } from '../quotas/redis-limiter.ts';
import { createRedisChannels } from './channels.ts';
import { redactedRedisUrl } from './config.ts';
import { openRedisConnection } from './redis-connection.ts';
import { redisEventFanout } from './redis-events.ts';
import type { SharedState } from './shared-state.ts';

export const DEFAULT_CONNECT_WAIT_MS = 5_000;

export async function openRedisState(options: { url: string; replicaId: string; logger: Logger; connectWaitMs?: number; keyPrefix?: string }): Promise<SharedState> {
  const { logger, url } = options;
  const redis = await openRedisConnection({ url, replicaId: options.replicaId, ...(options.keyPrefix !== undefined ? { keyPrefix: options.keyPrefix } : {}) });
  const where = redactedRedisUrl(url);
  try {
    await redis.waitReady(options.connectWaitMs ?? DEFAULT_CONNECT_WAIT_MS);
    logger.info({ redis: where, replica: redis.replicaId }, 'shared state in Redis');
  } catch {
    logger.warn({ redis: where, replica: redis.replicaId }, 'Redis not reachable yet: calls under a quota are refused until it is');
  }
  let up = redis.ready();
  const onChange = (): void => {
    const now = redis.ready();
    if (now === up) return;
    up = now;
    if (now) logger.info({ redis: where }, 'Redis reachable again');
    else logger.warn({ redis: where }, 'Redis unreachable: calls that need shared state are refused until it is back');
  };
  for (const client of [redis.commands, redis.subscriber]) {
    client.on('ready', onChange);
    client.on('close', onChange);
  }
  const channels = createRedisChannels(redis);
  return {
    backend: 'redis',
    replicaId: redis.replicaId,
    redis,
    channels,
    quotaSlots: redisQuotaSlots({ connection: redis, channels, logger }),
    events: redisEventFanout(redis, channels, logger),
    status: () => ({ id: redis.replicaId, state: 'redis', redis: redis.ready() ? 'up' : 'down' }),
    async close() {
      channels.close();
      await redis.close();
    },
  };
}
