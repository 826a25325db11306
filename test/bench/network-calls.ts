/**
 * Benchmark of wasi:http calls (prints numbers, asserts nothing):
 * `node --import tsx test/bench/network-calls.ts`. One pool worker runs the http-fetch fixture
 * against a loopback server: the first call (which starts the worker's network thread), then
 * BENCH_CALLS sequential calls, then the same number of calls of the same tool denied by policy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePolicy } from '../../src/policy.ts';
import { createWasmRuntime } from '../../src/wasm/runtime.ts';

const root = join(import.meta.dirname, '../..');
const calls = Number(process.env.BENCH_CALLS ?? 200);
const cacheDirectory = mkdtempSync(join(tmpdir(), 'toolhost-bench-net-'));

const server = createServer((_request, response) => response.end('ok'));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const url = `http://127.0.0.1:${port}/`;
const allowed = resolvePolicy({ network: { allow: [`127.0.0.1:${port}`] } }, root);
const denied = resolvePolicy({ network: { allow: ['other.example'] } }, root);

const runtime = createWasmRuntime({ cacheDirectory, threads: 1 });
const tool = await runtime.load(join(root, 'test/fixtures/build/http-fetch.wasm'));
await runtime.run(tool, { args: ['--help'], policy: denied }); // boots the worker (not the network thread)

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!.toFixed(2);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
}

const first = await runtime.run(tool, { args: [url], policy: allowed });
console.log(`first allowed call (starts the network thread): ${first.durationMs.toFixed(1)} ms`);
for (const [label, policy] of [['allowed', allowed], ['denied', denied]] as const) {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) times.push((await runtime.run(tool, { args: [url], policy })).durationMs);
  console.log(`${label} calls (${calls}, sequential): ${summary(times)}`);
}
await runtime.close();
server.close();
rmSync(cacheDirectory, { recursive: true, force: true });
