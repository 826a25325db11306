/**
 * Network grants end to end through the host: a real Rust wasip2 component (test/fixtures/rust/http-fetch)
 * dropped in an extensions folder with a `.policy.json`, calling a real loopback server. Checks what a
 * user sees: allowed hosts answer, the secret header reaches the server but never the result, refused
 * requests are listed in `metadata.network` and announced as `network_denied` events.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HostEvent } from '../../src/index.ts';
import { createExtHost, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

const FIXTURE = join(import.meta.dirname, '../fixtures/build/http-fetch.wasm');
const TOKEN = 'tok-7f3a9c1e55d2';

let root: TempRoot;
let ext: ExtHost;
let server: Server;
let port: number;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.headers);
    // Echo the key back: the host must redact it from what the guest reads.
    response.setHeader('x-echo', String(request.headers['x-api-key'] ?? ''));
    response.end(`hello from loopback; key=${String(request.headers['x-api-key'] ?? '')}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  root = tempRoot();
  const tools = root.folder('tools');
  copyFileSync(FIXTURE, join(tools, 'fetch-allowed.wasm'));
  writeFileSync(
    join(tools, 'fetch-allowed.policy.json'),
    JSON.stringify({ network: { allow: [`127.0.0.1:${port}`], headers: { [`127.0.0.1:${port}`]: { 'x-api-key': '<secret_ref:NET_TEST_TOKEN>' } } } }),
  );
  copyFileSync(FIXTURE, join(tools, 'fetch-denied.wasm'));
  writeFileSync(join(tools, 'fetch-denied.policy.json'), JSON.stringify({ network: { allow: ['api.example.com'] } }));
  const secretsFile = join(root.folder('secrets'), 'secrets.json');
  writeFileSync(secretsFile, JSON.stringify({ NET_TEST_TOKEN: TOKEN }));
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace'), secretsFile });
}, 180_000);

afterAll(async () => {
  await ext?.close();
  root?.remove();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

it('reaches an allowed host; the secret header arrives there and never in the result', async () => {
  const result = await ext.host.callTool('fetch-allowed', { url: `http://127.0.0.1:${port}/hi`, show_header: ['x-echo'] });
  expect(result.is_error, result.content).toBe(false);
  expect(result.content).toContain('status: 200');
  expect(result.content).toContain('hello from loopback');
  expect(seen.at(-1)?.['x-api-key']).toBe(TOKEN);
  expect(JSON.stringify(result)).not.toContain(TOKEN);
  expect(result.metadata?.['network']).toEqual({ requests: 1, denied: 0, denials: [] });
}, 60_000);

it('refuses a host outside the list: the guest sees the error, the result lists it, an event announces it', async () => {
  const before = seen.length;
  const from = ext.events.length;
  const result = await ext.host.callTool('fetch-denied', { url: `http://127.0.0.1:${port}/secret` });
  expect(result.is_error).toBe(true);
  expect(result.content.toLowerCase()).toMatch(/denied|prohibited/);
  expect(seen.length).toBe(before);
  expect(result.metadata?.['network']).toMatchObject({ requests: 1, denied: 1, denials: [{ kind: 'http', host: '127.0.0.1', port }] });
  const denied = ext.events.slice(from).filter((event): event is Extract<HostEvent, { type: 'network_denied' }> => event.type === 'network_denied');
  expect(denied).toHaveLength(1);
  expect(denied[0]).toMatchObject({ tool: 'fetch-denied', kind: 'http', host: '127.0.0.1', port });
  expect(ext.events.slice(from)).toContainEqual(expect.objectContaining({ type: 'call_finished', tool: 'fetch-denied', is_error: true }));
}, 60_000);
