/**
 * A wasm tool's network grant never reaches the daemon's own API: with a real daemon listening on
 * loopback (startServer), real components (http-fetch over wasi:http, tcp-client over wasi:sockets)
 * whose policy allows the daemon's port by every loopback name are refused, with a denial reason
 * naming the daemon; the same components reach another loopback server, and the daemon's port once
 * it has closed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy, type ToolPolicy } from '../../src/policy.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import type { LoadedComponent } from '../../src/wasm/load.ts';
import { reservedEndpointAt, reservedEndpoints, reserveListener } from '../../src/wasm/net/reserved-endpoints.ts';
import type { RunOutcome } from '../../src/wasm/run-types.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';
import { createTestHost } from '../server/helpers.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

let work: string;
let runtime: WasmRuntime;
let fetchTool: LoadedComponent;
let tcpClient: LoadedComponent;
let daemon: RunningServer;
let other: Server;
let otherPort: number;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-listener-'));
  runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1 });
  [fetchTool, tcpClient] = await Promise.all([runtime.load(join(build, 'http-fetch.wasm')), runtime.load(join(build, 'tcp-client.wasm'))]);
  daemon = await startServer(await createTestHost(), { port: 0, keepAliveMs: 0 });
  other = createServer((_request, response) => response.end('other server'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherPort = (other.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await daemon?.close(2_000);
  await runtime?.close();
  other?.close();
  await rm(work, { recursive: true, force: true });
});

function allowing(port: number): ToolPolicy {
  return { network: { allow: [`127.0.0.1:${port}`, `localhost:${port}`, `127.0.0.2:${port}`, `[::1]:${port}`] } };
}

function run(tool: LoadedComponent, args: string[], policy: ToolPolicy): Promise<RunOutcome> {
  return runtime.run(tool, { args, policy: resolvePolicy(policy, work) });
}

describe("the daemon's own listener", () => {
  it('refuses wasi:http to the daemon by 127.0.0.1, localhost and another loopback address, even when allowed', async () => {
    for (const host of ['127.0.0.1', 'localhost', '127.0.0.2']) {
      const outcome = await run(fetchTool, [`http://${host}:${daemon.port}/healthz`], allowing(daemon.port));
      expect(decode(outcome.stdout), host).toMatch(/^error: .*DestinationIpProhibited/);
      expect(outcome.network?.events[0]).toMatchObject({ decision: 'denied', errorCode: 'destination-IP-prohibited', reason: expect.stringContaining("the toolhost daemon's API") });
    }
  }, 60_000);

  it('refuses wasi:sockets connect to the daemon', async () => {
    const outcome = await run(tcpClient, ['connect', `127.0.0.1:${daemon.port}`, 'GET /healthz HTTP/1.0\r\n\r\n'], allowing(daemon.port));
    expect(decode(outcome.stdout)).toMatch(/^error: /);
    expect(decode(outcome.stdout)).not.toContain('reply:');
    expect(outcome.network?.events[0]).toMatchObject({ kind: 'tcp', decision: 'denied', reason: expect.stringContaining("the toolhost daemon's API") });
  }, 60_000);

  it('still reaches another loopback server the policy allows', async () => {
    const outcome = await run(fetchTool, [`http://127.0.0.1:${otherPort}/`], allowing(otherPort));
    expect(decode(outcome.stdout)).toBe('status: 200\nbody: other server\n');
  }, 60_000);
});

describe('reserveListener', () => {
  it('a loopback bind reserves every loopback address on its port; an unspecified bind also every local interface address; release ends it', () => {
    const loopback = reserveListener('127.0.0.1', 40_001);
    const wildcard = reserveListener('0.0.0.0', 40_002);
    const exact = reserveListener('::ffff:10.1.2.3', 40_003);
    try {
      const endpoints = reservedEndpoints().filter((endpoint) => endpoint.port >= 40_001 && endpoint.port <= 40_003);
      expect(endpoints).toEqual([
        { port: 40_001, addresses: ['127.0.0.1'], anyLoopback: true, label: "the toolhost daemon's API (127.0.0.1:40001)" },
        { port: 40_002, addresses: expect.arrayContaining(Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).filter((entry) => entry.family === 'IPv4').map((entry) => entry.address))), anyLoopback: true, label: "the toolhost daemon's API (0.0.0.0:40002)" },
        { port: 40_003, addresses: ['10.1.2.3'], anyLoopback: false, label: "the toolhost daemon's API (10.1.2.3:40003)" },
      ]);
      expect(reservedEndpointAt(endpoints, '127.5.5.5', 40_001)).toBeDefined();
      expect(reservedEndpointAt(endpoints, '127.0.0.1', 40_003)).toBeUndefined();
      expect(reservedEndpointAt(endpoints, '10.1.2.3', 40_003)).toBeDefined();
    } finally {
      loopback();
      wildcard();
      exact();
    }
    expect(reservedEndpoints().filter((endpoint) => endpoint.port >= 40_001 && endpoint.port <= 40_003)).toEqual([]);
  });

  it('checks addresses against a snapshot', () => {
    const endpoints = [
      { port: 40_001, addresses: ['127.0.0.1'], anyLoopback: true, label: 'daemon' },
      { port: 40_002, addresses: ['192.168.7.7'], anyLoopback: true, label: 'wildcard daemon' },
    ];
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1']) expect(reservedEndpointAt(endpoints, address, 40_001)?.label, address).toBe('daemon');
    expect(reservedEndpointAt(endpoints, '127.0.0.1', 40_003)).toBeUndefined();
    expect(reservedEndpointAt(endpoints, '192.168.7.7', 40_001)).toBeUndefined();
    expect(reservedEndpointAt(endpoints, '192.168.7.7', 40_002)?.label).toBe('wildcard daemon');
    expect(reservedEndpointAt(endpoints, '::ffff:192.168.7.7', 40_002)?.label).toBe('wildcard daemon');
    expect(reservedEndpointAt(endpoints, '8.8.8.8', 40_002)).toBeUndefined();
  });
});

describe('after the daemon closes', () => {
  it('its port is no longer reserved', async () => {
    const port = daemon.port;
    await daemon.close(2_000);
    const outcome = await run(fetchTool, [`http://127.0.0.1:${port}/healthz`], allowing(port));
    // Nothing listens there now: the request is allowed and fails to connect.
    expect(outcome.network?.events[0]).toMatchObject({ decision: 'allowed', errorCode: 'connection-refused' });
  }, 60_000);
});
