/**
 * A web page the user visits must not reach the daemon: requests carrying a foreign `Origin` are
 * refused on every route (before any tool runs), JSON routes refuse the `text/plain` bodies a page
 * can send without a CORS preflight, and clients that send no Origin (curl, SDKs) keep working.
 * Raw node:http requests against a real server on loopback, so every header is exactly as written.
 */
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools } from '../../builtins/index.ts';
import { createHost } from '../../src/host.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { isJsonContentType, isOriginAllowed } from '../../src/server/security.ts';
import { temporaryDirectory } from './helpers.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers; resolves once the status line and `readBytes` of body (or the whole body) arrived. */
function raw(url: string, options: { method?: string; path: string; headers?: Record<string, string>; body?: string; stream?: boolean }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request({ hostname: target.hostname, port: target.port, method: options.method ?? 'GET', path: options.path, headers: options.headers ?? {} }, (response) => {
      let body = '';
      const done = (): void => resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      if (options.stream && response.statusCode === 200) {
        // A stream that was let through: report it, then hang up.
        done();
        response.destroy();
        return;
      }
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', done);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const EVIL = 'https://evil.example';
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } } });
const MCP_ACCEPT = 'application/json, text/event-stream';

let workspace: string;
let server: RunningServer;
let own: string;

beforeAll(async () => {
  workspace = temporaryDirectory();
  const host = await createHost({ workspaceRoot: workspace }, { builtinTools });
  server = await startServer(host, { port: 0, keepAliveMs: 0, allowedOrigins: ['http://localhost:5173'] });
  own = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.close(1_000);
});

function callBody(args: Record<string, unknown>): string {
  return JSON.stringify({ arguments: args });
}

describe('cross-site requests run nothing', () => {
  it('refuses a text/plain POST from a foreign page with 403, and neither shell nor write_file runs', async () => {
    const shell = await raw(server.url, {
      method: 'POST',
      path: '/v1/tools/shell/call',
      headers: { origin: EVIL, 'content-type': 'text/plain' },
      body: callBody({ command: 'echo pwned > shell-pwned.txt' }),
    });
    expect(shell.status).toBe(403);
    expect(JSON.parse(shell.body).error.code).toBe('forbidden_origin');
    const write = await raw(server.url, {
      method: 'POST',
      path: '/v1/tools/write_file/call',
      headers: { origin: EVIL, 'content-type': 'text/plain;charset=UTF-8' },
      body: callBody({ path: 'write-pwned.txt', content: 'pwned' }),
    });
    expect(write.status).toBe(403);
    // Declaring JSON does not help a foreign page either (and a real browser would need a preflight).
    const json = await raw(server.url, {
      method: 'POST',
      path: '/v1/tools/write_file/call',
      headers: { origin: EVIL, 'content-type': 'application/json' },
      body: callBody({ path: 'json-pwned.txt', content: 'pwned' }),
    });
    expect(json.status).toBe(403);
    const dispatch = await raw(server.url, {
      method: 'POST',
      path: '/v1/dispatch',
      headers: { origin: EVIL, 'content-type': 'text/plain' },
      body: JSON.stringify({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'write_file', input: { path: 'dispatch-pwned.txt', content: 'x' } }] }),
    });
    expect(dispatch.status).toBe(403);
    for (const file of ['shell-pwned.txt', 'write-pwned.txt', 'json-pwned.txt', 'dispatch-pwned.txt']) expect(existsSync(join(workspace, file)), file).toBe(false);
  });

  it('refuses text/plain without an Origin with 415 before the tool runs; JSON with parameters is accepted', async () => {
    const plain = await raw(server.url, {
      method: 'POST',
      path: '/v1/tools/shell/call',
      headers: { 'content-type': 'text/plain' },
      body: callBody({ command: 'echo ran > plain.txt' }),
    });
    expect(plain.status).toBe(415);
    expect(JSON.parse(plain.body).error).toMatchObject({ code: 'unsupported_media_type', message: expect.stringContaining('application/json') });
    for (const contentType of ['application/jsonx', 'text/plain; a=application/json', 'multipart/form-data; boundary=x']) {
      const refused = await raw(server.url, { method: 'POST', path: '/v1/tools/write_file/call', headers: { 'content-type': contentType }, body: callBody({ path: 'ct.txt', content: 'x' }) });
      expect(refused.status, contentType).toBe(415);
    }
    const none = await raw(server.url, { method: 'POST', path: '/v1/dispatch', body: '{"role":"assistant","content":[]}' });
    expect(none.status).toBe(415);
    expect(existsSync(join(workspace, 'plain.txt'))).toBe(false);
    expect(existsSync(join(workspace, 'ct.txt'))).toBe(false);

    // The control: the same call as JSON (no Origin, like curl or an SDK) runs.
    const ok = await raw(server.url, {
      method: 'POST',
      path: '/v1/tools/write_file/call',
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      body: callBody({ path: 'ok.txt', content: 'fine' }),
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).is_error).toBe(false);
    expect(existsSync(join(workspace, 'ok.txt'))).toBe(true);
  });

  it('refuses a text/plain POST /mcp with 415 in JSON-RPC form', async () => {
    const response = await raw(server.url, { method: 'POST', path: '/mcp', headers: { 'content-type': 'text/plain', accept: MCP_ACCEPT }, body: INITIALIZE });
    expect(response.status).toBe(415);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('application/json') }, id: null });
  });
});

