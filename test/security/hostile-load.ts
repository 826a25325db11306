/**
 * Eight hostile calls at once against a real daemon — run_code doing native work QuickJS cannot
 * interrupt, shell commands spinning on the CPU, dispatch bodies built to make a text scanner rescan —
 * kept going for a while, with `/healthz` polled and a normal wasm tool called meanwhile. Shared by
 * the liveness test (generous bound, CI-safe) and the liveness bench (p50/p99, the target).
 */
import type { TestDaemon } from './daemon.ts';

export interface HostileLoadReport {
  /** Milliseconds each `/healthz` took, in order. */
  health: number[];
  /** Each normal wasm call: its latency and whether it answered as expected. */
  wasmCalls: { ms: number; ok: boolean; detail: string }[];
  /** How many hostile calls were sent, by kind. */
  hostile: Record<'run_code' | 'shell' | 'dispatch', number>;
}

const NATIVE_WORK = 'for (;;) { String(10n ** 200000n); }';
/** About 900 KB of `<tool_call>` blocks whose JSON never closes (under the 1 MiB body limit). */
const UNCLOSED_BLOCKS = '<tool_call>{"name": "read_file", "arguments": {"path": "'.repeat(16_000);

export async function runHostileLoad(daemon: TestDaemon, options: { durationMs: number; wasmTool: string; wasmArgs: Record<string, unknown>; expect: string }): Promise<HostileLoadReport> {
  const until = Date.now() + options.durationMs;
  const hostile = { run_code: 0, shell: 0, dispatch: 0 };
  const sendHostile = async (kind: keyof typeof hostile): Promise<void> => {
    while (Date.now() < until) {
      hostile[kind] += 1;
      try {
        if (kind === 'run_code') await daemon.call('run_code', { code: NATIVE_WORK });
        else if (kind === 'shell') await daemon.call('shell', { command: 'while :; do :; done', timeout_ms: Math.max(1000, until - Date.now()) });
        else {
          await fetch(`${daemon.url}/v1/dispatch?provider=text`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: UNCLOSED_BLOCKS }) }).then((response) => response.arrayBuffer());
        }
      } catch {
        // A refused or failed hostile call is fine: the point is the daemon's liveness.
      }
    }
  };
  const attackers = [...(['run_code', 'run_code', 'run_code', 'shell', 'shell', 'shell', 'dispatch', 'dispatch'] as const)].map((kind) => sendHostile(kind));

  const health: number[] = [];
  const probeHealth = async (): Promise<void> => {
    while (Date.now() < until) {
      const started = performance.now();
      await fetch(`${daemon.url}/healthz`).then((response) => response.arrayBuffer());
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const wasmCalls: HostileLoadReport['wasmCalls'] = [];
  const callWasm = async (): Promise<void> => {
    while (Date.now() < until) {
      const started = performance.now();
      try {
        const result = await daemon.call(options.wasmTool, options.wasmArgs);
        wasmCalls.push({ ms: performance.now() - started, ok: !result.is_error && result.content.includes(options.expect), detail: result.content.slice(0, 200) });
      } catch (error) {
        wasmCalls.push({ ms: performance.now() - started, ok: false, detail: String(error) });
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  // Let the hostile calls get going before measuring.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await Promise.all([probeHealth(), callWasm()]);
  await Promise.all(attackers);
  return { health, wasmCalls, hostile };
}

export function percentile(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}
