/**
 * The one Redis connection pair of a replica: `commands` for reads, writes and Lua scripts, and
 * `subscriber` for pub/sub (a subscribed ioredis connection cannot run other commands). Every key a
 * feature writes goes through `key(...)`, under one prefix (`toolhost:` by default), so a fleet can
 * share a Redis with other software and the tests can use one Redis per run.
 *
 * Failure contract: commands never queue while Redis is unreachable (`enableOfflineQueue: false`,
 * one retry per request): a feature that needs shared state gets an error at once and must fail
 * closed (a quota never becomes unlimited because Redis is gone); the connection keeps reconnecting
 * in the background (capped backoff), and `ready()` says whether it is up now. A daemon starts even
 * when Redis is down: calls that need no shared state keep working.
 *
 * ioredis is loaded only when a Redis URL is configured: one machine without Redis pays nothing.
 */
import type { Redis, RedisOptions } from 'ioredis';
import { redactedRedisUrl } from './config.ts';
import { defaultReplicaId } from './replica-id.ts';

export { defaultReplicaId } from './replica-id.ts';

export const DEFAULT_KEY_PREFIX = 'toolhost:';
/** Longest pause between two reconnection attempts. */
export const MAX_RECONNECT_DELAY_MS = 2_000;

export interface RedisConnectionOptions {
  url: string;
  /** Default `toolhost:`. */
  keyPrefix?: string;
  /** This replica's id (default: hostname + random suffix); what other replicas see as the owner of its state. */
  replicaId?: string;
  /** How long one connection attempt may take (default 5 s). */
  connectTimeoutMs?: number;
}

export interface RedisConnection {
  readonly replicaId: string;
  readonly commands: Redis;
  readonly subscriber: Redis;
  /** `<prefix><parts joined by ':'>`. */
  key(...parts: readonly string[]): string;
  /** Whether both connections are up now. */
  ready(): boolean;
  /** Resolves when both connections are up (or rejects after `timeoutMs`). */
  waitReady(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function openRedisConnection(options: RedisConnectionOptions): Promise<RedisConnection> {
  const { Redis: RedisClient } = await import('ioredis');
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const replicaId = options.replicaId ?? defaultReplicaId();
  const settings: RedisOptions = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 6), MAX_RECONNECT_DELAY_MS),
    connectionName: `toolhost:${replicaId}`,
  };
  const commands = new RedisClient(options.url, settings);
  const subscriber = new RedisClient(options.url, { ...settings, connectionName: `toolhost:${replicaId}:sub` });
  // Errors are reported through ready() and each command's rejection; an unhandled 'error' event would crash.
  commands.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  commands.connect().catch(() => undefined);
  subscriber.connect().catch(() => undefined);
  const ready = (): boolean => commands.status === 'ready' && subscriber.status === 'ready';
  return {
    replicaId,
    commands,
    subscriber,
    key: (...parts) => prefix + parts.join(':'),
    ready,
    waitReady(timeoutMs) {
      if (ready()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (!ready()) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`Redis at ${redactedRedisUrl(options.url)} not reachable within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          commands.off('ready', check);
          subscriber.off('ready', check);
        };
        commands.on('ready', check);
        subscriber.on('ready', check);
      });
    },
    async close() {
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}
