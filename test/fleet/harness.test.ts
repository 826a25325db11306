/**
 * The fleet harness's real parts work on this machine: Redis answers through the daemon's own
 * connection module (and reports down while stopped, up again after a restart), and HAProxy forwards
 * to every replica in turn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { openRedisConnection } from '../../src/state/redis-connection.ts';
import { startBalancer, startRedis, type Balancer, type RedisServer } from './harness.ts';

describe('fleet harness', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('starts redis-server; the connection reports it down while stopped and reconnects after a restart', async () => {
    const redis: RedisServer = await startRedis();
    cleanups.push(() => redis.stop());
    const connection = await openRedisConnection({ url: redis.url, replicaId: 'test-a' });
    cleanups.push(() => connection.close());
    await connection.waitReady(30_000);
    await connection.commands.set(connection.key('probe'), 'x');
    expect(await connection.commands.get(connection.key('probe'))).toBe('x');
    await redis.stop();
    await expect(connection.commands.get(connection.key('probe'))).rejects.toThrow();
    expect(connection.ready()).toBe(false);
    await redis.start();
    await connection.waitReady(30_000);
    expect(await connection.commands.get(connection.key('probe'))).toBeNull();
  });

  it('balances requests round-robin over every backend', async () => {
    const backends: Server[] = [];
    for (const name of ['a', 'b', 'c']) {
      const server = createServer((_request, response) => response.end(name));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      backends.push(server);
      cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    }
    const folder = mkdtempSync(join(tmpdir(), 'fleet-harness-'));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const urls = backends.map((server) => {
      const address = server.address();
      return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    const balancer: Balancer = await startBalancer(urls, { folder });
    cleanups.push(() => balancer.stop());
    const seen = new Set<string>();
    for (let index = 0; index < 12 && seen.size < 3; index++) seen.add(await (await fetch(`${balancer.url}/healthz`)).text());
    expect([...seen].sort()).toEqual(['a', 'b', 'c']);
  });
});
