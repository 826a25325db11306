/**
 * wasi:sockets through a real Rust component (test/fixtures/rust/tcp-client, std::net) against real
 * TCP and UDP echo servers on loopback: connect and lookup only where the policy allows, no listening.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy, type ToolPolicy } from '../../src/policy.ts';
import type { LoadedComponent } from '../../src/wasm/load.ts';
import type { RunOutcome } from '../../src/wasm/run-types.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

let work: string;
let runtime: WasmRuntime;
let client: LoadedComponent;
let tcp: Server;
let tcpPort: number;
let connections = 0;
let udp: UdpSocket;
let udpPort: number;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-sockets-'));
  runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1 });
  client = await runtime.load(join(build, 'tcp-client.wasm'));
  tcp = createServer((socket) => {
    connections += 1;
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => socket.end(`echo:${Buffer.concat(chunks).toString()}`));
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as AddressInfo).port;
  udp = createSocket('udp4');
  udp.on('message', (message, remote) => udp.send(`udp-echo:${message.toString()}`, remote.port, remote.address));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  udpPort = udp.address().port;
}, 120_000);

afterAll(async () => {
  await runtime.close();
  tcp?.close();
  udp?.close();
  await rm(work, { recursive: true, force: true });
});

function runClient(args: string[], policy: ToolPolicy): Promise<RunOutcome> {
  return runtime.run(client, { args, policy: resolvePolicy(policy, work) });
}

describe('wasi:sockets', () => {
  it('connects over TCP to an allowed IP:port and exchanges bytes', async () => {
    const outcome = await runClient(['connect', `127.0.0.1:${tcpPort}`, 'hello'], { network: { allow: [`127.0.0.1:${tcpPort}`] } });
    expect(decode(outcome.stderr)).toBe('');
    expect(decode(outcome.stdout)).toBe('reply: echo:hello\n');
    expect(outcome.network?.events).toEqual([expect.objectContaining({ kind: 'tcp', decision: 'allowed', host: '127.0.0.1', port: tcpPort })]);
  }, 30_000);

  it('refuses a TCP connect to a port or host outside the list, before any connection', async () => {
    const before = connections;
    const otherPort = await runClient(['connect', `127.0.0.1:${tcpPort}`, 'x'], { network: { allow: [`127.0.0.1:${tcpPort + 1}`] } });
    expect(decode(otherPort.stdout)).toMatch(/^error: PermissionDenied/);
    expect(otherPort.network?.events[0]).toMatchObject({ kind: 'tcp', decision: 'denied', port: tcpPort });
    const none = await runClient(['connect', `127.0.0.1:${tcpPort}`, 'x'], {});
    expect(decode(none.stdout)).toMatch(/^error: /);
    expect(connections).toBe(before);
  }, 30_000);

  it('looks up only allowed names, and reaches a loopback name only through an exact entry', async () => {
    const exact = await runClient(['connect', `localhost:${tcpPort}`, 'by-name'], { network: { allow: [`localhost:${tcpPort}`] } });
    expect(decode(exact.stdout)).toBe('reply: echo:by-name\n');
    expect(exact.network?.events.map((event) => event.kind)).toEqual(['lookup', 'tcp']);
    const unlisted = await runClient(['lookup', 'localhost'], { network: { allow: [`127.0.0.1:${tcpPort}`] } });
    expect(decode(unlisted.stdout)).toMatch(/^error: /);
    expect(unlisted.network?.events[0]).toMatchObject({ kind: 'lookup', decision: 'denied', host: 'localhost' });
    const resolve = { 'db.internal.test': ['127.0.0.1'] };
    const wildcard = await runClient(['connect', `db.internal.test:${tcpPort}`, 'x'], { network: { allow: [`*.internal.test:${tcpPort}`], resolve } });
    expect(decode(wildcard.stdout)).toMatch(/^error: /);
    expect(wildcard.network?.events[0]).toMatchObject({ kind: 'lookup', decision: 'denied', address: '127.0.0.1' });
    const pinned = await runClient(['connect', `db.internal.test:${tcpPort}`, 'pinned'], { network: { allow: [`db.internal.test:${tcpPort}`], resolve } });
    expect(decode(pinned.stdout)).toBe('reply: echo:pinned\n');
  }, 30_000);

  it('refuses to listen', async () => {
    const outcome = await runClient(['listen', '0'], { network: { allow: [`127.0.0.1:${tcpPort}`] } });
    expect(decode(outcome.stdout)).toMatch(/^error: PermissionDenied/);
  }, 30_000);

  it('sends UDP to an allowed address and reads the answer; refuses others', async () => {
    const outcome = await runClient(['udp', `127.0.0.1:${udpPort}`, 'ping'], { network: { allow: [`127.0.0.1:${udpPort}`] } });
    expect(decode(outcome.stdout)).toBe('udp-reply: udp-echo:ping\n');
    const denied = await runClient(['udp', `127.0.0.1:${udpPort}`, 'ping'], { network: { allow: [`127.0.0.1:${udpPort + 1}`] } });
    expect(decode(denied.stdout)).toMatch(/^error: /);
    expect(denied.network?.events).toEqual([expect.objectContaining({ kind: 'udp', decision: 'denied', port: udpPort })]);
  }, 30_000);
});
