/**
 * Per-call allocation and garbage collection of toolhost's in-process call path, counted rather than
 * timed (the counts hold on a busy machine): V8 collections per 1,000 calls by kind (scavenge,
 * mark-compact, with the external-memory ones apart), JavaScript heap bytes allocated per call, and
 * the p50/p99 of the same loop. The peer is node:wasi on the same core module, in the same process.
 *
 *   node --expose-gc --import tsx test/bench/gc-per-call.ts [calls] [file.wasm] [args...]
 *
 * Default: 5,000 calls of test/fixtures/build/rt-echo.wasm (the C component, run as its unwrapped
 * preview1 module) after 500 warm-up calls. GC_ONLY=toolhost|node-wasi runs one side.
 */
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { WASI } from 'node:wasi';
import { resolvePolicy } from '../../src/policy.ts';
import { createWasmRuntime } from '../../src/wasm/runtime.ts';
import { PROJECT_ROOT } from './peers/context.ts';

const calls = Number(process.argv[2] ?? 5000);
const file = process.argv[3] ?? join(PROJECT_ROOT, 'test/fixtures/build/rt-echo.wasm');
const args = process.argv.slice(4);
const warmup = Math.min(500, Math.ceil(calls / 10));
const only = process.env['GC_ONLY'];

interface GcCounts {
  scavenge: number;
  markCompact: number;
  other: number;
  gcMs: number;
}

/** Counts the collections `body` causes (PerformanceObserver 'gc' entries), with the heap bytes it allocates. */
async function measure(name: string, body: () => Promise<void> | void): Promise<void> {
  for (let i = 0; i < warmup; i++) await body();
  (globalThis as { gc?: () => void }).gc?.();
  const counts: GcCounts = { scavenge: 0, markCompact: 0, other: 0, gcMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      counts.gcMs += entry.duration;
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) counts.scavenge++;
      else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) counts.markCompact++;
      else counts.other++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const times: number[] = [];
  let allocated = 0;
  let before = getHeapStatistics();
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await body();
    times.push(performance.now() - started);
    // used_heap_size drops at a collection: count only the growth between two samples
    const after = getHeapStatistics();
    const grown = after.used_heap_size - before.used_heap_size;
    if (grown > 0) allocated += grown;
    // let the observer's gc entries be delivered (outside the timed part)
    if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    before = getHeapStatistics();
  }
  // gc entries are delivered on a later turn of the event loop
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  times.sort((a, b) => a - b);
  const per1000 = (n: number) => ((n * 1000) / calls).toFixed(1);
  const pick = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN).toFixed(3);
  console.log(
    `| ${name} | ${calls} | ${per1000(counts.scavenge)} | ${per1000(counts.markCompact + counts.other)} | ${((counts.gcMs * 1000) / calls).toFixed(1)} | ${Math.round(allocated / calls).toLocaleString('en')} | ${pick(0.5)} | ${pick(0.99)} |`,
  );
}

// The project's lib settings declare no WebAssembly namespace: the slice used here.
const wasm = (globalThis as unknown as {
  WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object, imports: object) => object };
}).WebAssembly;

const scratch = mkdtempSync(join(tmpdir(), 'toolhost-gc-bench-'));
const runtime = createWasmRuntime({ cacheDirectory: join(scratch, 'cache'), threads: 1 });
try {
  const component = await runtime.load(file);
  const options = { args, policy: resolvePolicy({}, PROJECT_ROOT) };
  console.log(`${file.replace(PROJECT_ROOT + '/', '')} ${args.join(' ')}; Node ${process.version}; load average ${(loadavg()[0] ?? 0).toFixed(1)}\n`);
  console.log('| path | calls | scavenges / 1,000 calls | mark-compacts / 1,000 calls | GC µs / call | heap bytes / call | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  if (only === undefined || only === 'toolhost') {
    await measure('toolhost in-process call', async () => {
      const outcome = await runtime.runInProcess(component, options);
      if (outcome.exitCode !== 0) throw new Error(`call failed: exit ${outcome.exitCode} ${outcome.trap ?? ''}`);
    });
  }
  const coreFile = file.endsWith('.core.wasm') ? file : file.replace(/\.wasm$/, '.core.wasm');
  if (only === undefined || only === 'node-wasi') {
    const module = new wasm.Module(readFileSync(coreFile));
    const devNull = openSync('/dev/null', 'w');
    await measure('node:wasi, same core module', () => {
      const wasi = new WASI({ version: 'preview1', args: ['rt-echo', ...args], env: {}, returnOnExit: true, stdout: devNull });
      const instance = new wasm.Instance(module, wasi.getImportObject());
      wasi.start(instance as Parameters<WASI['start']>[0]);
    });
    closeSync(devNull);
  }
} finally {
  await runtime.close();
  rmSync(scratch, { recursive: true, force: true });
}
