/**
 * What a tool costs per language: the five examples of extensions/examples (one per language), each
 * loaded and called through the host in-process (`createHost` from src/index.ts, worker pool of 2),
 * printed as a markdown table for extensions/README.md. Prints numbers, asserts nothing but that each
 * call answers without error (a benchmark of failing calls would measure the wrong thing).
 *
 *   node --import tsx test/bench/languages.ts [--examples DIR] [--calls N] [--runs N] [--only a,b]
 *
 * --examples: a folder with the built examples (default: built into a temp folder with
 * `node extensions/examples/build.mjs --out`, which reuses its own build cache). Every sample runs in a
 * fresh Node process (compiled modules are cached per process), so for each example and run:
 * - cold load: `createHost` until the tool is listed, with an empty transpile cache: jco transpile,
 *   V8 compile and help capture (the tool run with --help-json / --help in the sandbox);
 * - warm load: the same in a new process on the cache the cold sample filled;
 * - first call: the first `callTool` after load (a worker compiles the module on first use);
 * - per call: p50 and p90 of `--calls` sequential calls after 5 warm-up calls.
 * With --runs > 1 each cell is the median over the runs, with the range (min–max) for the loads and p50.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '../..');

interface Example {
  name: string;
  language: string;
  /** Arguments of the measured call: each example's "try it" call from extensions/examples/README.md. */
  args: Record<string, unknown>;
}

const EXAMPLES: readonly Example[] = [
  { name: 'hashenc', language: 'C (clang + wasi-libc, preview1 adapter)', args: { command: 'sha256', text: 'abc' } },
  { name: 'textstats', language: 'Go (`GOOS=wasip1`, adapter added by toolhost)', args: { file: ['.'], top: 3 } },
  { name: 'jsonq', language: 'Rust (`wasm32-wasip2`)', args: { stdin: '{"a": [1, 2]}', path: '.a[-1]' } },
  { name: 'csv2json', language: 'Python (componentize-py)', args: { stdin: 'a,b\n1,2\n', types: true } },
  { name: 'units', language: 'JavaScript (ComponentizeJS)', args: { value: '-40', from: 'C', to: 'F' } },
];

/** Files textstats reads from its grant (workspace `data/`, guest `/data`). */
const DATA_FILES: Record<string, string> = {
  'notes.txt': 'the quick brown fox\njumps over the lazy dog\n',
  'docs/more.md': '# More\n\nThe fox and the dog are friends.\n',
};

interface Sample {
  loadMs: number;
  firstCallMs?: number;
  p50Ms?: number;
  p90Ms?: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 0.5);
}

