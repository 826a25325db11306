/**
 * A fleet's shared state through real parts: a real redis-server, three real `toolhost serve`
 * replicas (TOOLHOST_REDIS_URL) and HAProxy balancing round-robin in front of them.
 * - the event stream of one replica shows the calls made on all three, each once, each with its `replica`;
 * - a quota of 10/min admits exactly 10 of 30 concurrent calls through the balancer;
 * - a concurrency slot held by a replica killed with SIGKILL mid-call is freed when its lease
 *   expires, and a call queued for it on another replica then runs;
 * - Redis stopped: quota'd calls are refused with `state_unavailable` (never run unlimited), calls
 *   under no quota keep working, /healthz says `redis: "down"`; Redis restarted: the quota admits
 *   exactly its limit again.
 * No fixed sleeps: every wait is on an answer (a call's result, an SSE event, /healthz, /v1/quotas).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childPids, isRunning, type DaemonProcess } from '../server/daemon-process.ts';
import { startFleet, type Fleet } from './harness.ts';

let fleet: Fleet;
let folder: string;
/** Each replica's id, as its /healthz says. */
const ids: string[] = [];

async function call(url: string, tool: string, args: Record<string, unknown>): Promise<{ content: string; is_error: boolean; metadata?: Record<string, any> }> {
  const response = await fetch(`${url}/v1/tools/${tool}/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: args }) });
  const text = await response.text();
  try {
    return JSON.parse(text) as { content: string; is_error: boolean; metadata?: Record<string, any> };
  } catch {
    throw new Error(`${url}: HTTP ${response.status}: ${text.slice(0, 300)}`);
  }
}

async function health(url: string): Promise<{ replica?: { id: string; state: string; redis?: string } }> {
  return (await (await fetch(`${url}/healthz`)).json()) as { replica?: { id: string; state: string; redis?: string } };
}

async function quota(url: string, key: string): Promise<{ in_use: number; waiting: number }> {
  const body = (await (await fetch(`${url}/v1/quotas`)).json()) as { quotas: { key: string; in_use: number; waiting: number }[] };
  const found = body.quotas.find((entry) => entry.key === key);
  if (!found) throw new Error(`no quota ${key}`);
  return found;
}

/**
 * An open `/v1/events` stream read in the background: `blocks` holds every SSE block as it came
 * (comments included); `until` waits (woken by each chunk, no polling) for a condition on them.
 */
class EventLog {
  readonly blocks: string[] = [];
  private buffer = '';
  private wake: (() => void) | undefined;
  private readonly controller = new AbortController();

  static async open(url: string): Promise<EventLog> {
    const log = new EventLog();
    const response = await fetch(`${url}/v1/events`, { signal: log.controller.signal });
    void log.pump(response);
    return log;
  }

  /** The `call_finished` events so far, parsed. */
  calls(): Record<string, any>[] {
    return this.blocks.filter((block) => block.startsWith('event: call_finished\n')).map((block) => JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as Record<string, any>);
  }

  async until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`condition not met; stream so far:\n${this.blocks.join('\n\n')}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 1_000);
      });
    }
  }

  close(): void {
    this.controller.abort();
  }

  private async pump(response: Response): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        let boundary: number;
        while ((boundary = this.buffer.indexOf('\n\n')) >= 0) {
          this.blocks.push(this.buffer.slice(0, boundary));
          this.buffer = this.buffer.slice(boundary + 2);
        }
        this.wake?.();
      }
    } catch {
      // aborted by close()
    }
  }
}

