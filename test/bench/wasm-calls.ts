/**
 * `npm run bench`: one markdown table of the ways to run the same small C program
 * (test/fixtures/c/rt-echo.c), measured side by side in one run: toolhost in-process, through its
 * worker pool, over HTTP and MCP from its daemon and as a one-shot CLI; the wasmtime CLI and
 * wasmtime embedded; node:wasi; `jco run`; and the native binary. Prints numbers, asserts nothing.
 *
 * Needs `npm run fixtures` and `npm run build` (the daemon and CLI rows run the shipped dist/).
 * Missing peers are installed into ~/.cache/toolhost-bench or printed as not available.
 *
 * Env: BENCH_SCALE (calls and time caps ×, default 1 ≈ 3 minutes on 2 cores), BENCH_CONCURRENCY
 * (callers/connections of the concurrent rows, default 16), BENCH_ONLY (comma-separated groups:
 * runtime, daemon, cli, wasmtime, node-wasi, jco, native), BENCH_PER_TOOL_CONCURRENCY,
 * BENCH_DAEMON_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"), BENCH_PEERS_DIR,
 * BENCH_INSTALL_PEERS=0.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMeasured, renderTable, type BenchRow } from './bench-table.ts';
import { benchContext, type BenchContext } from './peers/context.ts';
import { measureJcoRun } from './peers/jco-run.ts';
import { measureNative } from './peers/native.ts';
import { measureNodeWasi } from './peers/node-wasi.ts';
import { measureToolhostCli } from './peers/toolhost-cli.ts';
import { measureToolhostDaemon } from './peers/toolhost-daemon.ts';
import { measureToolhostRuntime } from './peers/toolhost-runtime.ts';
import { measureWasmtime, WASMTIME_EMBEDDED_PATH } from './peers/wasmtime.ts';

const POOL_PATH = 'toolhost worker pool, sequential';

/** Row groups in table order; each returns its rows or says why they are not available. */
const GROUPS: [string, (context: BenchContext) => Promise<BenchRow | BenchRow[]>][] = [
  ['runtime', measureToolhostRuntime],
  ['daemon', measureToolhostDaemon],
  ['cli', measureToolhostCli],
  ['wasmtime', measureWasmtime],
  ['node-wasi', measureNodeWasi],
  ['jco', measureJcoRun],
  ['native', measureNative],
];

const scratch = mkdtempSync(join(tmpdir(), 'toolhost-bench-'));
const context = benchContext(scratch);
for (const file of [context.componentFile, context.coreFile]) {
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run fixtures\` first`);
}
const only = process.env['BENCH_ONLY']?.split(',').map((name) => name.trim());
const loadBefore = loadavg()[0] ?? Number.NaN;
const started = performance.now();
const rows: BenchRow[] = [];
try {
  for (const [name, measure] of GROUPS) {
    if (only && !only.includes(name)) continue;
    const groupStarted = performance.now();
    try {
      rows.push(...[await measure(context)].flat());
    } catch (error) {
      rows.push({ path: name, unavailable: error instanceof Error ? error.message.slice(0, 300) : String(error) });
    }
    process.stderr.write(`bench: ${name} done in ${((performance.now() - groupStarted) / 1000).toFixed(1)} s\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const embedded = rows.find((row) => row.path === WASMTIME_EMBEDDED_PATH);
const reference = embedded && isMeasured(embedded) ? WASMTIME_EMBEDDED_PATH : POOL_PATH;
console.log(
  `rt-echo (test/fixtures/c/rt-echo.c, no arguments) on ${availableParallelism()} cores, Node ${process.version}; ` +
    `load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? Number.NaN).toFixed(1)} after; ${((performance.now() - started) / 1000).toFixed(0)} s.`,
);
console.log(`Ratios are against "${reference}"${reference === WASMTIME_EMBEDDED_PATH ? ' (the engine-level reference)' : ' (wasmtime embedded is not available)'}.\n`);
console.log(renderTable(rows, reference));
