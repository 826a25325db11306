/**
 * Soak benchmark of the daemon's memory (prints numbers; exits 1 when RSS grew past the target):
 *   npm run fixtures && node --import tsx test/bench/soak-rss.ts
 * Starts a real daemon (`toolhost serve`, a separate process) with one wasm tool (rt-echo), drives
 * SOAK_CLIENTS concurrent HTTP clients for SOAK_SECONDS calling the wasm tool and a built-in
 * (list_dir) in turn, then SOAK_SEQUENTIAL sequential calls, and samples the daemon's RSS
 * (/proc/<pid>/status VmRSS, Linux) before, during and after. Growth = after − before.
 * Env: SOAK_CLIENTS (default 32), SOAK_SECONDS (20), SOAK_SEQUENTIAL (10000), SOAK_SETTLE_SECONDS
 * (idle time before the last sample, 5), SOAK_TARGET_MB (100), SOAK_POOL_SIZE (pool_size, default
 * the daemon's), SOAK_MIX (both, wasm or builtin), SOAK_VERBOSE=1 (copy the daemon's stdout, e.g. --trace-gc, to stderr), SOAK_NODE_ARGS (extra
 * node flags for the daemon, e.g. "--heapsnapshot-signal=SIGUSR2";
 * SOAK_SNAPSHOTS=1 then sends SIGUSR2 before and after so the daemon writes heap snapshots in its cwd).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = join(import.meta.dirname, '../..');
const clients = Number(process.env.SOAK_CLIENTS ?? 32);
const seconds = Number(process.env.SOAK_SECONDS ?? 20);
const sequentialCalls = Number(process.env.SOAK_SEQUENTIAL ?? 10_000);
const settleSeconds = Number(process.env.SOAK_SETTLE_SECONDS ?? 5);
const targetMb = Number(process.env.SOAK_TARGET_MB ?? 100);
const nodeArgs = (process.env.SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean);

const scratch = mkdtempSync(join(tmpdir(), 'toolhost-soak-'));
const extensionsDir = join(scratch, 'extensions');
const workspace = join(scratch, 'workspace');
mkdirSync(extensionsDir);
mkdirSync(workspace);
for (let index = 0; index < 20; index += 1) writeFileSync(join(workspace, `file-${index}.txt`), `line ${index}\n`);
copyFileSync(join(root, 'test/fixtures/build/rt-echo.wasm'), join(extensionsDir, 'rt-echo.wasm'));
const poolArgs = process.env.SOAK_POOL_SIZE ? ['--pool-size', process.env.SOAK_POOL_SIZE] : [];

const daemon = spawn(process.execPath, [...nodeArgs, join(root, 'src/cli/bin.mjs'), 'serve', '--port', '0', '--extensions', extensionsDir, '--workspace', workspace, ...poolArgs], {
  cwd: scratch,
  env: { ...process.env, TOOLHOST_CACHE_DIR: join(scratch, 'cache'), TOOLHOST_LOG_LEVEL: 'warn', NO_COLOR: '1' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const pid = daemon.pid as number;

function rssMb(): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

const url = await new Promise<string>((resolve, reject) => {
  const lines = createInterface({ input: daemon.stdout! });
  lines.on('line', (line) => {
    const found = /listening on (http:\/\/\S+)/.exec(line);
    if (found?.[1]) resolve(found[1]);
    else if (process.env.SOAK_VERBOSE === '1') console.error(`daemon: ${line}`);
  });
  daemon.once('exit', (code) => reject(new Error(`daemon exited with ${code} before listening`)));
});

const tools = (await (await fetch(`${url}/v1/tools`)).json()) as { tools: { name: string }[] };
const wasmTool = tools.tools.find((tool) => tool.name.includes('echo'))?.name;
if (wasmTool === undefined) throw new Error(`no echo tool in ${JSON.stringify(tools.tools.map((tool) => tool.name))}`);

let failures = 0;
let calls = 0;
async function call(name: string, args: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${url}/v1/tools/${name}/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ arguments: args }),
  });
  const result = (await response.json()) as { is_error?: boolean };
  calls += 1;
  if (!response.ok || result.is_error) failures += 1;
}
// SOAK_MIX=wasm or builtin sends only that kind of call (to tell which path holds memory).
const mix = process.env.SOAK_MIX ?? 'both';
const callWasm = () => (mix === 'builtin' ? callBuiltinOnly() : call(wasmTool, {}));
const callBuiltin = () => (mix === 'wasm' ? call(wasmTool, {}) : callBuiltinOnly());
const callBuiltinOnly = () => call('list_dir', { path: '.' });

const samples: { phase: string; rss: number }[] = [];
const sample = (phase: string) => samples.push({ phase, rss: rssMb() });
const snapshot = async (label: string) => {
  if (process.env.SOAK_SNAPSHOTS !== '1') return;
  daemon.kill('SIGUSR2');
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  console.log(`heap snapshot requested (${label}); files in ${scratch}`);
};

// Warm-up: the workers booted and the tool's modules handed over, so "before" is a serving daemon.
for (let index = 0; index < 200; index += 1) await (index % 2 ? callBuiltin() : callWasm());
await new Promise((resolve) => setTimeout(resolve, 1_000));
sample('before');
await snapshot('before');

const sampler = setInterval(() => sample('load'), 250);
const deadline = performance.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: clients }, async (_, client) => {
    for (let turn = client; performance.now() < deadline; turn += 1) await (turn % 2 ? callBuiltin() : callWasm());
  }),
);
const concurrentCalls = calls;
sample('after concurrent');
for (let index = 0; index < sequentialCalls; index += 1) await (index % 2 ? callBuiltin() : callWasm());
clearInterval(sampler);
sample('after sequential');
await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
sample('after');
await snapshot('after');

const value = (phase: string) => samples.find((entry) => entry.phase === phase)?.rss ?? Number.NaN;
const before = value('before');
const after = value('after');
const peak = Math.max(...samples.map((entry) => entry.rss));
const mb = (number: number) => `${number.toFixed(1)} MB`;
console.log(`daemon pid ${pid}: ${clients} clients × ${seconds} s (${concurrentCalls} calls) + ${sequentialCalls} sequential calls, ${failures} failed`);
console.log(`RSS before ${mb(before)}  peak ${mb(peak)}  after concurrent ${mb(value('after concurrent'))}  after sequential ${mb(value('after sequential'))}  after ${settleSeconds} s idle ${mb(after)}`);
console.log(`growth ${mb(after - before)} (target < ${targetMb} MB)`);

daemon.kill('SIGTERM');
await new Promise((resolve) => daemon.once('exit', resolve));
if (process.env.SOAK_SNAPSHOTS !== '1') rmSync(scratch, { recursive: true, force: true });
process.exitCode = after - before < targetMb && failures === 0 ? 0 : 1;