/** Every descendant of `pid` (the daemon's shell children and theirs). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of childPids(queue.shift()!)) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'toolhost-fleet-state-'));
  const config = join(folder, 'toolhost.json');
  writeFileSync(
    config,
    JSON.stringify({
      quotas: {
        list_dir: { per_minute: 10 },
        shell: { concurrency: 1, queue: 4, queue_timeout_ms: 300_000 },
      },
    }),
  );
  fleet = await startFleet({ count: 3, cwd: folder, serveArgs: ['--config', config, '--workspace', folder] });
  for (const replica of fleet.replicas) ids.push((await health(replica.url)).replica?.id ?? '');
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
}, 60_000);

describe('fleet shared state', () => {
  it('each replica says which it is and that its state is in Redis, and nothing private', async () => {
    expect(new Set(ids).size).toBe(3);
    for (const replica of fleet.replicas) {
      const body = await health(replica.url);
      expect(body.replica).toEqual({ id: expect.any(String), state: 'redis', redis: 'up' });
      expect(JSON.stringify(body)).not.toContain(String(fleet.redis.port));
    }
  });

  it('shows on one replica’s event stream the calls made on all three, each once, with its replica', async () => {
    const [first, second] = fleet.replicas as [DaemonProcess, DaemonProcess, DaemonProcess];
    const log = await EventLog.open(first.url);
    try {
      // the server sends `: connected` once it has subscribed this stream
      await log.until(() => log.blocks.includes(': connected'));
      for (const [index, replica] of fleet.replicas.entries()) {
        expect((await call(replica.url, 'glob', { pattern: `marker-${index}-*` })).is_error).toBe(false);
      }
      // a last call on another replica: every message published to the fleet before it arrives before it
      expect((await call(second.url, 'glob', { pattern: 'marker-last-*' })).is_error).toBe(false);
      await log.until(() => log.calls().length >= 4);
      const events = log.calls();
      expect(events.map((event) => event['replica'])).toEqual([ids[0], ids[1], ids[2], ids[1]]);
      expect(events.every((event) => event['tool'] === 'glob' && event['is_error'] === false)).toBe(true);
      expect(new Set(events.map((event) => event['call_id'])).size).toBe(4);
    } finally {
      log.close();
    }
  });

  it('admits exactly 10 of 30 concurrent calls through the balancer under a quota of 10/min', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, () => call(fleet.balancer.url, 'list_dir', { path: '.' })));
    const admitted = results.filter((result) => !result.is_error);
    expect(admitted).toHaveLength(10);
    for (const refused of results.filter((result) => result.is_error)) {
      expect(refused.metadata).toMatchObject({ reason: 'quota_exceeded', quota: 'list_dir', limit: 'per_minute', retryable: true });
      expect(refused.metadata?.['retry_after_ms']).toBeGreaterThan(0);
      expect(refused.metadata?.['retry_after_ms']).toBeLessThanOrEqual(60_000);
    }
    // each replica's view of the fleet's window: never past the limit
    const served = await Promise.all(fleet.replicas.map(async (replica) => Number((await (await fetch(`${replica.url}/metrics`)).text()).match(/^toolhost_quota_window_calls\{tool="list_dir"\} (\d+)$/m)?.[1])));
    expect(served.every((count) => count <= 10)).toBe(true);
    expect(served).toContain(10);
  });

  it('frees the concurrency slot of a replica killed with SIGKILL mid-call when its lease expires', async () => {
    const victim = fleet.replicas[1]!;
    const survivor = fleet.replicas[2]!;
    const holding = call(victim.url, 'shell', { command: 'sleep 120', timeout_ms: 120_000 }).catch(() => undefined);
    await expect.poll(() => quota(victim.url, 'shell'), { timeout: 60_000, interval: 50 }).toMatchObject({ in_use: 1 });
    const queued = call(survivor.url, 'shell', { command: 'echo ran-after-the-lease' });
    await expect.poll(() => quota(survivor.url, 'shell'), { timeout: 60_000, interval: 50 }).toMatchObject({ waiting: 1, in_use: 0 });
    const orphans = descendants(victim.pid);
    victim.child.kill('SIGKILL');
    await victim.exited;
    for (const pid of orphans) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    await holding;
    const result = await queued;
    expect(result).toMatchObject({ is_error: false });
    expect(result.content).toContain('ran-after-the-lease');
  }, 120_000);

  it('refuses quota’d calls with state_unavailable while Redis is down, serves the others, and enforces the quota again after a restart', async () => {
    const [first, , third] = fleet.replicas as [DaemonProcess, DaemonProcess, DaemonProcess];
    await fleet.redis.stop();
    await expect.poll(async () => (await health(third.url)).replica?.redis, { timeout: 30_000, interval: 50 }).toBe('down');
    for (const replica of [first, third]) {
      const refused = await call(replica.url, 'list_dir', { path: '.' });
      expect(refused.is_error).toBe(true);
      expect(refused.metadata).toMatchObject({ reason: 'state_unavailable', quota: 'list_dir', retryable: true });
      expect(refused.metadata?.['retry_after_ms']).toBeGreaterThan(0);
      expect(refused.content).toMatch(/shared state \(Redis\), which this replica cannot reach now/);
      const shell = await call(replica.url, 'shell', { command: 'echo never' });
      expect(shell.metadata).toMatchObject({ reason: 'state_unavailable', quota: 'shell' });
      // a tool under no quota needs no shared state
      expect(await call(replica.url, 'glob', { pattern: '*.json' })).toMatchObject({ is_error: false });
    }
    await fleet.redis.start();
    for (const replica of [first, third]) await expect.poll(async () => (await health(replica.url)).replica?.redis, { timeout: 60_000, interval: 50 }).toBe('up');
    // the restarted Redis is empty: a fresh window, enforced exactly again across the two live replicas
    const results = await Promise.all(Array.from({ length: 14 }, (_, index) => call((index % 2 === 0 ? first : third).url, 'list_dir', { path: '.' })));
    expect(results.filter((result) => !result.is_error)).toHaveLength(10);
    expect(results.filter((result) => result.is_error).every((result) => result.metadata?.['limit'] === 'per_minute')).toBe(true);
  }, 120_000);
});
