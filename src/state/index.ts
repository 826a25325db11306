/**
 * Shared state, composed: `openSharedState` turns the config's `state` key (src/state/config.ts)
 * into the `SharedState` a host is given (./shared-state.ts): in this process's memory when there is
 * no Redis URL (nothing is loaded for it: one machine pays nothing), else in Redis (./redis-state.ts,
 * ioredis and the Redis stores imported only then). The replica id comes from env
 * TOOLHOST_REPLICA_ID, else a default (./replica-id.ts).
 * @throws ToolHostError('CONFIG_INVALID') for an invalid TOOLHOST_REPLICA_ID.
 */
import type { Logger } from '../logger.ts';
import type { StateConfig } from './config.ts';
import { replicaIdFrom } from './replica-id.ts';
import { memorySharedState, type SharedState } from './shared-state.ts';

export { REPLICA_ID_ENV, replicaIdFrom } from './replica-id.ts';
export { hostReplicaStatus, memorySharedState, registerHostState, type ReplicaStatus, type SharedState, type StateBackend } from './shared-state.ts';

export async function openSharedState(config: StateConfig | undefined, options: { env: Readonly<Record<string, string | undefined>>; logger: Logger; connectWaitMs?: number }): Promise<SharedState> {
  const replicaId = replicaIdFrom(options.env);
  if (config === undefined) return memorySharedState(replicaId);
  const { openRedisState } = await import('./redis-state.ts');
  return openRedisState({ url: config.redis, replicaId, logger: options.logger, ...(options.connectWaitMs !== undefined ? { connectWaitMs: options.connectWaitMs } : {}) });
}
