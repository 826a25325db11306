/**
 * The fleet's numbers (prints them, asserts nothing), all in one run on this machine:
 * 1. Throughput: calls/s and wall p50/p99 of `POST /v1/tools/list_dir/call` through HAProxy, for
 *    1 replica vs 3 replicas (each a real `toolhost serve` from dist/, shared state in one real
 *    redis-server, a quota on the tool so every call passes the Redis-backed gate: its acquire
 *    script and its release script), plus 1 replica with state in memory (no Redis) as the baseline.
 *    BENCH_CLIENTS concurrent keep-alive clients for BENCH_SECONDS each, after a warm-up.
 * 2. The quota gate alone, in this process: admit + release of a call under a quota, in memory vs in
 *    Redis (loopback), sequentially (the per-call overhead a call pays) — per_minute only, and
 *    per_minute + concurrency (a slot lease: two round trips).
 * 3. Memory: each replica's RSS (VmRSS) idle after start and after the load.
 *
 *   npm run build && node --import tsx test/bench/fleet.ts
 *
 * Env: BENCH_CLIENTS (default 16), BENCH_SECONDS (default 8), BENCH_GATE_CALLS (default 3000).
 * On a machine with fewer cores than replicas, the replicas share cores: the ratio says how much a
 * fleet on ONE machine gains, not what N machines would.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { QuotaGate } from '../../src/quotas/index.ts';
import { redisQuotaSlots } from '../../src/quotas/redis-limiter.ts';
import { createRedisChannels } from '../../src/state/channels.ts';
import { openRedisConnection } from '../../src/state/redis-connection.ts';
import { residentBytesOf, startDaemon, type DaemonProcess } from '../server/daemon-process.ts';
import { startBalancer, startRedis, type Balancer, type RedisServer } from '../fleet/harness.ts';

const clients = Number(process.env['BENCH_CLIENTS'] ?? 16);
const seconds = Number(process.env['BENCH_SECONDS'] ?? 8);
const gateCalls = Number(process.env['BENCH_GATE_CALLS'] ?? 3000);

const folder = mkdtempSync(join(tmpdir(), 'toolhost-bench-fleet-'));
for (let index = 0; index < 20; index += 1) writeFileSync(join(folder, `file-${index}.txt`), 'x');
const config = join(folder, 'toolhost.json');
// Limits far above what the run reaches: every call pays the gate, none is refused.
writeFileSync(config, JSON.stringify({ quotas: { list_dir: { per_minute: 100_000_000, concurrency: 10_000 } } }));

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

function post(agent: Agent, url: URL, path: string, body: unknown): Promise<string> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: url.hostname, port: url.port, method: 'POST', path, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve(text) : reject(new Error(`HTTP ${response.statusCode}: ${text.slice(0, 200)}`))));
    });
    req.on('error', reject);
    req.end(data);
  });
}

interface LoadResult {
  callsPerSecond: number;
  p50: number;
  p99: number;
  calls: number;
  errors: number;
}

/** `clients` callers in a loop for `durationMs`, through `target`. */
async function load(target: string, durationMs: number): Promise<LoadResult> {
  const url = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const at = performance.now();
        try {
          const text = await post(agent, url, '/v1/tools/list_dir/call', { arguments: { path: '.' } });
          if (!text.includes('"is_error":false')) errors += 1;
        } catch {
          errors += 1;
        }
        latencies.push(performance.now() - at);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { callsPerSecond: latencies.length / elapsed, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), calls: latencies.length, errors };
}

async function replicas(count: number, redis: RedisServer | undefined): Promise<DaemonProcess[]> {
  const env = { ...process.env, ...(redis ? { TOOLHOST_REDIS_URL: redis.url } : {}) };
  return Promise.all(Array.from({ length: count }, () => startDaemon(['--config', config, '--workspace', folder], { cwd: folder, env, entry: 'dist' })));
}

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

interface Setup {
  name: string;
  count: number;
  redis: boolean;
}

