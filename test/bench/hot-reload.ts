/**
 * Benchmark of hot reload (prints numbers, asserts nothing):
 *   node --import tsx test/bench/hot-reload.ts
 * Time from copying a small component (test/fixtures/build/ext-greet.wasm, `npm run fixtures`) into
 * a watched extensions folder until (a) the host's `added` event and (b) the first successful call.
 * Cold: the transpile cache lacks this component (it holds only the warm-up tool, so jco's first
 * transpile in the process is included). Warm: the cache already holds this version (transpiled
 * glue and captured help). Each sample runs in a fresh process (the compiled-module cache is per process),
 * on a host that is already up, watching and serving another wasm tool (its worker pool started);
 * the watcher's write-stability window (150 ms) is included.
 * Env: BENCH_RUNS (samples per mode, default 5).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(import.meta.dirname, '../..');
const component = join(root, 'test/fixtures/build/ext-greet.wasm');
const runs = Number(process.env.BENCH_RUNS ?? 5);
const TARGETS = { warm: 1_000, cold: 2_000 } as const;

interface Sample {
  addedMs: number;
  callableMs: number;
}

/** One sample, in this (child) process: host up and watching, then copy the file in and time it. */
async function sample(cacheDir: string, warmupOnly: boolean): Promise<Sample> {
  const { createHost } = await import('../../src/host.ts');
  const { wasmExtensions } = await import('../../src/extensions/index.ts');
  const scratch = mkdtempSync(join(tmpdir(), 'toolhost-bench-hot-'));
  const extensionsDir = join(scratch, 'extensions');
  mkdirSync(extensionsDir);
  // A host that is already serving: another tool (hello.wasm) loaded and called once, so the worker
  // pool has started and compiled its loader before the measured file arrives.
  copyFileSync(join(root, 'test/fixtures/build/hello.wasm'), join(extensionsDir, 'hello.wasm'));
  const host = await createHost({ workspaceRoot: scratch, extensionsDir, cacheDir, watch: true, limits: { poolSize: 2 } }, { extensions: wasmExtensions() });
  try {
    await Promise.all([host.callTool('hello', {}), host.callTool('hello', {})]);
    if (warmupOnly) return { addedMs: 0, callableMs: 0 };
    let addedAt: number | undefined;
    const added = new Promise<void>((resolve) => {
      host.onEvent((event) => {
        if (event.type === 'added' && event.name === 'ext-greet') {
          addedAt = performance.now();
          resolve();
        }
      });
    });
    const started = performance.now();
    copyFileSync(component, join(extensionsDir, 'ext-greet.wasm'));
    let callableAt: number | undefined;
    for (;;) {
      const result = await host.callTool('ext-greet', { name: 'bench' });
      if (!result.is_error) {
        callableAt = performance.now();
        break;
      }
      if (performance.now() - started > 30_000) throw new Error(`not callable after 30 s: ${result.content}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await added;
    return { addedMs: (addedAt ?? Number.NaN) - started, callableMs: callableAt - started };
  } finally {
    await host.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function runChild(cacheDir: string, warmupOnly = false): Sample {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--sample', cacheDir, ...(warmupOnly ? ['--warmup-only'] : [])];
  const output = execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').at(-1) ?? '') as Sample;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function main(): Promise<void> {
  const sampleIndex = process.argv.indexOf('--sample');
  if (sampleIndex >= 0) {
    const cacheDir = process.argv[sampleIndex + 1] as string;
    console.log(JSON.stringify(await sample(cacheDir, process.argv.includes('--warmup-only'))));
    return;
  }
  const fmt = (value: number) => `${Math.round(value)} ms`;
  const report = (mode: 'cold' | 'warm', samples: Sample[]) => {
    const added = median(samples.map((entry) => entry.addedMs));
    const callable = median(samples.map((entry) => entry.callableMs));
    const target = TARGETS[mode];
    console.log(
      `${mode.padEnd(4)}  median added ${fmt(added).padStart(7)}  callable ${fmt(callable).padStart(7)}  (target <= ${target} ms: ${callable <= target ? 'met' : 'MISSED'})` +
        `   samples callable: ${samples.map((entry) => fmt(entry.callableMs)).join(', ')}`,
    );
  };
  console.log(`hot reload: copy ${component} into a watched folder → added event / first successful call; ${runs} runs each, fresh process per run`);

  // Cold: the cache holds only the warm-up tool (as for a server restarted on a cached folder), so
  // jco transpiles ext-greet in a process that has not transpiled anything yet.
  const helloOnlyCache = mkdtempSync(join(tmpdir(), 'toolhost-bench-hello-'));
  runChild(helloOnlyCache, true);
  const cold: Sample[] = [];
  for (let index = 0; index < runs; index += 1) {
    const cacheDir = mkdtempSync(join(tmpdir(), 'toolhost-bench-cold-'));
    try {
      cpSync(helloOnlyCache, cacheDir, { recursive: true });
      cold.push(runChild(cacheDir));
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }
  rmSync(helloOnlyCache, { recursive: true, force: true });
  report('cold', cold);

  const warmCache = mkdtempSync(join(tmpdir(), 'toolhost-bench-warm-'));
  try {
    runChild(warmCache); // primes the cache with this version; not counted
    const warm: Sample[] = [];
    for (let index = 0; index < runs; index += 1) warm.push(runChild(warmCache));
    report('warm', warm);
  } finally {
    rmSync(warmCache, { recursive: true, force: true });
  }
}

await main();
