/**
 * `GET /v1/schedules` behind the daemon's bearer token, as an outsider would try it: no token, a
 * wrong one, the token in the query string; the schedules' arguments (which may hold secret
 * references) never appear; `/openapi.json` describes the route.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../src/host.ts';
import { silentLogger } from '../../src/logger.ts';
import { createScheduler } from '../../src/schedules/index.ts';
import type { SchedulesBody } from '../../src/schedules/types.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';

const TOKEN = 'schedules-route-token-3a9f';
let server: RunningServer;

beforeAll(async () => {
  const workspaceRoot = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-schedules-route-')));
  const host = await createHost({ workspaceRoot });
  const schedules = [{ name: 'nightly', cron: '0 30 2 * * *', tool: 'shell', arguments: { command: 'deploy --key <secret_ref:DEPLOY_KEY> --literal hunter2' } }];
  server = await startServer(host, { port: 0, token: TOKEN, logger: silentLogger(), schedules: (served) => createScheduler({ schedules, host: served, logger: silentLogger() }) });
});

afterAll(async () => {
  await server?.close(0);
});

describe('GET /v1/schedules', () => {
  it('refuses a request without the token, with a wrong one, or with it in the query string', async () => {
    expect((await fetch(`${server.url}/v1/schedules`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/schedules`, { headers: { authorization: 'Bearer wrong-token' } })).status).toBe(401);
    expect((await fetch(`${server.url}/v1/schedules?token=${TOKEN}`)).status).toBe(401);
  });

  it('answers with the token, without the arguments', async () => {
    const response = await fetch(`${server.url}/v1/schedules`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain('DEPLOY_KEY');
    expect(text).not.toContain('hunter2');
    const body = JSON.parse(text) as SchedulesBody;
    expect(body).toMatchObject({ state: 'memory', schedules: [{ name: 'nightly', cron: '0 30 2 * * *', tool: 'shell', overlap: 'skip', jitter_ms: 0, last_run: null, counts: { ok: 0, error: 0, refused: 0, skipped: 0 }, recent: [] }] });
    expect(body.schedules[0]?.next_run).toMatch(/T\d{2}:\d{2}:00\.000Z$/);
  });

  it('is in the OpenAPI document', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(document.paths['/v1/schedules']).toBeDefined();
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Schedule', 'ScheduleRun']));
  });
});
