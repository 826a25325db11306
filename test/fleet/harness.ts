/**
 * The fleet's real parts on loopback, for tests and benches: a `redis-server` (Debian package), N
 * `toolhost serve` replicas (real processes, test/server/daemon-process.ts) and an HAProxy in front
 * of them balancing round-robin per request (HTTP mode: each request of a keep-alive client
 * connection is balanced on its own, so consecutive requests alternate replicas).
 *
 * Everything listens on 127.0.0.1 on free ports and lives in a temporary folder; `stop()` ends it.
 * Waits are on events (a port accepting, a line printed), never fixed sleeps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, type DaemonProcess } from '../server/daemon-process.ts';

/** A free loopback port (bound then released; the caller binds it next). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port (tries every 50 ms up to `timeoutMs`). */
export async function waitForPort(port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>/0`. */
  readonly url: string;
  /** Stops the server (SIGTERM); its data is gone (no persistence). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

export async function startRedis(options: { binary?: string } = {}): Promise<RedisServer> {
  const binary = options.binary ?? process.env.TOOLHOST_TEST_REDIS_SERVER ?? 'redis-server';
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const spawned = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = spawned;
    const failed = new Promise<never>((_, reject) => {
      spawned.once('error', (error) => reject(new Error(`cannot start ${binary} (install the redis-server package): ${error.message}`)));
      spawned.once('exit', (code) => reject(new Error(`${binary} exited (${code}) before listening on ${port}`)));
    });
    await Promise.race([waitForPort(port), failed]);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    async stop() {
      if (!child) return;
      const ending = exitOf(child);
      child.kill('SIGTERM');
      await ending;
      child = undefined;
    },
    start,
  };
}

export interface Balancer {
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  stop(): Promise<void>;
}

/** HAProxy, round-robin per request over `backends` (`http://127.0.0.1:<port>` URLs), streams (SSE) kept open. */
export async function startBalancer(backends: readonly string[], options: { binary?: string; folder?: string } = {}): Promise<Balancer> {
  const binary = options.binary ?? process.env.TOOLHOST_TEST_HAPROXY ?? 'haproxy';
  const port = await freePort();
  const folder = options.folder ?? mkdtempSync(join(tmpdir(), 'toolhost-haproxy-'));
  const servers = backends.map((backend, index) => {
    const url = new URL(backend);
    // a replica marked down by its health check gets no requests; a killed one is retried on another (retry-on)
    return `  server replica${index} ${url.hostname}:${url.port} check inter 500ms fall 2 rise 1`;
  });
  const config = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 300s',
    '  timeout server 300s',
    '  timeout tunnel 3600s',
    '  option http-keep-alive',
    'frontend fleet',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    // HTTP/1.1 with a loopback Host: the daemons refuse other Host headers (DNS rebinding defense), and
    // a check without one would mark every replica down.
    '  option httpchk',
    '  http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host 127.0.0.1',
    '  retries 2',
    '  option redispatch',
    '  retry-on conn-failure empty-response response-timeout',
    ...servers,
    '',
  ].join('\n');
  const configFile = join(folder, 'haproxy.cfg');
  writeFileSync(configFile, config);
  const child = spawn(binary, ['-db', '-f', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-10_000)));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`cannot start ${binary} (install the haproxy package): ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`${binary} exited (${code}): ${stderr}`)));
  });
  await Promise.race([waitForPort(port), failed]);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      const ending = exitOf(child);
      child.kill('SIGTERM');
      await ending;
      if (options.folder === undefined) rmSync(folder, { recursive: true, force: true });
    },
  };
}

export interface Fleet {
  readonly redis: RedisServer;
  readonly replicas: DaemonProcess[];
  readonly balancer: Balancer;
  stop(): Promise<void>;
}

/**
 * Redis, `count` replicas started with `serveArgs` in `cwd` and `TOOLHOST_REDIS_URL` pointing at the
 * Redis, and the balancer in front of them.
 */
export async function startFleet(options: { count: number; cwd: string; serveArgs?: readonly string[]; env?: Record<string, string | undefined> }): Promise<Fleet> {
  const redis = await startRedis();
  const replicas: DaemonProcess[] = [];
  try {
    const env = { ...process.env, ...options.env, TOOLHOST_REDIS_URL: redis.url };
    replicas.push(...(await Promise.all(Array.from({ length: options.count }, () => startDaemon(options.serveArgs ?? [], { cwd: options.cwd, env })))));
    const balancer = await startBalancer(replicas.map((replica) => replica.url));
    return {
      redis,
      replicas,
      balancer,
      async stop() {
        await balancer.stop();
        await Promise.all(replicas.map((replica) => replica.stop()));
        await redis.stop();
      },
    };
  } catch (error) {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await redis.stop();
    throw error;
  }
}
