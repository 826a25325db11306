/** A call to a tool whose file failed to load says why (host, HTTP), instead of a bare "unknown tool". */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { createExtHost, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

let root: TempRoot;
let tools: string;
let ext: ExtHost;
let server: RunningServer;

beforeAll(async () => {
  root = tempRoot();
  tools = root.folder('tools');
  writeFileSync(join(tools, 'broken-tool.wasm'), 'this is not a wasm file');
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
  server = await startServer(ext.host, { port: 0, keepAliveMs: 0 });
}, 60_000);

afterAll(async () => {
  await server.close(2_000);
  await ext.close();
  root.remove();
});

it('host.callTool names the file and its load error', async () => {
  const result = await ext.host.callTool('broken-tool', {});
  expect(result.is_error).toBe(true);
  expect(result.content).toMatch(/^Tool "broken-tool" is not available: its file broken-tool\.wasm failed to load: .+/);
  expect(result.metadata).toMatchObject({ reason: 'load_failed', file: expect.stringContaining('broken-tool.wasm'), load_error: expect.any(String) });
});

it('POST /v1/tools/{name}/call answers 404 tool_load_failed with the reason', async () => {
  const response = await fetch(`${server.url}/v1/tools/broken-tool/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"arguments":{}}' });
  expect(response.status).toBe(404);
  const body = (await response.json()) as { error: { code: string; message: string; details: Record<string, unknown> } };
  expect(body.error.code).toBe('tool_load_failed');
  expect(body.error.message).toContain('failed to load');
  expect(body.error.details).toMatchObject({ reason: 'load_failed', file: 'broken-tool.wasm', load_error: expect.any(String) });
  expect(JSON.stringify(body)).not.toContain(tools);
  const inspect = await fetch(`${server.url}/v1/tools/broken-tool/inspect`);
  expect(inspect.status).toBe(404);
  const inspectBody = (await inspect.json()) as { error: { code: string; details: Record<string, unknown> } };
  expect(inspectBody.error).toMatchObject({ code: 'tool_load_failed', details: { file: 'broken-tool.wasm' } });
  expect(JSON.stringify(inspectBody)).not.toContain(tools);
});

it('a name no file ever had stays a plain unknown tool', async () => {
  const result = await ext.host.callTool('never-existed', {});
  expect(result.metadata).toMatchObject({ reason: 'unknown' });
});

it('GET /v1/load-failures lists each file that failed to load with its reason, and /healthz counts them', async () => {
  const response = await fetch(`${server.url}/v1/load-failures`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { failures: { file: string; error: string; code?: string }[] };
  expect(body.failures).toHaveLength(1);
  expect(body.failures[0]).toMatchObject({ file: 'broken-tool.wasm', error: expect.stringMatching(/\S/) });
  // Paths relative to the extensions folder: neither the file nor its error text shows the host's layout.
  expect(JSON.stringify(body)).not.toContain(tools);
  const health = (await (await fetch(`${server.url}/healthz`)).json()) as { load_failures: number };
  expect(health.load_failures).toBe(1);
});
