/**
 * Policy secrets on the wire, attacked the way a guest would: a real Rust component
 * (test/fixtures/rust/http-fetch) with a `network.headers` secret for a real loopback server that
 * echoes the request headers back: gzip/deflate/br-compressed when asked (or always), as a byte
 * range when asked. The host's redaction is a byte search, so a secret-bearing request must ask for
 * `identity` and no range, and a coded reply must be decoded before the redaction; TRACE (in any
 * letter case, or through a method-override field) never carries the secret.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy, type ToolPolicy } from '../../src/policy.ts';
import type { LoadedComponent } from '../../src/wasm/load.ts';
import { networkCallOptions, resolveNetworkHeaders } from '../../src/wasm/net/call-options.ts';
import type { NetworkEventLog } from '../../src/wasm/net/events.ts';
import type { RunOutcome } from '../../src/wasm/run-types.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';
import { createCallContext } from '../../src/wasm/wasi/call-context.ts';
import { createOutgoingHandler } from '../../src/wasm/wasi/http-outgoing.ts';
import { Fields, OutgoingRequest } from '../../src/wasm/wasi/http.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const SECRET = 'sk-wire-7f3a9c0e5b2d41';

interface Seen {
  method: string;
  headers: IncomingMessage['headers'];
}

/** The request's headers as JSON: what an echo endpoint (httpbin's /headers, say) answers. */
function echoOf(request: IncomingMessage): Buffer {
  return Buffer.from(JSON.stringify({ method: request.method, headers: request.headers }));
}

const CODERS: Record<string, (data: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

/**
 * /echo: codes the echo as the request's Accept-Encoding asks (first of gzip, br, deflate), serves a
 * `Range: bytes=a-b` as 206; /echo-<coding>: always that coding, whatever was asked; /echo-zstd
 * claims a coding the host does not decode.
 */
function respond(request: IncomingMessage, response: ServerResponse): void {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  let body = echoOf(request);
  if (path === '/echo') {
    const range = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers.range ?? ''));
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      response.writeHead(206, { 'content-range': `bytes ${from}-${to}/${body.byteLength}` });
      response.end(body.subarray(from, to + 1));
      return;
    }
    const asked = String(request.headers['accept-encoding'] ?? '');
    const coding = ['gzip', 'br', 'deflate'].find((name) => asked.includes(name));
    if (coding) {
      response.writeHead(200, { 'content-encoding': coding, 'content-type': 'application/json' });
      response.end(CODERS[coding]!(body));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
    return;
  }
  const forced = /^\/echo-(gzip|deflate|br)$/.exec(path)?.[1];
  if (forced) {
    if (new URL(request.url ?? '/', 'http://x').searchParams.has('big')) body = Buffer.concat([body, Buffer.alloc(50_000, 'z')]);
    response.writeHead(200, { 'content-encoding': forced, 'content-type': 'application/json' });
    response.end(CODERS[forced]!(body));
    return;
  }
  if (path === '/echo-zstd') {
    response.writeHead(200, { 'content-encoding': 'zstd' });
    response.end(body);
    return;
  }
  response.end('ok');
}

let work: string;
let runtime: WasmRuntime;
let fetchTool: LoadedComponent;
let server: Server;
let port: number;
const seen: Seen[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-wire-'));
  runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1 });
  fetchTool = await runtime.load(join(build, 'http-fetch.wasm'));
  server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', headers: request.headers });
    request.resume();
    request.on('end', () => respond(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  server?.closeAllConnections();
  server?.close();
  await rm(work, { recursive: true, force: true });
});

function secretPolicy(extra: Partial<NonNullable<ToolPolicy['network']>> = {}): ToolPolicy {
  return { network: { allow: [`127.0.0.1:${port}`], headers: { [`127.0.0.1:${port}`]: { authorization: 'Bearer <secret_ref:WIRE_TOKEN>' } }, ...extra } };
}

function headersOf(policy: ToolPolicy) {
  return resolveNetworkHeaders(resolvePolicy(policy, work).network, { resolve: (name) => (name === 'WIRE_TOKEN' ? SECRET : undefined) }).headers;
}

function fetchWithSecret(args: string[], policy: ToolPolicy = secretPolicy()): Promise<RunOutcome> {
  return runtime.run(fetchTool, { args, policy: resolvePolicy(policy, work), networkHeaders: headersOf(policy) });
}

/** What the guest could read, every way: stdout, stderr and the recorded network events. */
function everythingTheGuestSaw(outcome: RunOutcome): string {
  return [decode(outcome.stdout), decode(outcome.stderr), JSON.stringify(outcome.network)].join('\n');
}

/** The fixture prints the body as lossy UTF-8 after `body: `: the echoed JSON when it arrived decoded. */
function echoedBody(outcome: RunOutcome): { method: string; headers: Record<string, string> } {
  const match = /\nbody: (.*)\n$/s.exec(decode(outcome.stdout));
  expect(match, decode(outcome.stdout)).not.toBeNull();
  return JSON.parse(match![1]!) as { method: string; headers: Record<string, string> };
}

