/** `GET /healthz` (liveness, no token needed) and `GET /metrics` (Prometheus text). */
import { Hono } from 'hono';
import type { Host } from '../../host-types.ts';
import { PROMETHEUS_CONTENT_TYPE, type ServerMetrics } from '../metrics.ts';

export interface HealthBody {
  status: 'ok';
  tools: number;
  load_failures: number;
  in_flight_calls: number;
}

export function healthRoutes(host: Host, metrics: ServerMetrics): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => {
    const body: HealthBody = { status: 'ok', tools: host.listTools().length, load_failures: host.loadFailures().length, in_flight_calls: host.inFlightCalls() };
    return c.json(body);
  });
  app.get('/metrics', (c) => c.body(metrics.render(), 200, { 'Content-Type': PROMETHEUS_CONTENT_TYPE }));
  return app;
}
