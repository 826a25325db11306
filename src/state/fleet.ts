/**
 * The shared parts of a fleet replica that live in Redis (config `state.redis`) besides the quota
 * slots and the event fan-out (src/state/index.ts): this replica's lease, shared approvals,
 * background-process routing and MCP session records, all on the shared state's one connection.
 * Opened by the composition root (src/compose.ts) when `ResolvedConfig.state` is set, and handed to
 * the host (`CreateHostDependencies`) and the HTTP server (`StartServerOptions.mcpSessionStore`) as
 * interfaces.
 *
 * The replica id is the connection's (`TOOLHOST_REPLICA_ID` when set, else the hostname plus a
 * random suffix; src/state/replica-id.ts). It should differ after a restart: what the old replica held (its background
 * processes, the calls waiting for approval there) died with it and must be reported lost, which a
 * restarted replica reusing the id would hide. Everything here is imported only when a Redis URL is
 * configured.
 */
import type { SharedApprovals } from '../approvals/shared.ts';
import { redisApprovals } from '../approvals/redis-approvals.ts';
import type { HostResourceFactory } from '../host-types.ts';
import type { Logger } from '../logger.ts';
import type { McpSessionStore } from '../server/mcp-session-store.ts';
import type { RedisConnection } from './redis-connection.ts';
import { BackgroundProcesses, backgroundProcessesKey } from '../../builtins/internal/background-processes.ts';
import { answerProcessRequest, parseProcessRequest } from '../../builtins/process.ts';
import { errorResult } from '../result.ts';
import { redisMcpSessions } from './redis-mcp-sessions.ts';
import { redisProcessFleet, type RedisProcessFleet } from './redis-process-fleet.ts';
import { startReplicaLease, type ReplicaLease } from './replica-lease.ts';

export interface FleetState {
  readonly connection: RedisConnection;
  readonly lease: ReplicaLease;
  readonly approvals: SharedApprovals;
  /** Host resources that reach the fleet (background processes). */
  readonly hostResources: readonly HostResourceFactory[];
  /** MCP Streamable HTTP session records: any replica serves any session. */
  readonly mcpSessions: McpSessionStore;
  close(): Promise<void>;
}

/**
 * The fleet's stores on the replica's Redis connection (the shared state's, src/state/index.ts, which
 * also waits for Redis at start and owns the connection: closing the fleet leaves it open).
 */
export async function openFleetState(connection: RedisConnection, options: { logger: Logger }): Promise<FleetState> {
  const lease = startReplicaLease(connection);
  const approvals = redisApprovals(connection, lease);
  const mcpSessions = redisMcpSessions(connection);
  const processFleet = redisProcessFleet(connection, lease);
  options.logger.info({ replica: connection.replicaId }, 'fleet approvals, processes and MCP sessions in Redis');
  return {
    connection,
    lease,
    approvals,
    hostResources: [{ key: backgroundProcessesKey, create: () => fleetBackgroundProcesses(processFleet) }],
    mcpSessions,
    async close() {
      await mcpSessions.close();
      await processFleet.close();
      await approvals.close();
      await lease.stop();
    },
  };
}

/** Background processes whose ids name this replica, answering other replicas' actions on them. */
function fleetBackgroundProcesses(fleet: RedisProcessFleet): BackgroundProcesses {
  const processes = new BackgroundProcesses({ fleet });
  const stop = fleet.serve(async (request) => {
    const input = parseProcessRequest(request);
    if (input === undefined) return errorResult('A malformed process action reached this replica; nothing was done.');
    const budgetMs = (input.action === 'wait' ? input.timeout_ms : 0) + 10_000;
    return answerProcessRequest(processes, input, { deadline: Date.now() + budgetMs, signal: AbortSignal.timeout(budgetMs) });
  });
  processes.onClose(stop);
  return processes;
}
