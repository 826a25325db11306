/**
 * `GET /healthz` (liveness), `GET /readyz` (readiness: the extensions folder's first load is done and
 * the daemon is not draining), both without a token, and `GET /metrics` (Prometheus text).
 */
import { Hono } from 'hono';
import type { Host } from '../../host-types.ts';
import { hostReplicaStatus, type ReplicaStatus } from '../../state/shared-state.ts';
import { publicExtensionPath } from '../extension-paths.ts';
import { DRAINING_REASON, type DrainState } from '../drain.ts';
import { PROMETHEUS_CONTENT_TYPE, type ServerMetrics } from '../metrics.ts';
import { toolsDigest } from '../tool-digests.ts';

export interface HealthBody {
  status: 'ok';
  tools: number;
  load_failures: number;
  in_flight_calls: number;
  /** Which replica answered and its shared state's backend (and, for Redis, whether it is reachable now). */
  replica?: ReplicaStatus;
  /** sha256 over the sorted name + digest of every visible tool (src/server/tool-digests.ts): replicas serving the same tools agree. */
  tools_digest: string;
  /** True once SIGTERM (or close) started the drain: still alive, leaving (src/server/drain.ts). */
  draining: boolean;
}

/**
 * `GET /readyz`: 200 once the first load of the extensions folder is done, 503 before. The daemon
 * listens (and serves the built-ins and each tool whose file has loaded) before that.
 */
export interface ReadyBody {
  ready: boolean;
  /** Extension files still loading, relative to the extensions folder; empty once ready. */
  loading: string[];
  /** Extension files loaded so far. */
  loaded: number;
  /** Extension files that failed to load so far. */
  load_failures: number;
  /** Tools visible now. */
  tools: number;
  /** True while the daemon drains (shutting down): then `ready` is false and `reason` says why. */
  draining: boolean;
  reason?: string;
}

export interface HealthRouteOptions {
  /** The daemon's drain state; none = never draining. */
  drain?: DrainState;
}

export function healthRoutes(host: Host, metrics: ServerMetrics, options: HealthRouteOptions = {}): Hono {
  const app = new Hono();
  const draining = (): boolean => options.drain?.draining === true;
  app.get('/healthz', (c) => {
    const replica = hostReplicaStatus(host);
    const tools = host.listTools();
    const body: HealthBody = {
      status: 'ok',
      tools: tools.length,
      load_failures: host.loadFailures().length,
      in_flight_calls: host.inFlightCalls(),
      tools_digest: toolsDigest(tools),
      draining: draining(),
      ...(replica ? { replica } : {}),
    };
    return c.json(body);
  });
  app.get('/readyz', (c) => {
    const readiness = host.readiness();
    const ready = readiness.ready && !draining();
    const body: ReadyBody = {
      ready,
      loading: readiness.loading.map((file) => publicExtensionPath(host.extensionsDir, file)),
      loaded: readiness.loaded,
      load_failures: host.loadFailures().length,
      tools: host.listTools().length,
      draining: draining(),
      ...(draining() ? { reason: DRAINING_REASON } : {}),
    };
    return c.json(body, ready ? 200 : 503);
  });
  app.get('/metrics', (c) => c.body(metrics.render(), 200, { 'Content-Type': PROMETHEUS_CONTENT_TYPE }));
  return app;
}
