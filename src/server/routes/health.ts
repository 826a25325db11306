/**
 * `GET /healthz` (liveness), `GET /readyz` (readiness: the extensions folder's first load is done),
 * both without a token, and `GET /metrics` (Prometheus text).
 */
import { Hono } from 'hono';
import type { Host } from '../../host-types.ts';
import { hostReplicaStatus, type ReplicaStatus } from '../../state/shared-state.ts';
import { publicExtensionPath } from '../extension-paths.ts';
import { PROMETHEUS_CONTENT_TYPE, type ServerMetrics } from '../metrics.ts';

export interface HealthBody {
  status: 'ok';
  tools: number;
  load_failures: number;
  in_flight_calls: number;
  /** Which replica answered and its shared state's backend (and, for Redis, whether it is reachable now). */
  replica?: ReplicaStatus;
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
}

export function healthRoutes(host: Host, metrics: ServerMetrics): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => {
    const replica = hostReplicaStatus(host);
    const body: HealthBody = { status: 'ok', tools: host.listTools().length, load_failures: host.loadFailures().length, in_flight_calls: host.inFlightCalls(), ...(replica ? { replica } : {}) };
    return c.json(body);
  });
  app.get('/readyz', (c) => {
    const readiness = host.readiness();
    const body: ReadyBody = {
      ready: readiness.ready,
      loading: readiness.loading.map((file) => publicExtensionPath(host.extensionsDir, file)),
      loaded: readiness.loaded,
      load_failures: host.loadFailures().length,
      tools: host.listTools().length,
    };
    return c.json(body, readiness.ready ? 200 : 503);
  });
  app.get('/metrics', (c) => c.body(metrics.render(), 200, { 'Content-Type': PROMETHEUS_CONTENT_TYPE }));
  return app;
}
