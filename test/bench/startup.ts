/**
 * Start-up benchmark of the `toolhost` command (prints a markdown table, asserts nothing):
 * `--version`, `list` (built-ins, then with 10 wasm tools), a one-shot `call` of a C wasm tool,
 * `mcp` answering `initialize` plus `tools/list`, and `serve` ready with 10 wasm tools (`/healthz`
 * answers and `/v1/tools` lists all 10), each spawned fresh RUNS times (after one untimed run that
 * warms the transpile and help caches), reported as median, min and max wall time from spawn to exit
 * (to the tools/list reply for mcp, to ready for serve).
 *
 *   node --import tsx test/bench/startup.ts            # the shipped entry, dist/src/cli/bin.js
 *   STARTUP_ENTRY=src node --import tsx test/bench/startup.ts   # the TypeScript sources through tsx
 *
 * Env: STARTUP_RUNS (default 7), STARTUP_ONLY (run only the rows whose label contains this text), STARTUP_ENTRY (`dist`, `src`, or the path of an entry script, e.g. an
 * older checkout's src/cli/bin.mjs for a before/after). Build dist first (`npm run build`).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
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
];

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
} finally {
  rmSync(work, { recursive: true, force: true });
}
const load = loadavg().map((value) => value.toFixed(1)).join(' ');
console.log(`Start-up, entry \`${entry}\`, ${runs} runs each after a warm-up run (warm transpile cache), node ${process.version}, load average ${load}:\n`);
console.log('| command | median | min | max |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
