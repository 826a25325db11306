/**
 * toolhost's wasm runtime without a server: a call on the bench's own thread (fresh instance and WASI
 * host, no pool) and calls through the worker pool, one at a time and from many callers. The pool
 * uses the daemon's defaults (one worker per core, a tool may hold half of them) unless
 * BENCH_PER_TOOL_CONCURRENCY says otherwise, so these rows and the daemon's compare.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { resolvePolicy } from '../../../src/policy.ts';
import { createWasmRuntime } from '../../../src/wasm/runtime.ts';
import { rowFromTimings, timeConcurrent, timeSequential, type BenchRow } from '../bench-table.ts';
import { EXPECTED_STDOUT, PROJECT_ROOT, scaled, type BenchContext } from './context.ts';

const decoder = new TextDecoder();

export async function measureToolhostRuntime(context: BenchContext): Promise<BenchRow[]> {
  const perTool = process.env['BENCH_PER_TOOL_CONCURRENCY'];
  const threads = availableParallelism();
  const runtime = createWasmRuntime({
    cacheDirectory: join(context.scratch, 'runtime-cache'),
    threads,
    ...(perTool ? { maxConcurrentCallsPerTool: Number(perTool) } : {}),
  });
  try {
    const component = await runtime.load(context.componentFile);
    const options = { args: [], policy: resolvePolicy({}, PROJECT_ROOT) };
    const check = (outcome: { stdout: Uint8Array; exitCode: number | null }) => {
      if (outcome.exitCode !== 0 || !decoder.decode(outcome.stdout).includes(EXPECTED_STDOUT)) {
        throw new Error(`rt-echo call failed: exit ${outcome.exitCode}, stdout ${decoder.decode(outcome.stdout)}`);
      }
    };
    const inProcess = async () => check(await runtime.runInProcess(component, options));
    const pooled = async () => check(await runtime.run(component, options));
    const rows: BenchRow[] = [];
    // The same program as a wasip1 core module (toolhost runs it on its preview1 host), and a standard Go tool.
    const core = await runtime.load(context.coreFile);
    const coreInProcess = async () => check(await runtime.runInProcess(core, options));
    const corePooled = async () => check(await runtime.run(core, options));
    rows.push(rowFromTimings('toolhost in-process call, wasip1 module', await timeSequential(coreInProcess, scaled(context, { warmup: 500, calls: 5000, maxSeconds: 6 })), 'rt-echo.core.wasm: fresh instance + host on the caller\'s thread'));
    rows.push(rowFromTimings('toolhost worker pool, sequential, wasip1 module', await timeSequential(corePooled, scaled(context, { warmup: 500, calls: 5000, maxSeconds: 6 })), 'rt-echo.core.wasm: runtime.run, one call at a time'));
    const goFile = join(PROJECT_ROOT, 'test/fixtures/build/go-greet.core.wasm');
    if (existsSync(goFile)) {
      const go = await runtime.load(goFile);
      const goOptions = { args: ['Ada'], policy: resolvePolicy({}, PROJECT_ROOT) };
      const goCall = async () => {
        const outcome = await runtime.run(go, goOptions);
        if (outcome.exitCode !== 0) throw new Error(`go-greet call failed: exit ${outcome.exitCode}, trap ${outcome.trap ?? ''}`);
      };
      rows.push(rowFromTimings('toolhost worker pool, sequential, Go wasip1 module', await timeSequential(goCall, scaled(context, { warmup: 20, calls: 300, maxSeconds: 6 })), 'go-greet.core.wasm (standard Go, GOOS=wasip1) Ada'));
    }
    rows.push(rowFromTimings('toolhost in-process call', await timeSequential(inProcess, scaled(context, { warmup: 500, calls: 5000, maxSeconds: 6 })), 'fresh instance + WASI host on the caller\'s thread, one at a time'));
    rows.push(rowFromTimings('toolhost worker pool, sequential', await timeSequential(pooled, scaled(context, { warmup: 500, calls: 5000, maxSeconds: 6 })), 'runtime.run, one call at a time'));
    rows.push(
      rowFromTimings(
        `toolhost worker pool, ${context.concurrency} callers`,
        await timeConcurrent(pooled, context.concurrency, scaled(context, { warmup: 500, calls: 20_000, maxSeconds: 8 })),
        `runtime.run from ${context.concurrency} concurrent callers; ${threads} workers, per-tool limit ${perTool ?? 'default (half the pool)'}`,
      ),
    );
    return rows;
  } finally {
    await runtime.close();
  }
}
