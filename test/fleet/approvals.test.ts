/**
 * Approvals across a fleet (issue 29): three real `toolhost serve` replicas sharing a real Redis,
 * behind a real HAProxy. A call that an `ask` rule holds on one replica is listed by the others,
 * decided through another and released where it waits; two replicas deciding at once: exactly one
 * wins; an `always` decision holds on every replica; an approval whose replica was SIGKILLed is not
 * listed once that replica's lease lapses, and deciding it answers 410 `approval_lost`.
 * Waits are on conditions (the approval listed, the call answered), never on time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADERS, TEST_ADMIN_TOKEN } from '../server/helpers.ts';
import { startFleet, type Fleet } from './harness.ts';

let folder: string;
let fleet: Fleet;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'toolhost-fleet-approvals-'));
  const config = join(folder, 'toolhost.json');
  writeFileSync(config, JSON.stringify({ approvals: [{ tool: 'write_file', action: 'ask' }], approval_timeout_ms: 600_000 }));
  fleet = await startFleet({ count: 3, cwd: folder, serveArgs: ['--config', config], env: { TOOLHOST_ADMIN_TOKEN: TEST_ADMIN_TOKEN } });
}, 180_000);

afterAll(async () => {
  await fleet?.stop();
  rmSync(folder, { recursive: true, force: true });
});

function callWriteFile(url: string, path: string): Promise<any> {
  return fetch(`${url}/v1/tools/write_file/call`, {
    method: 'POST',
    headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ arguments: { path, content: `written ${path}\n` } }),
  }).then((response) => response.json());
}

async function listApprovals(url: string): Promise<any[]> {
  const response = await fetch(`${url}/v1/approvals`, { headers: ADMIN_HEADERS });
  if (response.status !== 200) throw new Error(`GET ${url}/v1/approvals answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { approvals: any[] }).approvals;
}

/** Polls `url`'s list until `condition` holds for the approval of `path` (waits on state, asserts no time). */
async function untilListed(url: string, path: string, listed = true): Promise<any> {
  for (;;) {
    const found = (await listApprovals(url)).find((approval) => approval.arguments.path === path);
    if ((found !== undefined) === listed) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function decide(url: string, id: string, decision: string): Promise<Response> {
  return fetch(`${url}/v1/approvals/${id}`, { method: 'POST', headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' }, body: JSON.stringify({ decision }) });
}

describe('approvals in a fleet', () => {
  it('a call held on replica A is listed on B and C, decided through C, and released on A', async () => {
    const [a, b, c] = fleet.replicas.map((replica) => replica.url) as [string, string, string];
    const result = callWriteFile(a, 'one.txt');
    const onB = await untilListed(b, 'one.txt');
    expect((await untilListed(c, 'one.txt')).id).toBe(onB.id);
    expect((await untilListed(fleet.balancer.url, 'one.txt')).id).toBe(onB.id);
    const decided = await decide(c, onB.id, 'allow');
    expect(decided.status).toBe(200);
    const answer = await result;
    expect(answer.is_error).toBe(false);
    // decided once: no replica lists it, and deciding again anywhere finds nothing
    expect(await untilListed(a, 'one.txt', false)).toBeUndefined();
    expect((await decide(b, onB.id, 'deny')).status).toBe(404);
  });

  it('two replicas deciding the same approval at once: exactly one wins', async () => {
    const [a, b, c] = fleet.replicas.map((replica) => replica.url) as [string, string, string];
    const result = callWriteFile(a, 'race.txt');
    const pending = await untilListed(b, 'race.txt');
    const answers = await Promise.all([decide(b, pending.id, 'deny'), decide(c, pending.id, 'allow'), decide(a, pending.id, 'deny')]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 404, 404]);
    const winner = answers.findIndex((answer) => answer.status === 200);
    const answer = await result;
    expect(answer.is_error).toBe(winner !== 1);
  });

  it('an always decision made through one replica holds on every replica', async () => {
    const [a, b, c] = fleet.replicas.map((replica) => replica.url) as [string, string, string];
    const first = callWriteFile(b, 'always.txt');
    const pending = await untilListed(a, 'always.txt');
    expect((await decide(a, pending.id, 'always')).status).toBe(200);
    expect((await first).is_error).toBe(false);
    // The same call on the other replicas runs without asking (it would wait 10 minutes otherwise).
    expect((await callWriteFile(c, 'always.txt')).is_error).toBe(false);
    expect((await callWriteFile(a, 'always.txt')).is_error).toBe(false);
    expect((await listApprovals(b)).filter((approval) => approval.arguments.path === 'always.txt')).toEqual([]);
  });

  it('an approval pending on a SIGKILLed replica leaves the list once its lease lapses; deciding it answers 410 approval_lost', async () => {
    const victim = fleet.replicas[2];
    if (victim === undefined) throw new Error('three replicas expected');
    const [a, b] = fleet.replicas.map((replica) => replica.url) as [string, string];
    const held = callWriteFile(victim.url, 'lost.txt').catch(() => undefined);
    const kept = callWriteFile(a, 'kept.txt');
    const pending = await untilListed(b, 'lost.txt');
    await untilListed(b, 'kept.txt');
    victim.child.kill('SIGKILL');
    await victim.exited;
    await held;
    await untilListed(b, 'lost.txt', false);
    const answer = await decide(a, pending.id, 'allow');
    expect(answer.status).toBe(410);
    const body = (await answer.json()) as any;
    expect(body.error.code).toBe('approval_lost');
    expect(body.error.message).toContain('which has stopped');
    // The live replica's approval was not lost with it: still listed, still decidable through the balancer.
    const stillPending = await untilListed(fleet.balancer.url, 'kept.txt');
    expect((await decide(fleet.balancer.url, stillPending.id, 'allow')).status).toBe(200);
    expect((await kept).is_error).toBe(false);
  });

  it('Redis down: a call that needs an approval is refused at once (fails closed), and the routes answer 503', async () => {
    const [a] = fleet.replicas.map((replica) => replica.url) as [string];
    await fleet.redis.stop();
    try {
      const refused = await callWriteFile(a, 'redis-down.txt');
      expect(refused.is_error).toBe(true);
      expect(refused.metadata?.reason).toBe('approval_unavailable');
      expect(refused.content).toContain('unreachable');
      const listed = await fetch(`${a}/v1/approvals`, { headers: ADMIN_HEADERS });
      expect(listed.status).toBe(503);
      expect(((await listed.json()) as any).error.code).toBe('state_unavailable');
      // A call that needs no shared state still runs.
      const read = await fetch(`${a}/v1/tools/list_dir/call`, { method: 'POST', headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' }, body: JSON.stringify({ arguments: { path: '.' } }) });
      expect(((await read.json()) as any).is_error).toBe(false);
    } finally {
      await fleet.redis.start();
    }
  });
});
