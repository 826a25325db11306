/**
 * wasi:http through a real Rust component (test/fixtures/rust/http-fetch, waki) against real HTTP
 * servers on loopback. Loopback is reachable only through allow entries that name it exactly, so the
 * same servers also exercise the private-address guard.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy, type ToolPolicy } from '../../src/policy.ts';
import type { LoadedComponent } from '../../src/wasm/load.ts';
import { resolveNetworkHeaders } from '../../src/wasm/net/call-options.ts';
import type { RunOutcome } from '../../src/wasm/run-types.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback server that records what reached it and answers with `respond`. */
async function startServer(respond: (request: IncomingMessage, body: string, response: ServerResponse) => void): Promise<{ server: Server; port: number; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      respond(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

let work: string;
let runtime: WasmRuntime;
let fetchTool: LoadedComponent;
let main: Awaited<ReturnType<typeof startServer>>;
let other: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-network-'));
  runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1 });
  fetchTool = await runtime.load(join(build, 'http-fetch.wasm'));
  other = await startServer((_request, _body, response) => response.end('second server'));
  main = await startServer((request, body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/redirect') {
      response.writeHead(302, { location: `http://127.0.0.1:${other.port}/stolen` });
      response.end();
    } else if (url.pathname === '/slow') {
      setTimeout(() => response.end('late'), 20_000);
    } else if (url.pathname === '/huge') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('x'.repeat(200_000));
    } else if (url.pathname === '/echo-auth') {
      response.end(`auth=${request.headers.authorization ?? 'none'}`);
    } else {
      response.writeHead(200, { 'x-answer': '42' });
      response.end(`${request.method} ${url.pathname} ${body}`);
    }
  });
}, 120_000);

afterAll(async () => {
  await runtime.close();
  for (const server of [main?.server, other?.server]) {
    server?.closeAllConnections();
    server?.close();
  }
  await rm(work, { recursive: true, force: true });
});

function fetchWith(args: string[], policy: ToolPolicy, extra: { networkHeaders?: ReturnType<typeof resolveNetworkHeaders>['headers'] } = {}): Promise<RunOutcome> {
  return runtime.run(fetchTool, { args, policy: resolvePolicy(policy, work), ...extra });
}

