/**
 * `GET /v1/load-failures`: the extension files that are in the folder but failed to load, each with
 * the reason, as they stand now (a fixed file leaves the list at its next load). `/v1/events` reports
 * the same failures as they happen (`load_failed`); this is for a client that starts listening later,
 * such as the console opened after the daemon started. Files are relative to the extensions folder,
 * and error texts never show its absolute path (extension-paths.ts).
 */
import { Hono } from 'hono';
import type { Host, LoadFailure } from '../../host-types.ts';
import { publicLoadFailure } from '../extension-paths.ts';

export interface LoadFailuresBody {
  failures: LoadFailure[];
}

export function loadFailureRoutes(host: Host): Hono {
  const app = new Hono();
  app.get('/v1/load-failures', (c) => {
    const body: LoadFailuresBody = { failures: host.loadFailures().map((failure) => publicLoadFailure(host.extensionsDir, failure)) };
    return c.json(body);
  });
  return app;
}
