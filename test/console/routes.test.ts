/**
 * The console's routes over real HTTP on loopback: the page and assets (headers, the fixed asset list,
 * the same Host and Origin checks as the API, no token needed for the page), and
 * GET /v1/tools/{name}/inspect with a real wasm component whose policy holds secrets.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wasmExtensions } from '../../src/extensions/wasm-extensions.ts';
import { createHost } from '../../src/host.ts';
import { CONSOLE_ASSETS } from '../../src/server/routes/console.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { PROJECT_ROOT, TEST_XDG_CACHE_HOME } from '../cli/run-cli.ts';
import { echoTool, temporaryDirectory } from '../server/helpers.ts';

const GREET_WASM = join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'ext-greet.wasm');
const TOKEN = 'console-routes-token';
const ENV_VALUE = 'env-value-that-must-not-leak';
const HEADER_VALUE = 'Bearer header-value-that-must-not-leak';

describe('console routes', { timeout: 60_000 }, () => {
  let server: RunningServer;
  let root: string;
  const auth = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    root = temporaryDirectory('toolhost-console-routes-');
    const extensions = join(root, 'tools');
    mkdirSync(extensions);
    copyFileSync(GREET_WASM, join(extensions, 'ext-greet.wasm'));
    writeFileSync(
      join(extensions, 'ext-greet.policy.json'),
      JSON.stringify({ env: { GREETING_KEY: ENV_VALUE, A_FIRST: 'x' }, network: { allow: ['api.example.com'], headers: { 'api.example.com': { Authorization: HEADER_VALUE } } } }),
    );
    const host = await createHost(
      { workspaceRoot: root, extensionsDir: extensions, cacheDir: join(TEST_XDG_CACHE_HOME, 'toolhost'), limits: { poolSize: 1 } },
      { builtinTools: [echoTool], extensions: wasmExtensions() },
    );
    server = await startServer(host, { port: 0, keepAliveMs: 0, token: TOKEN });
  });

  afterAll(async () => {
    await server?.close(2_000);
  });

  it('serves the page on / and /console without a token, with a same-origin-only CSP', async () => {
    for (const path of ['/', '/console']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("connect-src 'self'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('<script type="module" src="/console/app.js">');
    }
  });

  it('serves every listed asset, and each asset file on disk is listed', async () => {
    const onDisk = readdirSync(new URL('../../src/server/console/', import.meta.url)).sort();
    expect(Object.keys(CONSOLE_ASSETS).sort()).toEqual(onDisk);
    for (const [name, type] of Object.entries(CONSOLE_ASSETS)) {
      const response = await fetch(`${server.url}/console/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it('serves nothing else under /console', async () => {
    for (const path of ['/console/missing.js', '/console/..%2F..%2Fpackage.json', '/console/%2e%2e%2fhttp-app.ts']) {
      const response = await fetch(`${server.url}${path}`, { headers: auth });
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('"name": "toolhost"');
    }
  });

  it('applies the Host and Origin checks to the page', async () => {
    const { request } = await import('node:http');
    const status = (headers: Record<string, string>): Promise<number> =>
      new Promise((resolve, reject) => {
        const url = new URL(server.url);
        const outgoing = request({ host: url.hostname, port: url.port, path: '/', headers }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
    expect(await status({ host: 'evil.example' })).toBe(403);
    expect(await status({ host: new URL(server.url).host, 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(await status({ host: new URL(server.url).host, origin: 'https://evil.example' })).toBe(403);
    expect(await status({ host: new URL(server.url).host, origin: server.url })).toBe(200);
  });

  it('keeps the API behind the token', async () => {
    expect((await fetch(`${server.url}/v1/tools/ext-greet/inspect`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/tools`)).status).toBe(401);
  });

  it('inspects a wasm tool: the help report with not_understood, and the policy with secrets named only', async () => {
    const response = await fetch(`${server.url}/v1/tools/ext-greet/inspect`, { headers: auth });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(text).not.toContain(ENV_VALUE);
    expect(text).not.toContain('header-value-that-must-not-leak');
    const report = JSON.parse(text) as Record<string, any>;
    expect(report['name']).toBe('ext-greet');
    expect(report['help_flag']).toBe('--help');
    expect(report['not_understood']).toEqual({ count: 0, lines: [] });
    expect(report['spec'].options.map((option: { long: string }) => option.long)).toContain('greeting');
    expect(report['policy'].env).toEqual(['A_FIRST', 'GREETING_KEY']);
    expect(report['policy'].network.allow).toEqual(['api.example.com']);
    expect(report['policy'].network.headers).toEqual({ 'api.example.com': ['Authorization'] });
    expect(report['network']).toBe(true);
    expect(report['sha256']).toMatch(/^[0-9a-f]{64}$/);
    // The file relative to the extensions folder: the host's absolute layout stays on the host.
    expect(report['file']).toBe('ext-greet.wasm');
    expect(text).not.toContain(root);
  });

  it('answers 404 for built-ins and unknown tools', async () => {
    const builtin = await fetch(`${server.url}/v1/tools/echo/inspect`, { headers: auth });
    expect(builtin.status).toBe(404);
    expect(((await builtin.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const unknown = await fetch(`${server.url}/v1/tools/nope/inspect`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('unknown_tool');
  });
});