describe('a secret header echoed back coded or in pieces', () => {
  it('the guest asks for gzip (or br, deflate): the host asks for identity instead, and the echo comes back redacted', async () => {
    for (const coding of ['gzip', 'br', 'deflate', 'gzip, deflate, br']) {
      const before = seen.length;
      const outcome = await fetchWithSecret(['-H', `accept-encoding: ${coding}`, `http://127.0.0.1:${port}/echo`]);
      expect(seen).toHaveLength(before + 1);
      expect(seen.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(seen.at(-1)!.headers['accept-encoding']).toBe('identity');
      expect(echoedBody(outcome).headers.authorization).toBe('Bearer [REDACTED]');
      expect(everythingTheGuestSaw(outcome)).not.toContain(SECRET);
    }
  }, 60_000);

  it('a server that codes the reply anyway (gzip, deflate, br): the host decodes it before redacting and drops the coding headers', async () => {
    for (const coding of ['gzip', 'deflate', 'br']) {
      const outcome = await fetchWithSecret(['-s', 'content-encoding', '-s', 'content-length', `http://127.0.0.1:${port}/echo-${coding}`]);
      expect(decode(outcome.stdout)).toMatch(/^status: 200\nbody: \{/);
      expect(echoedBody(outcome).headers.authorization).toBe('Bearer [REDACTED]');
      expect(everythingTheGuestSaw(outcome)).not.toContain(SECRET);
    }
  }, 60_000);

  it('a decoded reply is held to max_response_body_bytes: the guest reads the first bytes, then the body-size error', async () => {
    const outcome = await fetchWithSecret([`http://127.0.0.1:${port}/echo-gzip?big`], secretPolicy({ max_response_body_bytes: 2000 }));
    expect(decode(outcome.stdout)).toMatch(/^status: 200\nbody-error: /);
    expect(outcome.network?.events[0]).toMatchObject({ decision: 'allowed', status: 200, responseBytes: 2000 });
    expect(everythingTheGuestSaw(outcome)).not.toContain(SECRET);
  }, 30_000);

  it('a coding the host cannot decode is refused (HTTP-response-content-coding), never passed on undecoded', async () => {
    const outcome = await fetchWithSecret([`http://127.0.0.1:${port}/echo-zstd`]);
    expect(decode(outcome.stdout)).toMatch(/^error: .*HttpResponseContentCoding/);
    expect(outcome.network?.events[0]).toMatchObject({ errorCode: 'HTTP-response-content-coding' });
    expect(everythingTheGuestSaw(outcome)).not.toContain(SECRET);
  }, 30_000);

  it('the guest asks for byte ranges to read the secret in pieces: Range and If-Range are not sent with a secret', async () => {
    // The secret starts after `..."authorization":"Bearer `; each range would hold a piece too short to redact.
    const pieces: string[] = [];
    for (const [from, to] of [[0, 40], [30, 80], [60, 120]] as const) {
      const outcome = await fetchWithSecret(['-H', `range: bytes=${from}-${to}`, '-H', 'if-range: "x"', `http://127.0.0.1:${port}/echo`]);
      expect(seen.at(-1)!.headers.range).toBeUndefined();
      expect(seen.at(-1)!.headers['if-range']).toBeUndefined();
      expect(decode(outcome.stdout)).toMatch(/^status: 200\n/);
      expect(echoedBody(outcome).headers.authorization).toBe('Bearer [REDACTED]');
      pieces.push(decode(outcome.stdout));
    }
    expect(pieces.join('')).not.toContain(SECRET.slice(0, 8));
  }, 60_000);

  it('without a secret nothing changes: the guest\'s Accept-Encoding and Range go out, the coded reply comes back as sent', async () => {
    const plain = { network: { allow: [`127.0.0.1:${port}`] } };
    const coded = await runtime.run(fetchTool, { args: ['-H', 'accept-encoding: gzip', '-s', 'content-encoding', `http://127.0.0.1:${port}/echo`], policy: resolvePolicy(plain, work) });
    expect(seen.at(-1)!.headers['accept-encoding']).toBe('gzip');
    expect(decode(coded.stdout)).toMatch(/^status: 200\nheader content-encoding: gzip\n/);
    const ranged = await runtime.run(fetchTool, { args: ['-H', 'range: bytes=0-9', `http://127.0.0.1:${port}/echo`], policy: resolvePolicy(plain, work) });
    expect(decode(ranged.stdout)).toBe('status: 206\nbody: {"method":\n');
  }, 30_000);
});

describe('TRACE never carries a secret, whatever its letter case', () => {
  it('through the component: TRACE, trace, Trace and a method-override field naming trace are refused before anything is sent', async () => {
    const before = seen.length;
    for (const args of [['-X', 'TRACE'], ['-X', 'trace'], ['-X', 'Trace'], ['-X', 'POST', '-H', 'x-http-method-override: trace']]) {
      const outcome = await fetchWithSecret([...args, `http://127.0.0.1:${port}/echo`]);
      expect(decode(outcome.stdout), args.join(' ')).toMatch(/^error: .*HttpRequestDenied/);
      expect(outcome.network?.events[0]).toMatchObject({ decision: 'denied', reason: 'TRACE with policy secret headers' });
    }
    expect(seen.length).toBe(before);
  }, 60_000);

  it('through the outgoing handler: a guest method `trace` (wasi:http `other`) is TRACE for the check and the record', () => {
    // The check runs in `handle`, before any I/O; the component above may upper-case the method itself.
    const policy = resolvePolicy(secretPolicy(), work);
    const options = networkCallOptions(policy.network!, headersOf(secretPolicy()));
    for (const method of ['trace', 'Trace', 'tRaCe']) {
      const log: NetworkEventLog = { events: [], dropped: 0 };
      const handler = createOutgoingHandler(createCallContext(5_000), options, log);
      const request = new OutgoingRequest(Fields.fromList([]));
      request.setMethod({ tag: 'other', val: method });
      request.setScheme({ tag: 'HTTP' });
      request.setAuthority(`127.0.0.1:${port}`);
      request.setPathWithQuery('/echo');
      expect(() => handler.handle(request, undefined)).toThrow(expect.objectContaining({ tag: 'HTTP-request-denied' }));
      expect(log.events).toEqual([expect.objectContaining({ method: 'TRACE', decision: 'denied', reason: 'TRACE with policy secret headers' })]);
    }
  });
});