describe('Origin check on every route', () => {
  it('refuses a foreign Origin with 403 on GET /v1/tools, /healthz, /v1/events, /openapi.json and /metrics', async () => {
    for (const path of ['/v1/tools', '/v1/tools/read_file', '/healthz', '/v1/events', '/openapi.json', '/metrics']) {
      const response = await raw(server.url, { path, headers: { origin: EVIL }, stream: true });
      expect(response.status, path).toBe(403);
      expect(JSON.parse(response.body).error.code, path).toBe('forbidden_origin');
    }
  });

  it('refuses a foreign Origin on /mcp POST, GET and DELETE with a JSON-RPC 403, and opens no session', async () => {
    const post = await raw(server.url, { method: 'POST', path: '/mcp', headers: { origin: EVIL, 'content-type': 'application/json', accept: MCP_ACCEPT }, body: INITIALIZE });
    expect(post.status).toBe(403);
    expect(JSON.parse(post.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('evil.example') } });
    expect(post.headers['mcp-session-id']).toBeUndefined();

    // A real session (no Origin), then the page tries to use it.
    const init = await raw(server.url, { method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', accept: MCP_ACCEPT }, body: INITIALIZE });
    expect(init.status).toBe(200);
    const session = init.headers['mcp-session-id'] as string;
    expect(session).toBeTruthy();
    const get = await raw(server.url, { path: '/mcp', headers: { origin: EVIL, accept: 'text/event-stream', 'mcp-session-id': session }, stream: true });
    expect(get.status).toBe(403);
    const call = await raw(server.url, {
      method: 'POST',
      path: '/mcp',
      headers: { origin: EVIL, 'content-type': 'application/json', accept: MCP_ACCEPT, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write_file', arguments: { path: 'mcp-pwned.txt', content: 'x' } } }),
    });
    expect(call.status).toBe(403);
    const remove = await raw(server.url, { method: 'DELETE', path: '/mcp', headers: { origin: EVIL, 'mcp-session-id': session } });
    expect(remove.status).toBe(403);
    expect(existsSync(join(workspace, 'mcp-pwned.txt'))).toBe(false);
    // The session survived the page's DELETE; its owner ends it.
    const ownerDelete = await raw(server.url, { method: 'DELETE', path: '/mcp', headers: { 'mcp-session-id': session } });
    expect(ownerDelete.status).toBe(200);
  });

  it('refuses Origin: null, an empty or malformed Origin, another port, https, and a look-alike host', async () => {
    const port = server.port;
    for (const origin of ['null', '', 'not an origin', `http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`, `http://127.0.0.1.evil.example:${port}`, `http://localhost.evil.example:${port}`, `http://127.0.0.1:${port}, ${EVIL}`]) {
      const response = await raw(server.url, { path: '/v1/tools', headers: { origin } });
      expect(response.status, JSON.stringify(origin)).toBe(403);
    }
  });

  it('accepts its own origin under any loopback name, and requests without Origin', async () => {
    const port = server.port;
    for (const origin of [own, `http://localhost:${port}`, `http://[::1]:${port}`, `HTTP://LOCALHOST:${port}`]) {
      const response = await raw(server.url, { path: '/v1/tools', headers: { origin } });
      expect(response.status, origin).toBe(200);
    }
    const post = await raw(server.url, {
      method: 'POST',
      path: '/v1/tools/write_file/call',
      headers: { origin: own, 'content-type': 'application/json' },
      body: callBody({ path: 'same-origin.txt', content: 'x' }),
    });
    expect(post.status).toBe(200);
    expect(existsSync(join(workspace, 'same-origin.txt'))).toBe(true);
    expect((await raw(server.url, { path: '/v1/tools' })).status).toBe(200);
    const events = await raw(server.url, { path: '/v1/events', headers: { origin: own }, stream: true });
    expect(events.status).toBe(200);
  });

  it('accepts an allowed_origins entry with CORS headers and answers its preflight; refuses the preflight of others', async () => {
    const preflight = await raw(server.url, {
      method: 'OPTIONS',
      path: '/v1/tools/write_file/call',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type');
    const post = await raw(server.url, {
      method: 'POST',
      path: '/v1/tools/write_file/call',
      headers: { origin: 'http://localhost:5173', 'content-type': 'application/json' },
      body: callBody({ path: 'allowed.txt', content: 'x' }),
    });
    expect(post.status).toBe(200);
    expect(post.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(existsSync(join(workspace, 'allowed.txt'))).toBe(true);
    const mcp = await raw(server.url, { method: 'POST', path: '/mcp', headers: { origin: 'http://localhost:5173', 'content-type': 'application/json', accept: MCP_ACCEPT }, body: INITIALIZE });
    expect(mcp.status).toBe(200);
    expect(mcp.headers['access-control-expose-headers']).toContain('Mcp-Session-Id');

    const foreign = await raw(server.url, { method: 'OPTIONS', path: '/v1/tools/write_file/call', headers: { origin: EVIL, 'access-control-request-method': 'POST' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    // The allowed port is not a wildcard for the host.
    expect((await raw(server.url, { path: '/v1/tools', headers: { origin: 'http://localhost:5174' } })).status).toBe(403);
  });

  it('refuses a browser request from another site that carries no Origin (Sec-Fetch-Site), accepts same-origin and typed-in ones', async () => {
    for (const site of ['cross-site', 'same-site']) {
      expect((await raw(server.url, { path: '/v1/events', headers: { 'sec-fetch-site': site }, stream: true })).status, site).toBe(403);
    }
    for (const site of ['same-origin', 'none']) {
      expect((await raw(server.url, { path: '/v1/tools', headers: { 'sec-fetch-site': site } })).status, site).toBe(200);
    }
  });
});

describe('Origin and Content-Type rules', () => {
  it('takes the own origin from the address the connection arrived on', () => {
    const none = new Set<string>();
    expect(isOriginAllowed('http://192.168.1.5:7411', { address: '192.168.1.5', port: 7411 }, none)).toBe(true);
    expect(isOriginAllowed('http://192.168.1.5:7411', { address: '::ffff:192.168.1.5', port: 7411 }, none)).toBe(true);
    expect(isOriginAllowed('http://localhost:7411', { address: '192.168.1.5', port: 7411 }, none)).toBe(false);
    expect(isOriginAllowed('http://192.168.1.6:7411', { address: '192.168.1.5', port: 7411 }, none)).toBe(false);
    expect(isOriginAllowed('http://[fe80::0:1]:80', { address: 'fe80::1', port: 80 }, none)).toBe(true);
    expect(isOriginAllowed('http://127.0.0.1', { address: '127.0.0.1', port: 80 }, none)).toBe(true);
    expect(isOriginAllowed('http://app.test', undefined, new Set(['http://app.test']))).toBe(true);
    expect(isOriginAllowed('null', { address: '127.0.0.1', port: 80 }, new Set(['null']))).toBe(false);
  });

  it('recognizes JSON media types by their parsed type, not a substring', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonContentType('APPLICATION/JSON')).toBe(true);
    expect(isJsonContentType('text/plain; x=application/json')).toBe(false);
    expect(isJsonContentType('application/json-patch+json')).toBe(false);
    expect(isJsonContentType('application/json;;')).toBe(false);
    expect(isJsonContentType(undefined)).toBe(false);
    expect(isJsonContentType('')).toBe(false);
  });
});
