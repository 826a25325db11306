/**
 * What tracing costs per call (prints numbers, asserts nothing): two real `toolhost serve` daemons
 * (src/ through tsx, same extensions folder), one without telemetry and one exporting traces and
 * metrics over OTLP/HTTP to a real receiver (Jaeger all-in-one when .ci/install-otel-receiver.sh has
 * built it, else a local OTLP sink that answers 200), measured in alternating batches so both see the
 * same machine load. Per tool (a built-in, `read_file` of a small file, and the wasm `ext-greet`):
 * - p50 / p90 of sequential `POST /v1/tools/{name}/call` over one keep-alive connection;
 * - calls/s with BENCH_CONCURRENCY callers (default 8) for BENCH_SECONDS per batch (default 2).
 *
 *   node --import tsx test/bench/telemetry.ts
 *
 * Env: BENCH_CALLS (sequential calls per batch, default 200), BENCH_ROUNDS (default 4),
 * BENCH_RECEIVER=sink (the local sink even when Jaeger is there: the exporter's cost without the
 * receiver's own CPU on the same cores), BENCH_BASELINE_BIN (another checkout's `src/cli/bin.mjs`,
 * e.g. the commit before telemetry: a third daemon, `baseline`, shows what "off" costs against it).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { cliEnvironment, PROJECT_ROOT, temporaryDirectory } from '../cli/run-cli.ts';
import { startDaemon, type DaemonProcess } from '../server/daemon-process.ts';
import { jaegerBinary, startJaeger, type Jaeger } from '../telemetry/jaeger.ts';
import { startOtlpSink, type OtlpSink } from '../telemetry/otlp-sink.ts';

const calls = Number(process.env['BENCH_CALLS'] ?? 200);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 4);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 8);
const seconds = Number(process.env['BENCH_SECONDS'] ?? 2);

const TOOLS: { name: string; args: Record<string, unknown> }[] = [
  { name: 'read_file', args: { path: 'small.txt' } },
  { name: 'ext-greet', args: { name: 'bench' } },
];

function post(agent: Agent, base: URL, path: string, body: unknown): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: base.hostname, port: base.port, method: 'POST', path, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve(response.statusCode) : reject(new Error(`status ${response.statusCode}`))));
    });
    req.on('error', reject);
    req.end(data);
  });
}

interface Samples {
  latencies: number[];
  completed: number;
  elapsedMs: number;
}

async function sequential(daemon: DaemonProcess, tool: (typeof TOOLS)[number], samples: Samples): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(daemon.url);
  for (let index = 0; index < calls; index += 1) {
    const started = performance.now();
    await post(agent, base, `/v1/tools/${tool.name}/call`, { arguments: tool.args });
    samples.latencies.push(performance.now() - started);
  }
  agent.destroy();
}

async function concurrent(daemon: DaemonProcess, tool: (typeof TOOLS)[number], samples: Samples): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const base = new URL(daemon.url);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let completed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await post(agent, base, `/v1/tools/${tool.name}/call`, { arguments: tool.args });
        completed += 1;
      }
    }),
  );
  samples.completed += completed;
  samples.elapsedMs += performance.now() - started;
  agent.destroy();
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

const workspace = temporaryDirectory('toolhost-bench-telemetry-');
const extensions = join(workspace.path, 'ext');
mkdirSync(extensions);
copyFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'ext-greet.wasm'), join(extensions, 'ext-greet.wasm'));
writeFileSync(join(workspace.path, 'small.txt'), 'a small file\n'.repeat(10));

let receiver: { kind: string; url: string; stop(): Promise<void> };
const binary = (() => {
  try {
    return jaegerBinary();
  } catch {
    return undefined;
  }
})();
if (binary !== undefined && process.env['BENCH_RECEIVER'] !== 'sink') {
  const jaeger: Jaeger = await startJaeger(binary);
  receiver = { kind: 'Jaeger all-in-one 1.76.0 (OTLP/HTTP)', url: jaeger.otlpUrl, stop: () => jaeger.stop() };
} else {
  const sink: OtlpSink = await startOtlpSink();
  receiver = { kind: 'local OTLP/HTTP sink (200 to every POST)', url: sink.url, stop: () => sink.close() };
}

/** `serve` from another checkout's entry (BENCH_BASELINE_BIN), the way startDaemon starts this one. */
async function startBaseline(bin: string, args: readonly string[]): Promise<DaemonProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { cwd: workspace.path, env: cliEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let stdout = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^toolhost listening on (http:\/\/\S+) /m.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`the baseline exited early: ${stdout}`)));
  });
  return {
    child,
    pid: child.pid as number,
    url,
    stderr: () => '',
    exited,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const serveArgs = ['--extensions', extensions, '--workspace', workspace.path];
const baselineBin = process.env['BENCH_BASELINE_BIN'];
const daemons: { mode: string; daemon: DaemonProcess }[] = [
  ...(baselineBin !== undefined ? [{ mode: 'baseline', daemon: await startBaseline(baselineBin, serveArgs) }] : []),
  { mode: 'telemetry off', daemon: await startDaemon(serveArgs, { cwd: workspace.path }) },
  { mode: 'telemetry on', daemon: await startDaemon(serveArgs, { cwd: workspace.path, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } }) },
];
try {
  // Wait for the wasm tool, then warm both daemons (worker pool, JIT, the exporter's connection).
  for (const { daemon } of daemons) {
    for (;;) {
      const response = await fetch(`${daemon.url}/readyz`);
      if (response.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const agent = new Agent({ keepAlive: true });
    for (const tool of TOOLS) for (let index = 0; index < 50; index += 1) await post(agent, new URL(daemon.url), `/v1/tools/${tool.name}/call`, { arguments: tool.args });
    agent.destroy();
  }
  const results = new Map<string, Samples>();
  const loadBefore = loadavg()[0] ?? Number.NaN;
  for (let round = 0; round < rounds; round += 1) {
    for (const tool of TOOLS) {
      // Alternate the order, so no daemon always follows the same one.
      const order = round % 2 === 0 ? daemons : [...daemons].reverse();
      for (const { mode, daemon } of order) {
        const key = `${mode}\u0000${tool.name}`;
        const samples = results.get(key) ?? { latencies: [], completed: 0, elapsedMs: 0 };
        results.set(key, samples);
        await sequential(daemon, tool, samples);
        await concurrent(daemon, tool, samples);
      }
    }
  }
  console.log(`\nTracing cost per call: ${rounds} rounds × ${calls} sequential calls and ${seconds} s at ${concurrency} concurrent callers per daemon and tool; receiver: ${receiver.kind}; load average ${loadBefore.toFixed(2)} → ${(loadavg()[0] ?? Number.NaN).toFixed(2)}\n`);
  console.log('| tool | telemetry | HTTP p50 ms | HTTP p90 ms | calls/s (concurrent) |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const tool of TOOLS) {
    for (const { mode } of daemons) {
      const samples = results.get(`${mode}\u0000${tool.name}`) as Samples;
      console.log(`| ${tool.name} | ${mode.replace('telemetry ', '')} | ${percentile(samples.latencies, 0.5).toFixed(3)} | ${percentile(samples.latencies, 0.9).toFixed(3)} | ${((samples.completed / samples.elapsedMs) * 1000).toFixed(0)} |`);
    }
  }
} finally {
  for (const { daemon } of daemons) await daemon.stop();
  await receiver.stop();
  workspace.remove();
}
