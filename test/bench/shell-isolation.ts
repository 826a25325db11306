/**
 * Benchmark of the shell's per-call isolation cost (prints numbers, asserts nothing):
 *   node --import tsx test/bench/shell-isolation.ts
 * Runs `true` through the shell tool BENCH_RUNS times (default 50) under each isolation — bubblewrap's
 * namespaces with the per-command cgroup, util-linux's PID namespace, and the plain process group —
 * interleaved so both see the same machine load, after a few warm-up calls, and prints p50/p90/max
 * of the call's wall time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createShellTool } from '../../builtins/shell.ts';
import { PROCESS_GROUP_PLAN, probeProcessSandbox, processSandbox, type ProcessSandboxPlan } from '../../builtins/internal/process-sandbox.ts';
import { callTool, createToolContext } from '../builtins/helpers.ts';

const runs = Number(process.env['BENCH_RUNS'] ?? 50);
const WARM_UP_RUNS = 5;

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(2)} ms  p90 ${percentile(sorted, 0.9).toFixed(2)} ms  max ${(sorted.at(-1) ?? Number.NaN).toFixed(2)} ms`;
}

const workspace = mkdtempSync(join(tmpdir(), 'toolhost-bench-shell-'));
try {
  const namespacePlan = await processSandbox();
  const unsharePlan = await probeProcessSandbox({ bwrap: '' });
  const plans: Record<string, ProcessSandboxPlan> = { [namespacePlan.isolation]: namespacePlan, [unsharePlan.isolation]: unsharePlan, 'process-group': PROCESS_GROUP_PLAN };
  const tools = Object.entries(plans).map(([name, plan]) => ({ name, tool: createShellTool({ sandbox: async () => plan }), samples: [] as number[] }));
  if (namespacePlan.isolation !== 'namespaces') console.log(`no bubblewrap sandbox on this host: ${namespacePlan.reason ?? ''}`);
  const context = createToolContext(workspace);
  for (let index = 0; index < WARM_UP_RUNS + runs; index++) {
    for (const entry of tools) {
      const started = performance.now();
      const result = await callTool(entry.tool, { command: 'true' }, context);
      const elapsed = performance.now() - started;
      if (result.is_error) throw new Error(`${entry.name}: ${result.content}`);
      if (index >= WARM_UP_RUNS) entry.samples.push(elapsed);
    }
  }
  console.log(`shell \`true\`, ${runs} calls each (after ${WARM_UP_RUNS} warm-up calls):`);
  for (const entry of tools) console.log(`  ${entry.name.padEnd(14)} ${summary(entry.samples)}`);
  const plain = tools.find((entry) => entry.name === 'process-group');
  for (const isolated of tools) {
    if (plain === undefined || isolated === plain) continue;
    const added = percentile([...isolated.samples].sort((a, b) => a - b), 0.5) - percentile([...plain.samples].sort((a, b) => a - b), 0.5);
    console.log(`  added by ${isolated.name} at p50: ${added.toFixed(2)} ms`);
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
