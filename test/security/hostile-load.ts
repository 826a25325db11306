/**
 * Eight hostile calls at once against a real daemon — run_code doing native work QuickJS cannot
 * interrupt, shell commands spinning on the CPU, dispatch bodies built to make a text scanner rescan —
 * kept going for a while, with `/healthz` polled and a normal wasm tool called meanwhile. Shared by
 * the liveness test (generous bound, CI-safe) and the liveness bench (p50/p99, the target).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

/** Keeps the 8 hostile calls going against `url` until `until` (epoch ms); returns how many of each were sent. */
export async function sendHostileCalls(url: string, until: number): Promise<HostileLoadReport['hostile']> {
  const hostile = { run_code: 0, shell: 0, dispatch: 0 };
  const post = (path: string, body: unknown): Promise<unknown> =>
    fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((response) => response.arrayBuffer());
  const dispatchBody = JSON.stringify({ text: UNCLOSED_BLOCKS });
  const sendHostile = async (kind: keyof typeof hostile): Promise<void> => {
    while (Date.now() < until) {
      hostile[kind] += 1;
      try {
        if (kind === 'run_code') await post('/v1/tools/run_code/call', { arguments: { code: NATIVE_WORK } });
        else if (kind === 'shell') await post('/v1/tools/shell/call', { arguments: { command: 'while :; do :; done', timeout_ms: Math.max(1000, until - Date.now()) } });
        else await fetch(`${url}/v1/dispatch?provider=text`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: dispatchBody }).then((response) => response.arrayBuffer());
      } catch {
        // A refused or failed hostile call is fine: the point is the daemon's liveness.
      }
    }
  };
  // HOSTILE_ONLY=run_code|shell|dispatch keeps one kind (eight of it), to tell which one costs the daemon what.
  const only = process.env['HOSTILE_ONLY'] as keyof typeof hostile | undefined;
  const kinds = only !== undefined && only in hostile ? Array.from({ length: 8 }, () => only) : (['run_code', 'run_code', 'run_code', 'shell', 'shell', 'shell', 'dispatch', 'dispatch'] as const);
  await Promise.all(kinds.map((kind) => sendHostile(kind)));
  return hostile;
}

/**
 * Runs the hostile calls from a separate process (so the probes below measure the daemon, not this
 * process's own event loop), and meanwhile polls `/healthz` and calls a normal wasm tool.
 */
export async function runHostileLoad(daemon: TestDaemon, options: { durationMs: number; wasmTool: string; wasmArgs: Record<string, unknown>; expect: string }): Promise<HostileLoadReport> {
  const until = Date.now() + options.durationMs + 500;
  const attacker = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./hostile-client.ts', import.meta.url)), daemon.url, String(until)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let attackerOutput = '';
  attacker.stdout?.setEncoding('utf8').on('data', (chunk: string) => (attackerOutput += chunk));
  const attackerDone = new Promise<void>((resolve) => attacker.on('close', () => resolve()));

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
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await Promise.all([probeHealth(), callWasm()]);
  await attackerDone;
  const hostile = JSON.parse(/HOSTILE (.*)/.exec(attackerOutput)?.[1] ?? '{"run_code":0,"shell":0,"dispatch":0}') as HostileLoadReport['hostile'];
  return { health, wasmCalls, hostile };
}

export function percentile(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}
