/**
 * Benchmark of wasm tool calls (prints numbers, asserts nothing). `npm run bench`.
 * Env: BENCH_CALLS (calls for the RSS run, default 100000), BENCH_CONCURRENCY (default 8).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WASI } from 'node:wasi';
import { resolvePolicy } from '../../src/policy.ts';
import { createWasmRuntime } from '../../src/wasm/runtime.ts';

const root = join(import.meta.dirname, '../..');
const componentFile = join(root, 'test/fixtures/build/rt-echo.wasm');
const coreFile = join(root, 'test/fixtures/build/rt-echo.core.wasm');
const rssCalls = Number(process.env.BENCH_CALLS ?? 100_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const cacheDirectory = mkdtempSync(join(tmpdir(), 'toolhost-bench-'));
const policy = resolvePolicy({}, root);
const args = ['hello', 'bench'];

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}
function summary(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}
const ms = (value: number) => `${value.toFixed(3)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function timeCalls(count: number, call: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times;
}

async function throughput(count: number, parallel: number, call: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next += 1;
        await call();
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const runtime = createWasmRuntime({ cacheDirectory, ...(process.env.BENCH_THREADS ? { threads: Number(process.env.BENCH_THREADS) } : {}) });
const loadStarted = performance.now();
const component = await runtime.load(componentFile);
console.log(`load (transpile + compile, cold cache): ${ms(performance.now() - loadStarted)}`);
const reloadStarted = performance.now();
await createWasmRuntime({ cacheDirectory }).load(componentFile);
console.log(`load (warm disk cache, new runtime):     ${ms(performance.now() - reloadStarted)}`);

const inProcessCall = () => runtime.runInProcess(component, { args, policy });
await timeCalls(1000, inProcessCall);
const inProcess = summary(await timeCalls(10_000, inProcessCall));
console.log(`in-process   per call: p50 ${ms(inProcess.p50)}  p99 ${ms(inProcess.p99)}`);

const poolCall = () => runtime.run(component, { args, policy });
await timeCalls(1000, poolCall);
const pool = summary(await timeCalls(10_000, poolCall));
console.log(`pool         per call: p50 ${ms(pool.p50)}  p99 ${ms(pool.p99)} (sequential, one at a time)`);
await throughput(2000, concurrency, poolCall);
const callsPerSecond = await throughput(20_000, concurrency, poolCall);
console.log(`pool throughput: ${callsPerSecond.toFixed(0)} calls/s (concurrency ${concurrency}, ${runtime.stats().generations} generation(s))`);

global.gc?.();
const rssBefore = process.memoryUsage.rss();
await throughput(rssCalls, concurrency, poolCall);
global.gc?.();
const rssAfter = process.memoryUsage.rss();
console.log(`RSS over ${rssCalls} pool calls: before ${mib(rssBefore)}, after ${mib(rssAfter)} (${mib(rssAfter - rssBefore)} growth); stats ${JSON.stringify(runtime.stats())}`);

// node:wasi preview1 on the same program's core module (crashed after ~2,000 calls on this machine: keep it short).
// The project's TypeScript lib has no WebAssembly declarations.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const WA = (globalThis as any).WebAssembly;
const coreModule = new WA.Module(readFileSync(coreFile));
const devNull = openSync('/dev/null', 'w');
const nodeWasiTimes: number[] = [];
for (let index = 0; index < 500; index += 1) {
  const started = performance.now();
  const wasi = new WASI({ version: 'preview1', args: ['rt-echo', ...args], env: {}, stdout: devNull, returnOnExit: true });
  const instance = new WA.Instance(coreModule, wasi.getImportObject());
  wasi.start(instance);
  nodeWasiTimes.push(performance.now() - started);
}
const nodeWasi = summary(nodeWasiTimes.slice(100));
console.log(`node:wasi preview1 per call: p50 ${ms(nodeWasi.p50)}  p99 ${ms(nodeWasi.p99)}`);

const jco = join(root, 'node_modules/.bin/jco');
const jcoTimes: number[] = [];
for (let index = 0; index < 3; index += 1) {
  const started = performance.now();
  execFileSync(jco, ['run', componentFile, ...args], { stdio: ['ignore', 'ignore', 'ignore'] });
  jcoTimes.push(performance.now() - started);
}
const jcoRun = summary(jcoTimes);
console.log(`jco run (spawned) per call: p50 ${ms(jcoRun.p50)}`);

console.log(
  `ratios (p50): jco run / pool ${(jcoRun.p50 / pool.p50).toFixed(0)}x, node:wasi / pool ${(nodeWasi.p50 / pool.p50).toFixed(1)}x, ` +
    `node:wasi / in-process ${(nodeWasi.p50 / inProcess.p50).toFixed(1)}x, pool / in-process ${(pool.p50 / inProcess.p50).toFixed(1)}x`,
);

await runtime.close();
rmSync(cacheDirectory, { recursive: true, force: true });