const setups: Setup[] = [
  { name: '1 replica, state in memory (no Redis)', count: 1, redis: false },
  { name: '1 replica, state in Redis', count: 1, redis: true },
  { name: '3 replicas, state in Redis', count: 3, redis: true },
];

const redis = await startRedis();
const rows: Array<{ setup: Setup; result: LoadResult; idleRss: number[]; loadedRss: number[] }> = [];
try {
  for (const setup of setups) {
    const started = await replicas(setup.count, setup.redis ? redis : undefined);
    let balancer: Balancer | undefined;
    try {
      balancer = await startBalancer(started.map((replica) => replica.url));
      // the balancer's health checks mark every replica up before the load
      await load(balancer.url, 1_500);
      const idleRss = started.map((replica) => residentBytesOf(replica.pid));
      const result = await load(balancer.url, seconds * 1000);
      const loadedRss = started.map((replica) => residentBytesOf(replica.pid));
      rows.push({ setup, result, idleRss, loadedRss });
    } finally {
      await balancer?.stop();
      await Promise.all(started.map((replica) => replica.stop()));
    }
  }

  // The gate alone, in this process.
  const connection = await openRedisConnection({ url: redis.url, keyPrefix: 'bench:', replicaId: 'bench' });
  await connection.waitReady(10_000);
  const channels = createRedisChannels(connection);
  const gateRows: Array<{ name: string; mean: number; p50: number; p99: number }> = [];
  for (const [label, quota] of [
    ['per_minute', { per_minute: 100_000_000 }],
    ['per_minute + concurrency', { per_minute: 100_000_000, concurrency: 10_000 }],
  ] as const) {
    for (const [backend, gate] of [
      ['memory', new QuotaGate({ tool: quota })],
      ['redis', new QuotaGate({ tool: quota }, undefined, redisQuotaSlots({ connection, channels }))],
    ] as const) {
      for (let index = 0; index < 200; index += 1) {
        const outcome = await gate.admit('tool');
        if (outcome.ok) outcome.release();
      }
      const times: number[] = [];
      for (let index = 0; index < gateCalls; index += 1) {
        const at = performance.now();
        const outcome = await gate.admit('tool');
        if (!outcome.ok) throw new Error('refused');
        outcome.release();
        times.push(performance.now() - at);
      }
      gate.close();
      times.sort((a, b) => a - b);
      gateRows.push({ name: `${label}, ${backend}`, mean: times.reduce((sum, time) => sum + time, 0) / times.length, p50: percentile(times, 0.5), p99: percentile(times, 0.99) });
    }
  }
  channels.close();
  await connection.close();

  const baseline = rows[1]?.result.callsPerSecond ?? Number.NaN;
  console.log(`\nFleet throughput: POST /v1/tools/list_dir/call (quota'd) through HAProxy, ${clients} clients, ${seconds} s per setup, ${cpus().length} CPU(s)\n`);
  console.log('| setup | calls/s | p50 ms | p99 ms | vs 1 replica (Redis) | errors |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const { setup, result } of rows) {
    console.log(`| ${setup.name} | ${result.callsPerSecond.toFixed(0)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ${(result.callsPerSecond / baseline).toFixed(2)}x | ${result.errors} |`);
  }
  console.log('\nQuota gate alone (admit + release, sequential, this process; Redis on loopback)\n');
  console.log('| quota, state | mean µs | p50 µs | p99 µs |');
  console.log('|---|---:|---:|---:|');
  for (const row of gateRows) console.log(`| ${row.name} | ${(row.mean * 1000).toFixed(1)} | ${(row.p50 * 1000).toFixed(1)} | ${(row.p99 * 1000).toFixed(1)} |`);
  console.log('\nRSS per replica (MiB): idle after start / after the load\n');
  console.log('| setup | idle | after load |');
  console.log('|---|---|---|');
  for (const { setup, idleRss, loadedRss } of rows) console.log(`| ${setup.name} | ${idleRss.map(mb).join(', ')} | ${loadedRss.map(mb).join(', ')} |`);
} finally {
  await redis.stop();
  rmSync(folder, { recursive: true, force: true });
}
