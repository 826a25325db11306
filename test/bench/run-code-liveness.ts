/**
 * `run_code` in executor processes against the in-thread sandbox it replaced, in one run (prints
 * numbers; no pass/fail):
 *   node --import tsx test/bench/run-code-liveness.ts
 * Starts test/bench/run-code-bench-daemon.ts (a real daemon process, both paths as tools) and
 * measures, for `run_code` (executors) and `run_code_in_thread` (the old path):
 *   - executor start-up: fork to `ready` (cold), and one tiny run on a cold and on a warm executor;
 *   - latency of a normal run (`return 1` and a run with one tool call), sequential, p50/p99;
 *   - /healthz latency (p50/p99/max, sequential probes) while 8 hostile runs (big-integer to text,
 *     native work QuickJS cannot interrupt) and while 8 well-behaved runs (0.95 s of computing each)
 *     run concurrently;
 *   - the daemon's RSS (/proc VmRSS, sampled every 100 ms) while 40 concurrent runs each hold 56 MiB.
 * Env: BENCH_RUNS (sequential runs per latency row, default 30).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CodeExecutor } from '../../builtins/internal/code-executor/executor.ts';
import { RUN_CODE_EXECUTOR_HEAP_MB, RUN_CODE_EXECUTOR_NICENESS, RUN_CODE_EXECUTOR_RSS_BYTES } from '../../builtins/run-code.ts';

const root = join(import.meta.dirname, '../..');
const runs = Number(process.env['BENCH_RUNS'] ?? 30);
const scratch = mkdtempSync(join(tmpdir(), 'toolhost-run-code-bench-'));
writeFileSync(join(scratch, 'a.txt'), 'alpha\n');

const TOOLS = ['run_code', 'run_code_in_thread'] as const;
type Path = (typeof TOOLS)[number];

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

function summary(values: readonly number[]): string {
  return `p50 ${percentile(values, 0.5).toFixed(1)} ms, p99 ${percentile(values, 0.99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (n=${values.length})`;
}

function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1]) / 1024;
}

async function call(url: string, tool: Path, code: string): Promise<{ is_error: boolean; content: string; metadata?: Record<string, unknown> }> {
  const response = await fetch(`${url}/v1/tools/${tool}/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: { code } }) });
  return (await response.json()) as { is_error: boolean; content: string; metadata?: Record<string, unknown> };
}

/** Probe latencies; a probe the daemon dropped (its connection reset while it was frozen) counts with the time it took, and in `failed`. */
async function healthzWhile(url: string, work: Promise<unknown>): Promise<number[] & { failed?: number }> {
  let done = false;
  void work.finally(() => (done = true));
  const latencies: number[] & { failed?: number } = [];
  latencies.failed = 0;
  while (!done) {
    const started = performance.now();
    try {
      await (await fetch(`${url}/healthz`)).text();
    } catch {
      latencies.failed += 1;
    }
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return latencies;
}

async function startupNumbers(): Promise<void> {
  const limits = { deadline: 0, memoryBytes: 64 << 20, stackBytes: 256 << 10, consoleChars: 16_384, maxToolCalls: 200, maxResultChars: 1 << 18, maxCallArgsChars: 1 << 22 };
  const ready: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  for (let index = 0; index < 5; index += 1) {
    const started = performance.now();
    const executor = new CodeExecutor({ rssLimitBytes: RUN_CODE_EXECUTOR_RSS_BYTES, heapMb: RUN_CODE_EXECUTOR_HEAP_MB, niceness: RUN_CODE_EXECUTOR_NICENESS });
    await executor.ready;
    ready.push(performance.now() - started);
    for (const into of [cold, warm, warm, warm]) {
      const runStarted = performance.now();
      await executor.run({ code: 'return 1', toolNames: [], limits: { ...limits, deadline: Date.now() + 30_000 }, callTool: async () => '{}', signal: new AbortController().signal });
      into.push(performance.now() - runStarted);
    }
    executor.kill();
    await executor.exited;
  }
  console.log(`executor fork -> ready:            ${summary(ready)}`);
  console.log(`first run on a fresh executor:     ${summary(cold)}`);
  console.log(`later runs on the same executor:   ${summary(warm)}`);
}

async function main(): Promise<void> {
  console.log(`# run_code: executor processes vs the in-thread sandbox (${new Date().toISOString()}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`);
  console.log('\n## start-up (executor module, no daemon)');
  await startupNumbers();

  const daemon = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/bench/run-code-bench-daemon.ts'), scratch, '60000'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => createInterface({ input: daemon.stdout }).once('line', resolve));
  const pid = daemon.pid as number;
  try {
    console.log('\n## normal run latency through the daemon (HTTP, sequential)');
    for (const tool of TOOLS) {
      await call(url, tool, 'return 1');
      for (const [label, code] of [
        ['return 1', 'return 1'],
        ['one tool call', 'return (await tools.read_file({path: "a.txt"})).content.length'],
      ] as const) {
        const latencies: number[] = [];
        for (let index = 0; index < runs; index += 1) {
          const started = performance.now();
          const result = await call(url, tool, code);
          if (result.is_error) throw new Error(`${tool}: ${result.content}`);
          latencies.push(performance.now() - started);
        }
        console.log(`${tool.padEnd(19)} ${label.padEnd(14)} ${summary(latencies)}`);
      }
    }

    console.log('\n## /healthz while 8 runs run concurrently');
    const idle = await healthzWhile(url, new Promise((resolve) => setTimeout(resolve, 2_000)));
    console.log(`idle daemon                         ${summary(idle)}`);
    const hostile = 'return String(10n ** 250000n).length';
    const wellBehaved = 'const started = Date.now(); while (Date.now() - started < 950); return 1';
    for (const [label, code] of [
      ['8 hostile (bigint to text)', hostile],
      ['8 well-behaved (0.95 s each)', wellBehaved],
    ] as const) {
      for (const tool of TOOLS) {
        const started = performance.now();
        const work = Promise.all(Array.from({ length: 8 }, () => call(url, tool, code)));
        const latencies = await healthzWhile(url, work);
        const results = await work;
        const failures = results.filter((result) => result.is_error).map((result) => String(result.metadata?.['failure'] ?? 'error'));
        const dropped = latencies.failed ? `, ${latencies.failed} probes dropped` : '';
        console.log(`${tool.padEnd(19)} ${label.padEnd(30)} healthz ${summary(latencies)}${dropped}; all 8 done in ${((performance.now() - started) / 1000).toFixed(1)} s; failures: ${failures.join(',') || 'none'}`);
      }
    }

    console.log('\n## daemon RSS: 40 concurrent runs that write 56 MiB and hold it while awaiting a 2 s tool call');
    const hog = 'const kept = []; for (let i = 0; i < 14; i++) kept.push(new Uint8Array(1 << 22).fill(i + 1)); await tools.shell({command: "sleep 2"}); return kept.length';
    for (const tool of TOOLS) {
      const before = rssMb(pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
      const started = performance.now();
      const results = await Promise.all(Array.from({ length: 40 }, () => call(url, tool, hog)));
      clearInterval(sampler);
      const ran = results.filter((result) => !result.is_error).length;
      const busy = results.filter((result) => result.metadata?.['failure'] === 'busy').length;
      console.log(
        `${tool.padEnd(19)} RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)}), after ${rssMb(pid).toFixed(0)} MB; ${ran} ran, ${busy} refused busy, ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    daemon.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
