/**
 * Load-stall bench (prints numbers; exits 1 when the target is missed):
 *   npm run build && node --import tsx test/bench/load-stall.ts
 * Starts the built daemon (`dist/`) with the prebuilt hashenc tool, polls `/healthz` every 10 ms while idle (the peer,
 * same run), then drops large tools into its extensions folder one after the other and keeps polling until each is
 * listed: a 28 MB Go core module (go-yq, run on toolhost's own preview1 host) and the ~18 MB csv2json example (a
 * Python component, which jco transpiles). Prints /healthz p50/p99/max per phase, how long each
 * tool took to appear, and whether a small wasm call answered throughout. Target (issue "the first hour"): /healthz
 * p99 ≤ 50 ms while a 20 MB component loads.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { temporaryDirectory } from '../cli/run-cli.ts';
import { startTestDaemon, type TestDaemon } from '../security/daemon.ts';
import { percentile } from '../security/hostile-load.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const prebuilt = join(import.meta.dirname, '../../extensions/examples/prebuilt');
const workspace = temporaryDirectory('toolhost-bench-stall-');
const extensions = join(workspace.path, 'extensions');
const staging = join(workspace.path, 'staging');
mkdirSync(extensions);
mkdirSync(staging);
for (const file of ['hashenc.wasm', 'hashenc.tool.json']) copyFileSync(join(prebuilt, file), join(extensions, file));

// The component: the csv2json example (Python, componentize-py, ~18 MB), built (or taken from the build's cache) by
// the examples build script.
const built = spawnSync(process.execPath, [join(import.meta.dirname, '../../extensions/examples/build.mjs'), '--only', 'csv2json', '--out', staging], { stdio: 'inherit' });
if (built.status !== 0) throw new Error('building the csv2json example failed');
const component = readFileSync(join(staging, 'csv2json.wasm'));

// An empty transpile/help cache of its own: the drops below are first loads (transpile, compile, help capture, probes).
const daemon = await startTestDaemon({ workspace: workspace.path, args: ['--extensions', extensions, '--cache-dir', join(workspace.path, 'cache')], entry: 'dist' });

const row = (label: string, samples: number[]): string =>
  `| ${label} | ${samples.length} | ${percentile(samples, 0.5).toFixed(2)} | ${percentile(samples, 0.99).toFixed(2)} | ${Math.max(...samples).toFixed(2)} |`;

async function listed(target: TestDaemon, name: string): Promise<boolean> {
  const response = await fetch(`${target.url}/v1/tools`);
  const body = (await response.json()) as { tools: { name: string }[] };
  return body.tools.some((tool) => tool.name === name);
}

/** Polls /healthz every 10 ms (and a small wasm call every 20th poll) until `done` resolves true or `maxMs` passes. */
async function poll(done: () => Promise<boolean>, maxMs: number): Promise<{ health: number[]; wasm: number[]; wasmFailed: number; ms: number }> {
  const health: number[] = [];
  const wasm: number[] = [];
  let wasmFailed = 0;
  const started = performance.now();
  let finished = false;
  while (!finished && performance.now() - started < maxMs) {
    const before = performance.now();
    await fetch(`${daemon.url}/healthz`).then((response) => response.arrayBuffer());
    health.push(performance.now() - before);
    if (health.length % 20 === 0) {
      const callStarted = performance.now();
      const result = await daemon.call('hashenc', { command: 'hex', text: 'ok' }).catch(() => undefined);
      if (result?.content === '6f6b') wasm.push(performance.now() - callStarted);
      else wasmFailed += 1;
      finished = await done();
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { health, wasm, wasmFailed, ms: performance.now() - started };
}

try {
  const idle = await poll(async () => false, 5_000);
  const drops: { label: string; file: string; name: string; source: string }[] = [
    { label: '28 MB Go core module (go-yq)', file: 'go-yq.wasm', name: 'go-yq', source: join(build, 'go-yq.core.wasm') },
    { label: `${(component.length / 1e6).toFixed(0)} MB Python component (csv2json)`, file: 'csv2json.wasm', name: 'csv2json', source: join(staging, 'csv2json.wasm') },
  ];
  const phases: { label: string; result: Awaited<ReturnType<typeof poll>> }[] = [];
  for (const drop of drops) {
    copyFileSync(drop.source, join(extensions, drop.file));
    phases.push({ label: drop.label, result: await poll(() => listed(daemon, drop.name), 600_000) });
  }
  console.log(`load stall: ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the end\n`);
  console.log('| /healthz while … | n | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|');
  console.log(row('idle (peer)', idle.health));
  for (const phase of phases) console.log(row(`${phase.label} loads`, phase.result.health));
  console.log('');
  for (const phase of phases) {
    console.log(`${phase.label}: listed after ${(phase.result.ms / 1000).toFixed(1)} s; hashenc calls meanwhile ${phase.result.wasm.length} ok` +
      ` (p99 ${percentile(phase.result.wasm, 0.99).toFixed(1)} ms), ${phase.result.wasmFailed} failed`);
  }
  const component99 = percentile(phases[1]!.result.health, 0.99);
  const idle99 = percentile(idle.health, 0.99);
  console.log(`\ntarget /healthz p99 ≤ 50 ms while a 20 MB component loads: ${component99 <= 50 ? 'met' : 'NOT met'} (${component99.toFixed(2)} ms; idle ${idle99.toFixed(2)} ms, ratio ${(component99 / idle99).toFixed(1)}×)`);
  if (component99 > 50 || phases.some((phase) => phase.result.wasmFailed > 0)) process.exitCode = 1;
} finally {
  await daemon.stop();
  workspace.remove();
}