/** One sample in this (child) process: a host on a folder holding only this example. */
async function sample(example: Example, examplesDir: string, cacheDir: string, calls: number, loadOnly: boolean): Promise<Sample> {
  const { createHost, wasmExtensions } = await import('../../src/index.ts');
  const scratch = mkdtempSync(join(tmpdir(), 'toolhost-bench-lang-'));
  try {
    const extensionsDir = join(scratch, 'extensions');
    mkdirSync(extensionsDir);
    for (const suffix of ['.wasm', '.tool.json', '.policy.json']) {
      const file = join(examplesDir, `${example.name}${suffix}`);
      if (existsSync(file)) copyFileSync(file, join(extensionsDir, `${example.name}${suffix}`));
    }
    for (const [path, text] of Object.entries(DATA_FILES)) {
      mkdirSync(join(scratch, 'data', path, '..'), { recursive: true });
      writeFileSync(join(scratch, 'data', path), text);
    }
    const loadStarted = performance.now();
    const host = await createHost(
      { workspaceRoot: scratch, extensionsDir, cacheDir, builtins: false, limits: { poolSize: 2 } },
      { extensions: wasmExtensions() },
    );
    const loadMs = performance.now() - loadStarted;
    try {
      if (!host.listTools().some((tool) => tool.name === example.name)) {
        throw new Error(`${example.name} did not load: ${JSON.stringify(host.loadFailures())}`);
      }
      if (loadOnly) return { loadMs };
      const call = async (): Promise<number> => {
        const started = performance.now();
        const result = await host.callTool(example.name, example.args);
        const elapsed = performance.now() - started;
        if (result.is_error) throw new Error(`${example.name} answered with an error: ${result.content}`);
        return elapsed;
      };
      const firstCallMs = await call();
      for (let index = 0; index < 5; index += 1) await call();
      const times: number[] = [];
      for (let index = 0; index < calls; index += 1) times.push(await call());
      times.sort((a, b) => a - b);
      return { loadMs, firstCallMs, p50Ms: percentile(times, 0.5), p90Ms: percentile(times, 0.9) };
    } finally {
      await host.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Runs one sample in a fresh Node process and reads its JSON line. */
function runChild(example: Example, examplesDir: string, cacheDir: string, calls: number, loadOnly: boolean): Sample {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--sample', example.name, '--examples', examplesDir, '--cache', cacheDir, '--calls', String(calls)];
  if (loadOnly) args.push('--load-only');
  const output = execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 });
  const line = output.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as Sample;
}

const fmtMs = (value: number | undefined): string => {
  if (value === undefined || Number.isNaN(value)) return 'n/a';
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  return value >= 10 ? `${value.toFixed(0)} ms` : `${value.toFixed(2)} ms`;
};

const fmtSize = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.round(bytes / 1024)} KiB`);

function buildExamples(): string {
  const out = mkdtempSync(join(tmpdir(), 'toolhost-bench-examples-'));
  console.error(`building the examples into ${out} (node extensions/examples/build.mjs --out ${out})`);
  execFileSync(process.execPath, [join(root, 'extensions/examples/build.mjs'), '--out', out], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      examples: { type: 'string' },
      calls: { type: 'string', default: '100' },
      runs: { type: 'string', default: '1' },
      only: { type: 'string' },
      sample: { type: 'string' },
      cache: { type: 'string' },
      'load-only': { type: 'boolean', default: false },
    },
  });
  const calls = Number(values.calls);
  if (values.sample !== undefined) {
    const example = EXAMPLES.find((entry) => entry.name === values.sample);
    if (example === undefined || values.examples === undefined || values.cache === undefined) throw new Error('--sample needs a known example, --examples and --cache');
    console.log(JSON.stringify(await sample(example, values.examples, values.cache, calls, values['load-only'])));
    return;
  }
  const runs = Number(values.runs);
  const only = values.only?.split(',');
  const examples = EXAMPLES.filter((example) => only === undefined || only.includes(example.name));
  const examplesDir = values.examples ?? buildExamples();
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  console.log(
    `Node ${process.version}, ${cpus().length} × ${cpu}, load average at start ${loadavg().map((value) => value.toFixed(2)).join(' ')}; ` +
      `pool of 2 workers; ${calls} sequential calls after 5 warm-up calls; ${runs === 1 ? 'one run' : `median of ${runs} runs`}.\n`,
  );
  const rows: string[] = [];
  for (const example of examples) {
    const cold: Sample[] = [];
    const warm: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const cacheDir = mkdtempSync(join(tmpdir(), 'toolhost-bench-cache-'));
      try {
        cold.push(runChild(example, examplesDir, cacheDir, calls, false));
        warm.push(runChild(example, examplesDir, cacheDir, calls, true).loadMs);
      } finally {
        rmSync(cacheDir, { recursive: true, force: true });
      }
    }
    const pick = (key: keyof Sample): number => median(cold.map((entry) => entry[key] ?? Number.NaN));
    /** The median, and with several runs the range too: the spread says how much to trust a cell. */
    const spread = (values: readonly number[]): string =>
      values.length < 2 ? fmtMs(median(values)) : `${fmtMs(median(values))} (${fmtMs(Math.min(...values))}–${fmtMs(Math.max(...values))})`;
    const all = (key: keyof Sample): number[] => cold.map((entry) => entry[key] ?? Number.NaN);
    const size = statSync(join(examplesDir, `${example.name}.wasm`)).size;
    rows.push(
      `| ${example.language} | \`${example.name}\` | ${fmtSize(size)} | ${spread(all('loadMs'))} | ${spread(warm)} | ${fmtMs(pick('firstCallMs'))} | ${spread(all('p50Ms'))} | ${fmtMs(pick('p90Ms'))} |`,
    );
    console.error(`done: ${example.name}`);
  }
  console.log('| language | example | `.wasm` size | cold load (empty cache) | warm load (cached) | first call | per call, p50 | per call, p90 |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  if (values.examples === undefined) rmSync(examplesDir, { recursive: true, force: true });
}

await main();
