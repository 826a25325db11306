/**
 * Start-up benchmark of the `toolhost` command (prints a markdown table, asserts nothing):
 * `--version`, `list` (built-ins, then with 10 wasm tools), a one-shot `call` of a C wasm tool,
 * `mcp` answering `initialize` plus `tools/list`, and `serve` ready with 10 wasm tools (`/healthz`
 * answers and `/v1/tools` lists all 10), each spawned fresh RUNS times (after one untimed run that
 * warms the transpile and help caches), reported as median, min and max wall time from spawn to exit
 * (to the tools/list reply for mcp, to ready for serve). Then a one-shot `call` of a 13 MB Go tool
 * (go-chroma, warm caches), and a cold `serve` (an empty cache each run) on a folder with the largest
 * Go fixture (go-yq, 28 MB, which takes minutes to transpile) next to ext-greet: the time until
 * `/healthz` answers, and until ext-greet answers a call (the big file still loading); the daemon is
 * stopped then, not waited for.
 *
 *   node --import tsx test/bench/startup.ts            # the shipped entry, dist/src/cli/bin.js
 *   STARTUP_ENTRY=src node --import tsx test/bench/startup.ts   # the TypeScript sources through tsx
 *
 * Env: STARTUP_RUNS (default 7), STARTUP_COLD_RUNS (cold serve runs, default 3), STARTUP_ONLY (run only the rows whose label contains this text), STARTUP_ENTRY (`dist`, `src`, or the path of an entry script, e.g. an
 * older checkout's src/cli/bin.mjs for a before/after). Build dist first (`npm run build`).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cliCommand, DIST_BIN, PROJECT_ROOT } from '../cli/run-cli.ts';

const runs = Number(process.env['STARTUP_RUNS'] ?? 7);
const requested = process.env['STARTUP_ENTRY'] ?? 'dist';
/** `src`, `dist`, or the path of another toolhost entry script (e.g. an older checkout's, for a before/after). */
const entry = requested === 'src' || requested === 'dist' ? requested : resolve(requested);
if (entry === 'dist' && !existsSync(DIST_BIN)) throw new Error(`${DIST_BIN} is missing: run \`npm run build\` first`);
const fixture = join(PROJECT_ROOT, 'test/fixtures/build/ext-greet.wasm');
if (!existsSync(fixture)) throw new Error(`${fixture} is missing: run \`npm run fixtures\` first`);

const work = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-startup-')));
const extensions = join(work, 'tools');
mkdirSync(extensions);
copyFileSync(fixture, join(extensions, 'ext-greet.wasm'));
/** Ten copies of the fixture under distinct names: ten tools to load, one transpile (same bytes). */
const TEN = 10;
const tenTools = join(work, 'ten-tools');
mkdirSync(tenTools);
for (let index = 1; index <= TEN; index += 1) copyFileSync(fixture, join(tenTools, `greet-${index}.wasm`));
/** The one-shot Go call: go-chroma with a read grant on the workspace, highlighting a small Go file. */
const goTools = join(work, 'go-tools');
mkdirSync(goTools);
copyFileSync(join(PROJECT_ROOT, 'test/fixtures/build/go-chroma.core.wasm'), join(goTools, 'chroma.wasm'));
writeFileSync(join(goTools, 'chroma.policy.json'), JSON.stringify({ fs: [{ host: '.', guest: '/work', mode: 'ro' }] }));
writeFileSync(join(work, 'a.go'), 'package main\nfunc main() {}\n');
/** The cold-serve folder: the largest Go fixture and a small C tool. */
const BIG = 'go-yq.core.wasm';
const bigTools = join(work, 'big-tools');
mkdirSync(bigTools);
copyFileSync(join(PROJECT_ROOT, 'test/fixtures/build', BIG), join(bigTools, 'yq.wasm'));
copyFileSync(fixture, join(bigTools, 'ext-greet.wasm'));
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', TOOLHOST_CACHE_DIR: join(work, 'cache'), XDG_CACHE_HOME: join(work, 'xdg') };
delete env['NODE_OPTIONS'];
const [command, prefix] = entry === 'src' || entry === 'dist' ? cliCommand(entry) : [process.execPath, [entry]];

interface Scenario {
  label: string;
  args: string[];
  /** Run this executable instead of the toolhost entry (the bare-node baseline row). */
  bare?: boolean;
  /** For mcp: JSON-RPC requests written to stdin; timing stops at the reply with id 2. */
  mcp?: boolean;
  /** For serve: timing stops when /healthz answers and /v1/tools lists this many wasm tools; then SIGTERM. */
  serveReadyWith?: number;
}

const scenarios: Scenario[] = [
  { label: '`node -e 0` (baseline: node alone)', args: ['-e', '0'], bare: true },
  { label: '`toolhost --version`', args: ['--version'] },
  { label: '`toolhost list` (built-ins)', args: ['list', '--workspace', work] },
  { label: `\`toolhost list\` (built-ins + ${TEN} wasm tools)`, args: ['list', '--workspace', work, '--extensions', tenTools] },
  { label: '`toolhost call ext-greet` (one-shot C wasm tool)', args: ['call', 'ext-greet', '{"name":"Ada"}', '--workspace', work, '--extensions', extensions] },
  { label: '`toolhost mcp`: initialize + tools/list', args: ['mcp', '--workspace', work, '--extensions', extensions], mcp: true },
  { label: `\`toolhost serve\` ready with ${TEN} wasm tools`, args: ['serve', '--port', '0', '--workspace', work, '--extensions', tenTools], serveReadyWith: TEN },
  {
    label: '`toolhost call chroma` (one-shot 13 MB Go wasm tool)',
    args: ['call', 'chroma', '{"files":["/work/a.go"],"formatter":"noop"}', '--workspace', work, '--extensions', goTools],
  },
];

