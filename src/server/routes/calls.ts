/**
 * The daemon's recent calls (call-history.ts): `GET /v1/calls` lists them newest first (summaries:
 * tool, edge, times, duration, is_error, refusal), `GET /v1/calls/{call_id}` gives one whole (redacted
 * arguments, result, metadata, refusal, approval). Both need the admin token (`createHttpApp` guards
 * them with `adminTokenGuard`): arguments and results of every client's calls are a person's to read,
 * not a tool's.
 */
import { Hono } from 'hono';
import type { CallHistory } from '../call-history.ts';
import { HttpError } from '../http-errors.ts';

export const CALLS_PATH = '/v1/calls';
export const CALL_PATH = '/v1/calls/:id';

export function callHistoryRoutes(history: CallHistory): Hono {
  const app = new Hono();
  app.get(CALLS_PATH, (c) => c.json(history.list()));
  app.get(CALL_PATH, (c) => {
    const id = c.req.param('id');
    const record = history.get(id);
    if (record === undefined) {
      throw new HttpError(404, 'not_found', `No call "${id}" in the history: the daemon keeps the last ${history.capacity} calls made through it (HTTP, the console, dispatch, MCP); calls a tool makes itself (run_code's tools.x()) are not kept. GET ${CALLS_PATH} lists them.`);
    }
    return c.json(record);
  });
  return app;
}
