import { beforeAll, describe, expect, it } from 'vitest';
import { createWasiHost, WASI_INTERFACES } from '../../../src/wasm/wasi/host.ts';
import type { Pollable } from '../../../src/wasm/wasi/io-poll.ts';
import { WasiTimeout } from '../../../src/wasm/wasi/types.ts';
import { baseOptions, type Fixture, loadFixture } from './fixtures.ts';

let sleep: Fixture;

beforeAll(async () => {
  sleep = await loadFixture('wasi-sleep');
}, 60_000);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return 'no error';
}

type Clock = { now(): bigint; resolution(): bigint; subscribeDuration(d: bigint): Pollable; subscribeInstant(t: bigint): Pollable };
type PollApi = { poll(list: Pollable[]): Uint32Array };

describe('clocks, poll, random', () => {
  it('nanosleep sleeps for real and the clocks advance', () => {
    const t0 = performance.now();
    const r = sleep.run({ args: ['sleep', '30'], timeoutMs: 5000 });
    const elapsed = performance.now() - t0;
    expect(r.exitCode).toBe(0);
    const m = /rc=0 mono=([\d.]+) wall=([\d.]+) wallnow=(\d+) getentropy=0 random=([0-9a-f]{32})/.exec(r.stdout);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(29);
    expect(Number(m![2])).toBeGreaterThanOrEqual(25);
    expect(Math.abs(Number(m![3]) - Date.now())).toBeLessThan(5000);
    expect(elapsed).toBeGreaterThanOrEqual(29);
    expect(m![4]).not.toBe('0'.repeat(32));
  });

  it('a sleep past the call deadline ends at the deadline with WasiTimeout', () => {
    const t0 = performance.now();
    const r = sleep.run({ args: ['sleep', '60000'], timeoutMs: 50 });
    const elapsed = performance.now() - t0;
    expect(r.error).toBeInstanceOf(WasiTimeout);
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(30_000); // far below the 60 s sleep: the deadline ended it, however loaded the machine
  });

  it('poll returns the ready indices, sleeping until the earliest timer', () => {
    const { imports } = createWasiHost(baseOptions());
    const clock = imports['wasi:clocks/monotonic-clock'] as Clock;
    const { poll } = imports['wasi:io/poll'] as PollApi;
    expect(clock.resolution()).toBe(1n);
    const now = clock.now();
    // A second ahead: long enough that a loaded machine cannot reach it before the first check.
    const later = clock.subscribeDuration(1_000_000_000n);
    const past = clock.subscribeInstant(now - 1n);
    expect(later.ready()).toBe(false);
    expect(Array.from(poll([later, past]))).toEqual([1]);
    expect(Array.from(poll([later]))).toEqual([0]);
    // poll slept until the timer: the clock is past it (no wall-clock bound, which a busy machine would break).
    expect(clock.now()).toBeGreaterThanOrEqual(now + 1_000_000_000n);
    expect(later.ready()).toBe(true);
    const soon = clock.subscribeDuration(5_000_000n);
    soon.block();
    expect(soon.ready()).toBe(true);
  });

  it('pollable.block is bounded by the deadline too', () => {
    const { imports } = createWasiHost(baseOptions({ timeoutMs: 20 }));
    const clock = imports['wasi:clocks/monotonic-clock'] as Clock;
    expect(thrown(() => clock.subscribeDuration(10_000_000_000n).block())).toBeInstanceOf(WasiTimeout);
  });

  it('wall clock, random and insecure random', () => {
    const { imports } = createWasiHost(baseOptions());
    const wall = (imports['wasi:clocks/wall-clock'] as { now(): { seconds: bigint; nanoseconds: number } }).now();
    expect(Math.abs(Number(wall.seconds) - Date.now() / 1000)).toBeLessThan(2);
    expect(wall.nanoseconds).toBeGreaterThanOrEqual(0);
    expect(wall.nanoseconds).toBeLessThan(1e9);
    const random = imports['wasi:random/random'] as { getRandomBytes(n: bigint): Uint8Array; getRandomU64(): bigint };
    expect(random.getRandomBytes(32n).byteLength).toBe(32);
    expect(random.getRandomBytes(32n)).not.toEqual(random.getRandomBytes(32n));
    expect(typeof random.getRandomU64()).toBe('bigint');
    expect(() => random.getRandomBytes(1n << 40n)).toThrow(RangeError);
    const insecure = imports['wasi:random/insecure'] as { getInsecureRandomBytes(n: bigint): Uint8Array };
    expect(insecure.getInsecureRandomBytes(8n).byteLength).toBe(8);
    const [a, b] = (imports['wasi:random/insecure-seed'] as { insecureSeed(): [bigint, bigint] }).insecureSeed();
    expect(typeof a).toBe('bigint');
    expect(typeof b).toBe('bigint');
  });
});