/**
 * One cold `serve` (a fresh, empty cache) on the big folder: ms from spawn until /healthz answers
 * 200, and until ext-greet answers a call; then SIGTERM.
 */
function coldServeOnce(run: number): Promise<{ health: number; call: number }> {
  return new Promise((resolve, reject) => {
    const cache = join(work, `cold-cache-${run}`);
    const started = performance.now();
    const child = spawn(command, [...prefix, 'serve', '--port', '0', '--workspace', work, '--extensions', bigTools], {
      cwd: work,
      env: { ...env, TOOLHOST_CACHE_DIR: cache },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let measured: { health: number; call: number } | undefined;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url === undefined || measured !== undefined) return;
      measured = { health: NaN, call: NaN };
      void (async () => {
        const health = await fetch(`${url}/healthz`);
        if (health.ok) (measured as { health: number }).health = performance.now() - started;
        const called = await fetch(`${url}/v1/tools/ext-greet/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: { name: 'Ada' } }) });
        const body = (await called.json()) as { content?: string };
        if (called.ok && body.content?.includes('Hello, Ada!')) (measured as { call: number }).call = performance.now() - started;
        const ready = (await fetch(`${url}/readyz`)).status;
        if (ready !== 503) stderr += `\n(bench) /readyz was ${ready} at the ext-greet call: the big file was not still loading\n`;
        child.kill('SIGTERM');
      })().catch(reject);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(cache, { recursive: true, force: true });
      if (code !== 0 || measured === undefined || Number.isNaN(measured.health) || Number.isNaN(measured.call)) {
        reject(new Error(`cold serve exited ${code}\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      if (stderr.includes('(bench)')) process.stderr.write(stderr.slice(stderr.indexOf('(bench)')));
      resolve(measured);
    });
  });
}

/** Polls the daemon at `url` until /healthz answers and /v1/tools lists `count` wasm tools. */
async function serveReady(url: string, count: number): Promise<void> {
  for (;;) {
    try {
      const [health, tools] = await Promise.all([fetch(`${url}/healthz`), fetch(`${url}/v1/tools`)]);
      const listed = (await tools.json()) as { tools?: { source?: string }[] };
      if (health.ok && (listed.tools ?? []).filter((tool) => tool.source === 'wasm').length >= count) return;
    } catch {
      // not accepting connections yet
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const MCP_REQUESTS = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'startup-bench', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((message) => JSON.stringify(message))
  .join('\n');

/** One spawn; resolves with the wall time in ms (spawn to exit, or to the tools/list reply). */
function timeOnce(scenario: Scenario): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(scenario.bare ? process.execPath : command, scenario.bare ? scenario.args : [...prefix, ...scenario.args], { cwd: work, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let answeredAt: number | undefined;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let polling = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (scenario.mcp && answeredAt === undefined && /"id":2[,}]/.test(stdout)) {
        answeredAt = performance.now();
        child.stdin.end();
      }
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (scenario.serveReadyWith !== undefined && url !== undefined && !polling) {
        polling = true;
        void serveReady(url, scenario.serveReadyWith).then(() => {
          answeredAt = performance.now();
          child.kill('SIGTERM');
        });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ended = answeredAt ?? performance.now();
      const waited = scenario.mcp === true || scenario.serveReadyWith !== undefined;
      if (code !== 0 || (waited && answeredAt === undefined)) {
        reject(new Error(`${scenario.args.join(' ')} exited ${code}\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      resolve(ended - started);
    });
    if (scenario.mcp) child.stdin.write(`${MCP_REQUESTS}\n`);
    else child.stdin.end();
  });
}

const median = (sorted: number[]): number => {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};
const ms = (value: number): string => `${Math.round(value)} ms`;

const rows: string[] = [];
try {
  const only = process.env['STARTUP_ONLY'];
  for (const scenario of scenarios.filter((candidate) => only === undefined || candidate.label.includes(only))) {
    await timeOnce(scenario); // warms the transpile cache and the OS file cache
    const times: number[] = [];
    for (let run = 0; run < runs; run += 1) times.push(await timeOnce(scenario));
    times.sort((a, b) => a - b);
    rows.push(`| ${scenario.label} | ${ms(median(times))} | ${ms(times[0] ?? NaN)} | ${ms(times[times.length - 1] ?? NaN)} |`);
  }
  if (only === undefined || 'cold serve'.includes(only) || only.includes('cold')) {
    const coldRuns = Number(process.env['STARTUP_COLD_RUNS'] ?? 3);
    const health: number[] = [];
    const call: number[] = [];
    for (let run = 0; run < coldRuns; run += 1) {
      const measured = await coldServeOnce(run);
      health.push(measured.health);
      call.push(measured.call);
    }
    const size = `${Math.round(statSync(join(bigTools, 'yq.wasm')).size / 1e6)} MB`;
    for (const [label, times] of [
      [`\`toolhost serve\` cold (empty cache) with a ${size} Go component (${BIG}): \`/healthz\` answers`, health],
      [`\`toolhost serve\` cold, same folder: ext-greet answers a call (the ${size} file still loading)`, call],
    ] as const) {
      const sorted = [...times].sort((a, b) => a - b);
      rows.push(`| ${label} | ${ms(median(sorted))} | ${ms(sorted[0] ?? NaN)} | ${ms(sorted[sorted.length - 1] ?? NaN)} |`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const load = loadavg().map((value) => value.toFixed(1)).join(' ');
console.log(`Start-up, entry \`${entry}\`, ${runs} runs each after a warm-up run (warm transpile cache), node ${process.version}, load average ${load}:\n`);
console.log('| command | median | min | max |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
