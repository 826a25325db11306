/**
 * One-process-per-call peers (CLI one-shot, wasmtime run, jco run, native): the series runs in a
 * small child node (spawn-series-child.mjs) that times spawnSync to exit and checks every call printed
 * what the program prints, so a peer that silently fails (wrong flags, missing file) cannot pass for
 * a fast one. Also a helper for set-up commands.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { SeriesOptions, Timings } from '../bench-table.ts';
import { childSeries } from './child-series.ts';

export interface SpawnCall {
  command: string;
  args: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Stdout must contain this. */
  expect: string;
}

/** Times `series` spawns of `call`, one at a time; rejects when a call fails. */
export function timeSpawns(call: SpawnCall, series: SeriesOptions): Promise<Timings> {
  return childSeries(process.execPath, [join(import.meta.dirname, 'spawn-series-child.mjs'), JSON.stringify({ ...call, ...series })]);
}

/** Runs a command and returns its stdout (for set-up steps: compile, install); rejects on a non-zero exit. */
export function runCommand(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} exited ${code ?? signal}: ${stderr.trim().slice(-600)}`))));
  });
}
