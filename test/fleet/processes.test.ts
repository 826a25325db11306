/**
 * Background processes across a fleet (issue 29): three real `toolhost serve` replicas, a real Redis
 * and a real HAProxy. A process started through one replica (`shell` with `run_in_background`) is
 * listed, read, written to and killed through the others (each action runs on the owner, which
 * answers over Redis); ids are unique across replicas; the processes of a SIGKILLed replica are
 * reported "lost with replica <id>" through the survivors. Waits are on answers, never on time.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADERS, TEST_ADMIN_TOKEN } from '../server/helpers.ts';
import { startFleet, type Fleet } from './harness.ts';

let folder: string;
let fleet: Fleet;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'toolhost-fleet-processes-'));
  const config = join(folder, 'toolhost.json');
  // `touch pwned` is refused: also when a shell reads it from stdin, written in two halves through two replicas.
  writeFileSync(config, JSON.stringify({ approvals: [{ tool: 'shell', match: { command: 'touch pwned*' }, action: 'deny' }] }));
  fleet = await startFleet({ count: 3, cwd: folder, serveArgs: ['--config', config], env: { TOOLHOST_ADMIN_TOKEN: TEST_ADMIN_TOKEN } });
}, 180_000);

afterAll(async () => {
  await fleet?.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function call(url: string, tool: string, args: Record<string, unknown>): Promise<{ content: string; is_error: boolean; metadata?: Record<string, any> }> {
  const response = await fetch(`${url}/v1/tools/${tool}/call`, { method: 'POST', headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' }, body: JSON.stringify({ arguments: args }) });
  expect(response.status).toBe(200);
  return (await response.json()) as any;
}

/** Starts `command` in the background through `url`; its process id. */
async function start(url: string, command: string): Promise<string> {
  const started = await call(url, 'shell', { command, run_in_background: true });
  expect(started.is_error).toBe(false);
  return started.metadata?.['process_id'] as string;
}

/** Reads the process's output through `url` until it contains `text` (the process prints when it prints). */
async function readUntil(url: string, id: string, text: string): Promise<string> {
  let seen = '';
  for (;;) {
    const read = await call(url, 'process', { action: 'wait', process_id: id, timeout_ms: 200 });
    expect(read.is_error).toBe(false);
    seen += read.content;
    if (seen.includes(text)) return seen;
  }
}

describe('background processes in a fleet', () => {
  it('a process started through A is listed, read, written to and killed through B and C', async () => {
    const [a, b, c] = fleet.replicas.map((replica) => replica.url) as [string, string, string];
    const id = await start(a, 'echo ready; while read line; do echo "got $line"; done');
    expect(id).toMatch(/^p\d+@.+/);
    // ids are unique across replicas: the first process of another replica names that replica
    const other = await start(b, 'echo other; sleep 600');
    expect(other).not.toBe(id);
    expect(other.split('@')[1]).not.toBe(id.split('@')[1]);

    await readUntil(b, id, 'ready');
    const listed = await call(c, 'process', { action: 'list' });
    const ids = (listed.metadata?.['processes'] as Array<{ process_id: string; running: boolean }>).map((status) => status.process_id);
    expect(ids).toEqual(expect.arrayContaining([id, other]));
    expect(listed.content).toContain(id);

    const written = await call(c, 'process', { action: 'write_stdin', process_id: id, input: 'hello fleet\n' });
    expect(written.is_error).toBe(false);
    await readUntil(b, id, 'got hello fleet');

    const killed = await call(c, 'process', { action: 'kill', process_id: id });
    expect(killed.is_error).toBe(false);
    expect(killed.metadata?.['running']).toBe(false);
    const after = await call(b, 'process', { action: 'output', process_id: id });
    expect(after.metadata?.['running']).toBe(false);
    await call(a, 'process', { action: 'kill', process_id: other, signal: 'SIGKILL' });
  });

  it('attack: a denied command split over write_stdin calls through two replicas is still seen whole and denied', async () => {
    const [a, b, c] = fleet.replicas.map((replica) => replica.url) as [string, string, string];
    const id = await start(c, 'sh');
    // The first half runs nothing (a shell waits for the newline), so it is allowed...
    expect((await call(a, 'process', { action: 'write_stdin', process_id: id, input: 'touch pw' })).is_error).toBe(false);
    // ...and the rest, through another replica, is checked together with it.
    const second = await call(b, 'process', { action: 'write_stdin', process_id: id, input: 'ned\n' });
    expect(second.is_error).toBe(true);
    expect(second.metadata?.['reason']).toBe('approval_denied');
    // The shell did not get it: end its stdin and wait for it to exit, then look.
    expect((await call(a, 'process', { action: 'write_stdin', process_id: id, input: '', close_stdin: true })).is_error).toBe(false);
    for (;;) {
      const waited = await call(b, 'process', { action: 'wait', process_id: id, timeout_ms: 1_000 });
      if (waited.metadata?.['running'] === false) break;
    }
    expect(existsSync(join(folder, 'pwned'))).toBe(false);
  });

  it('the processes of a SIGKILLed replica are reported lost with it; the survivors keep theirs', async () => {
    const victim = fleet.replicas[2];
    if (victim === undefined) throw new Error('three replicas expected');
    const [a, b] = fleet.replicas.map((replica) => replica.url) as [string, string];
    const doomed = await start(victim.url, 'echo doomed; sleep 600');
    const kept = await start(a, 'echo kept; sleep 600');
    await readUntil(b, doomed, 'doomed');
    const victimId = doomed.split('@')[1] as string;
    victim.child.kill('SIGKILL');
    await victim.exited;
    const lost = await call(fleet.balancer.url, 'process', { action: 'output', process_id: doomed });
    expect(lost.is_error).toBe(true);
    expect(lost.content).toContain(`process ${doomed} was lost with replica ${victimId}`);
    expect(lost.metadata?.['reason']).toBe('process_lost');
    // the survivors' processes still answer through any replica, and the list leaves the dead one out
    await readUntil(b, kept, 'kept');
    const listed = await call(fleet.balancer.url, 'process', { action: 'list' });
    const ids = (listed.metadata?.['processes'] as Array<{ process_id: string }>).map((status) => status.process_id);
    expect(ids).toContain(kept);
    expect(ids).not.toContain(doomed);
    expect((await call(b, 'process', { action: 'kill', process_id: kept, signal: 'SIGKILL' })).metadata?.['running']).toBe(false);
  });
});
