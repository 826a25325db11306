/**
 * wasi:http through a real Rust component (test/fixtures/rust/http-fetch, waki) against real HTTP
 * servers on loopback. Loopback is reachable only through allow entries that name it exactly, so the
 * same servers also exercise the private-address guard.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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
      setTimeout(() => response.end('late'), 5_000);
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
  main?.server.close();
  other?.server.close();
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
});
