/**
 * `SharedState`: the one object through which a host reaches state it shares with the other
 * replicas of a fleet. Built by `openSharedState` (./index.ts) from the config's `state` key and
 * handed to the host (`HostOptions.state`) by the composition root; the host closes it.
 *
 * Two backends: `memory` (one daemon per machine, the default: quotas in this process, no fan-out,
 * nothing new paid) and `redis` (a fleet: every store on the replica's ONE `RedisConnection`).
 * A feature that keeps shared state plugs in here: it builds its store from `redis` and `channels`
 * when `backend` is `redis`, and uses its in-memory form otherwise; its Redis keys go through
 * `redis.key(...)` and name their owner by `replicaId`.
 */
import type { EventFanout } from '../host/events.ts';
import { memoryQuotaSlots, type QuotaSlotsFactory } from '../quotas/limiter.ts';
import type { RedisChannels } from './channels.ts';
import type { RedisConnection } from './redis-connection.ts';

export type StateBackend = 'memory' | 'redis';

/** `/healthz`'s `replica`: which replica answers and how its shared state is. Nothing private (no URL). */
export interface ReplicaStatus {
  id: string;
  state: StateBackend;
  /** With `state: "redis"`: whether this replica reaches Redis now. */
  redis?: 'up' | 'down';
}

export interface SharedState {
  readonly backend: StateBackend;
  /** This replica's id (src/state/replica-id.ts). */
  readonly replicaId: string;
  /** The replica's Redis connection pair (backend `redis` only): every shared store uses this one. */
  readonly redis: RedisConnection | undefined;
  /** Pub/sub channels over `redis.subscriber` (backend `redis` only): subscribe here, never on the connection itself. */
  readonly channels: RedisChannels | undefined;
  /** Where each quota's windows and slots live (src/quotas/). */
  readonly quotaSlots: QuotaSlotsFactory;
  /** The fleet's event fan-out (backend `redis` only; src/host/events.ts). */
  readonly events: EventFanout | undefined;
  status(): ReplicaStatus;
  /** Closes the connection (after the host's calls ended). */
  close(): Promise<void>;
}

/** State in this process's memory: today's behaviour on one machine. */
export function memorySharedState(replicaId: string): SharedState {
  return {
    backend: 'memory',
    replicaId,
    redis: undefined,
    channels: undefined,
    quotaSlots: memoryQuotaSlots(),
    events: undefined,
    status: () => ({ id: replicaId, state: 'memory' }),
    close: async () => undefined,
  };
}

/** A host's shared state, by its registry (as src/quotas/ does), so `/healthz` can report it. */
const states = new WeakMap<object, SharedState>();

export function registerHostState(registry: object, state: SharedState): void {
  states.set(registry, state);
}

/** The replica status of a host (undefined for a host not made by createHost). */
export function hostReplicaStatus(host: { readonly registry: object }): ReplicaStatus | undefined {
  return states.get(host.registry)?.status();
}