describe('sockets and http are present but denied', () => {
  it('provides every WASI 0.2 interface a command may import', () => {
    const { imports } = createWasiHost(baseOptions());
    expect(Object.keys(imports).sort()).toEqual([...WASI_INTERFACES]);
    for (const name of [
      'wasi:cli/environment', 'wasi:cli/exit', 'wasi:cli/stdin', 'wasi:cli/stdout', 'wasi:cli/stderr',
      'wasi:cli/terminal-input', 'wasi:cli/terminal-output', 'wasi:cli/terminal-stdin', 'wasi:cli/terminal-stdout',
      'wasi:cli/terminal-stderr', 'wasi:clocks/monotonic-clock', 'wasi:clocks/wall-clock', 'wasi:filesystem/types',
      'wasi:filesystem/preopens', 'wasi:io/error', 'wasi:io/poll', 'wasi:io/streams', 'wasi:random/random',
      'wasi:random/insecure', 'wasi:random/insecure-seed', 'wasi:sockets/network', 'wasi:sockets/instance-network',
      'wasi:sockets/ip-name-lookup', 'wasi:sockets/tcp', 'wasi:sockets/tcp-create-socket', 'wasi:sockets/udp',
      'wasi:sockets/udp-create-socket', 'wasi:http/types', 'wasi:http/outgoing-handler',
    ]) {
      expect(imports[name], name).toBeTypeOf('object');
    }
  });

  it('every network operation fails with access-denied without a network grant', () => {
    const { imports } = createWasiHost(baseOptions());
    const net = (imports['wasi:sockets/instance-network'] as { instanceNetwork(): unknown }).instanceNetwork();
    const lookup = imports['wasi:sockets/ip-name-lookup'] as { resolveAddresses(n: unknown, name: string): unknown };
    expect(thrown(() => lookup.resolveAddresses(net, 'example.com'))).toBe('access-denied');
    const tcp = (imports['wasi:sockets/tcp-create-socket'] as { createTcpSocket(f: string): Record<string, (...a: unknown[]) => unknown> }).createTcpSocket('ipv4');
    const addr = { tag: 'ipv4', val: { port: 80, address: [93, 184, 216, 34] } };
    expect(thrown(() => tcp.startConnect!(net, addr))).toBe('access-denied');
    expect(thrown(() => tcp.startBind!(net, addr))).toBe('access-denied');
    expect(thrown(() => tcp.startListen!())).toBe('access-denied');
    expect(tcp.addressFamily!()).toBe('ipv4');
    const udp = (imports['wasi:sockets/udp-create-socket'] as { createUdpSocket(f: string): Record<string, (...a: unknown[]) => unknown> }).createUdpSocket('ipv6');
    expect(thrown(() => udp.startBind!(net, addr))).toBe('access-denied');
    const http = imports['wasi:http/types'] as {
      Fields: { new (): { append(n: string, v: Uint8Array): void }; fromList(l: Array<[string, Uint8Array]>): unknown };
      OutgoingRequest: new (h: unknown) => { setAuthority(a: string): void; body(): { write(): { write(b: Uint8Array): void } } };
    };
    const headers = new http.Fields();
    headers.append('content-type', new TextEncoder().encode('text/plain'));
    expect(thrown(() => headers.append('bad name', new Uint8Array()))).toEqual({ tag: 'invalid-syntax' });
    const request = new http.OutgoingRequest(headers);
    expect(thrown(() => headers.append('x', new Uint8Array()))).toEqual({ tag: 'immutable' });
    request.setAuthority('example.com');
    request.body().write().write(new TextEncoder().encode('ignored'));
    const handler = imports['wasi:http/outgoing-handler'] as { handle(r: unknown, o: unknown): unknown };
    expect(thrown(() => handler.handle(request, undefined))).toEqual({ tag: 'HTTP-request-denied' });
  });
});