describe('wasi:http outgoing requests', () => {
  it('reaches an allowed host:port and returns status, headers and body', async () => {
    const outcome = await fetchWith(['-X', 'POST', '-d', 'hello', '-s', 'x-answer', `http://127.0.0.1:${main.port}/path?q=1`], { network: { allow: [`127.0.0.1:${main.port}`] } });
    expect(decode(outcome.stderr)).toBe('');
    expect(decode(outcome.stdout)).toBe('status: 200\nheader x-answer: 42\nbody: POST /path hello\n');
    expect(outcome.exitCode).toBe(0);
    expect(main.seen.at(-1)).toMatchObject({ method: 'POST', url: '/path?q=1', body: 'hello' });
    expect(outcome.network?.events).toEqual([
      expect.objectContaining({ kind: 'http', decision: 'allowed', method: 'POST', scheme: 'http', host: '127.0.0.1', port: main.port, status: 200, address: '127.0.0.1' }),
    ]);
  }, 30_000);

  it('refuses a host outside the list: the guest sees HTTP-request-denied, the server sees nothing, the denial is recorded', async () => {
    const before = other.seen.length;
    const outcome = await fetchWith([`http://127.0.0.1:${other.port}/`], { network: { allow: [`127.0.0.1:${main.port}`] } });
    expect(decode(outcome.stdout)).toMatch(/^error: .*HttpRequestDenied/);
    expect(outcome.exitCode).toBe(1);
    expect(other.seen.length).toBe(before);
    expect(outcome.network?.events).toEqual([
      expect.objectContaining({ decision: 'denied', host: '127.0.0.1', port: other.port, errorCode: 'HTTP-request-denied', reason: 'not in network.allow' }),
    ]);
    const none = await fetchWith([`http://127.0.0.1:${main.port}/`], {});
    expect(decode(none.stdout)).toMatch(/HttpRequestDenied/);
  }, 30_000);

  it('hands a redirect to the guest and never follows it to a host outside the list', async () => {
    const before = other.seen.length;
    const outcome = await fetchWith(['-s', 'location', `http://127.0.0.1:${main.port}/redirect`], { network: { allow: [`127.0.0.1:${main.port}`] } });
    expect(decode(outcome.stdout)).toBe(`status: 302\nheader location: http://127.0.0.1:${other.port}/stolen\nbody: \n`);
    expect(other.seen.length).toBe(before);
    expect(outcome.network?.events).toHaveLength(1);
  }, 30_000);

  it('ends a slow response at the policy\'s first-byte timeout with connection-read-timeout', async () => {
    const outcome = await fetchWith([`http://127.0.0.1:${main.port}/slow`], { network: { allow: [`127.0.0.1:${main.port}`], first_byte_timeout_ms: 300 } });
    expect(decode(outcome.stdout)).toMatch(/^error: .*ConnectionReadTimeout/);
    expect(outcome.timedOut).toBe(false);
    expect(outcome.network?.events[0]).toMatchObject({ decision: 'allowed', errorCode: 'connection-read-timeout' });
  }, 30_000);

  it('a request outlasting the call budget ends the call as timed out, and the worker serves the next call', async () => {
    const outcome = await fetchWith([`http://127.0.0.1:${main.port}/slow`], { network: { allow: [`127.0.0.1:${main.port}`] }, timeout_ms: 800 });
    expect(outcome.timedOut).toBe(true);
    // Ended by the call budget, not by the server's answer 20 s later.
    expect(outcome.durationMs).toBeLessThan(15_000);
    const next = await fetchWith([`http://127.0.0.1:${main.port}/ok`], { network: { allow: [`127.0.0.1:${main.port}`] } });
    expect(decode(next.stdout)).toBe('status: 200\nbody: GET /ok \n');
  }, 30_000);

  it('caps the response body: the guest reads the first bytes, then a stream error (HTTP-response-body-size)', async () => {
    const outcome = await fetchWith([`http://127.0.0.1:${main.port}/huge`], { network: { allow: [`127.0.0.1:${main.port}`], max_response_body_bytes: 1000 } });
    // waki reports the stream error without asking http-error-code (network-rules.test.ts checks the code).
    expect(decode(outcome.stdout)).toMatch(/^status: 200\nbody-error: .*LastOperationFailed/);
    expect(outcome.network?.events[0]).toMatchObject({ status: 200, responseBytes: 1000 });
    const whole = await fetchWith([`http://127.0.0.1:${main.port}/huge`], { network: { allow: [`127.0.0.1:${main.port}`] } });
    expect(decode(whole.stdout)).toBe(`status: 200\nbody: ${'x'.repeat(200_000)}\n`);
  }, 30_000);

  it('caps the request body', async () => {
    const before = main.seen.length;
    const outcome = await fetchWith(['-X', 'POST', '-d', 'y'.repeat(5000), `http://127.0.0.1:${main.port}/`], { network: { allow: [`127.0.0.1:${main.port}`], max_request_body_bytes: 1024 } });
    expect(decode(outcome.stdout)).toMatch(/error/i);
    expect(outcome.exitCode).toBe(1);
    expect(main.seen.length).toBe(before);
  }, 30_000);

  it('reaches a name that resolves to loopback only through an entry naming that host exactly', async () => {
    const resolve = { 'api.internal.test': ['127.0.0.1'] };
    const url = `http://api.internal.test:${main.port}/pinned`;
    const wildcard = await fetchWith([url], { network: { allow: [`*.internal.test:${main.port}`], resolve } });
    expect(decode(wildcard.stdout)).toMatch(/^error: .*DestinationIpProhibited/);
    expect(wildcard.network?.events[0]).toMatchObject({ decision: 'denied', errorCode: 'destination-IP-prohibited', address: '127.0.0.1', host: 'api.internal.test' });
    const exact = await fetchWith([url], { network: { allow: [`api.internal.test:${main.port}`], resolve } });
    expect(decode(exact.stdout)).toBe('status: 200\nbody: GET /pinned \n');
    expect(main.seen.at(-1)?.headers.host).toBe(`api.internal.test:${main.port}`);
    // The system resolver's answer for localhost (loopback) is checked the same way.
    const localhost = await fetchWith([`http://localhost:${main.port}/local`], { network: { allow: [`localhost:${main.port}`] } });
    expect(decode(localhost.stdout)).toBe('status: 200\nbody: GET /local \n');
  }, 30_000);

  it('adds a policy header with a secret for its host: the server gets it, the guest and the events never see it', async () => {
    const secret = 'sk-test-0123456789';
    const policy: ToolPolicy = {
      network: { allow: [`127.0.0.1:${main.port}`, `127.0.0.1:${other.port}`], headers: { [`127.0.0.1:${main.port}`]: { authorization: 'Bearer <secret_ref:EXAMPLE_TOKEN>' } } },
    };
    const resolved = resolveNetworkHeaders(resolvePolicy(policy, work).network, { resolve: (name) => (name === 'EXAMPLE_TOKEN' ? secret : undefined) });
    expect(resolved.used).toEqual(new Map([['EXAMPLE_TOKEN', secret]]));
    const outcome = await fetchWith(['-H', 'authorization: guest-value', '-s', 'authorization', `http://127.0.0.1:${main.port}/ok`], policy, { networkHeaders: resolved.headers });
    expect(main.seen.at(-1)?.headers.authorization).toBe(`Bearer ${secret}`);
    expect(decode(outcome.stdout)).toBe('status: 200\nbody: GET /ok \n');
    for (const seen of [decode(outcome.stdout), decode(outcome.stderr), JSON.stringify(outcome.network)]) expect(seen).not.toContain(secret);
    // A server that echoes the header back: the guest reads it redacted.
    const echoed = await fetchWith([`http://127.0.0.1:${main.port}/echo-auth`], policy, { networkHeaders: resolved.headers });
    expect(decode(echoed.stdout)).toBe('status: 200\nbody: auth=Bearer [REDACTED]\n');
    expect(main.seen.at(-1)?.headers.authorization).toBe(`Bearer ${secret}`);
    const trace = await fetchWith(['-X', 'TRACE', `http://127.0.0.1:${main.port}/ok`], policy, { networkHeaders: resolved.headers });
    expect(decode(trace.stdout)).toMatch(/HttpRequestDenied/);
    // Another allowed host does not get the header.
    await fetchWith([`http://127.0.0.1:${other.port}/`], policy, { networkHeaders: resolved.headers });
    expect(other.seen.at(-1)?.headers.authorization).toBeUndefined();
    // Without the secret configured, requests to that host are refused instead of sent with a placeholder.
    const before = main.seen.length;
    const missing = await fetchWith([`http://127.0.0.1:${main.port}/ok`], policy);
    expect(decode(missing.stdout)).toMatch(/HttpRequestDenied/);
    expect(main.seen.length).toBe(before);
    expect(missing.network?.events[0]).toMatchObject({ decision: 'denied', reason: 'secret not configured: EXAMPLE_TOKEN' });
    // Over plain HTTP a secret goes to loopback only: a pinned name (not a loopback literal) is refused.
    const pinnedPolicy: ToolPolicy = {
      network: { allow: [`api.internal.test:${main.port}`], resolve: { 'api.internal.test': ['127.0.0.1'] }, headers: { 'api.internal.test': { authorization: 'Bearer <secret_ref:EXAMPLE_TOKEN>' } } },
    };
    const pinnedHeaders = resolveNetworkHeaders(resolvePolicy(pinnedPolicy, work).network, { resolve: () => secret }).headers;
    const plain = await fetchWith([`http://api.internal.test:${main.port}/ok`], pinnedPolicy, { networkHeaders: pinnedHeaders });
    expect(decode(plain.stdout)).toMatch(/HttpRequestDenied/);
    expect(plain.network?.events[0]).toMatchObject({ decision: 'denied', reason: 'policy headers with secrets are sent over https only' });
    expect(main.seen.length).toBe(before);
  }, 30_000);

  it('runs on the calling thread too (in-process runner): the network thread serves a blocked main thread', async () => {
    // The server runs in a thread of its own: this thread blocks while the guest waits for the answer.
    const serverThread = new Worker(
      "const http = require('node:http'); const server = http.createServer((q, r) => r.end('in-process ' + q.url));" +
        "server.listen(0, '127.0.0.1', () => require('node:worker_threads').parentPort.postMessage(server.address().port));",
      { eval: true },
    );
    try {
      const port = await new Promise<number>((resolve) => serverThread.once('message', resolve));
      const outcome = await runtime.runInProcess(fetchTool, { args: [`http://127.0.0.1:${port}/x`], policy: resolvePolicy({ network: { allow: [`127.0.0.1:${port}`] } }, work) });
      expect(decode(outcome.stdout)).toBe('status: 200\nbody: in-process /x\n');
      expect(outcome.workerThreadId).toBe(0);
    } finally {
      await serverThread.terminate();
    }
  }, 30_000);

  it('speaks TLS to the checked address with the host name for SNI and certificate checks', async () => {
    const names: string[] = [];
    const server = createTlsServer({ key: TEST_KEY, cert: TEST_CERT, SNICallback: (name, callback) => (names.push(name), callback(null, undefined)) }, (_request, response) => response.end('secure'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const outcome = await fetchWith([`https://secure.internal.test:${port}/`], { network: { allow: [`secure.internal.test:${port}`], resolve: { 'secure.internal.test': ['127.0.0.1'] } } });
      // The test certificate is self-signed: the host verifies it and refuses it.
      expect(decode(outcome.stdout)).toMatch(/^error: .*TlsCertificateError/);
      expect(names).toEqual(['secure.internal.test']);
      expect(outcome.network?.events[0]).toMatchObject({ decision: 'allowed', scheme: 'https', errorCode: 'TLS-certificate-error', address: '127.0.0.1' });
    } finally {
      server.close();
    }
  }, 30_000);
});

/** A self-signed test certificate for `secure.internal.test` (P-256, valid for 100 years); not trusted by anything. */
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg/GWYX8Pqt4JWsQO8
PLdxlEu09MB5BXzvaH9+SznZYPGhRANCAASqBQ3v/j4hwm+UhkdyL1PrN1LX336+
sBXFGtjohnqR3WbnRBCe2DDWuF9a6+xJDfj6wulAg0nlOsZK8Sabjlym
-----END PRIVATE KEY-----`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBtTCCAVygAwIBAgIUMJybi1AxleZ7BeR4weZP9+TujekwCgYIKoZIzj0EAwIw
HzEdMBsGA1UEAwwUc2VjdXJlLmludGVybmFsLnRlc3QwIBcNMjYxMTIzMjMzMjIy
WhgPMjEyNjEwMzAyMzMyMjJaMB8xHTAbBgNVBAMMFHNlY3VyZS5pbnRlcm5hbC50
ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqgUN7/4+IcJvlIZHci9T6zdS
199+vrAVxRrY6IZ6kd1m50QQntgw1rhfWuvsSQ34+sLpQINJ5TrGSvEmm45cpqN0
MHIwHQYDVR0OBBYEFBi7uMzPqpeCRUFrQg9b3OohOY7EMB8GA1UdIwQYMBaAFBi7
uMzPqpeCRUFrQg9b3OohOY7EMA8GA1UdEwEB/wQFMAMBAf8wHwYDVR0RBBgwFoIU
c2VjdXJlLmludGVybmFsLnRlc3QwCgYIKoZIzj0EAwIDRwAwRAIgJoOEc7qmKWRo
9bCoKRYlQVNcWj6cskgwzUGQ41NhWeQCIHXa9ovNXG9BoVZ+nOnVEgfh2LjJn8kL
Qm19OsKmPlbn
-----END CERTIFICATE-----`;
