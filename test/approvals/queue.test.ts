import { describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../src/approvals/queue.ts';
import type { ApprovalEvent } from '../../src/approvals/types.ts';

function queue(timeoutMs = 60_000): { queue: ApprovalQueue; events: ApprovalEvent[] } {
  const events: ApprovalEvent[] = [];
  return { queue: new ApprovalQueue({ timeoutMs, emit: (event) => events.push(event) }), events };
}

const call = { tool: 'shell', callId: 'c1', arguments: { command: 'git push' } };

describe('ApprovalQueue', () => {
  it('lists a pending approval, then a decision ends it once and aborts its signal', async () => {
    const { queue: q, events } = queue();
    const pending = q.open(call);
    expect(q.list()).toEqual([pending.request]);
    expect(pending.request).toMatchObject({ tool: 'shell', call_id: 'c1', arguments: { command: 'git push' } });
    expect(Date.parse(pending.request.expires_at) - Date.parse(pending.request.created_at)).toBe(60_000);
    expect(events[0]).toMatchObject({ type: 'approval_requested', id: pending.request.id, tool: 'shell' });
    expect(q.decide(pending.request.id, 'allow', 'http')).toBe(true);
    expect(q.decide(pending.request.id, 'deny', 'http')).toBe(false);
    await expect(pending.outcome).resolves.toEqual({ decision: 'allow', reason: 'user', via: 'http' });
    expect(pending.signal.aborted).toBe(true);
    expect(q.list()).toEqual([]);
    expect(events[1]).toEqual({ type: 'approval_decided', id: pending.request.id, tool: 'shell', call_id: 'c1', decision: 'allow', reason: 'user', via: 'http' });
  });

  it('an unknown id is not decided', () => {
    expect(queue().queue.decide('nope', 'allow', 'http')).toBe(false);
  });

  it('times out as a refusal', async () => {
    const { queue: q, events } = queue(20);
    const pending = q.open(call);
    await expect(pending.outcome).resolves.toEqual({ decision: 'deny', reason: 'timeout' });
    expect(events.at(-1)).toMatchObject({ type: 'approval_decided', decision: 'deny', reason: 'timeout' });
  });

  it('ends as cancelled with its call, including a call already cancelled', async () => {
    const { queue: q } = queue();
    const controller = new AbortController();
    const pending = q.open(call, controller.signal);
    controller.abort();
    await expect(pending.outcome).resolves.toMatchObject({ reason: 'cancelled', decision: 'deny' });
    const late = q.open(call, AbortSignal.abort());
    await expect(late.outcome).resolves.toMatchObject({ reason: 'cancelled' });
    expect(q.size).toBe(0);
  });

  it('close refuses everything pending and everything opened later', async () => {
    const { queue: q } = queue();
    const first = q.open(call);
    q.close();
    await expect(first.outcome).resolves.toMatchObject({ reason: 'shutdown', decision: 'deny' });
    await expect(q.open(call).outcome).resolves.toMatchObject({ reason: 'shutdown' });
  });

  it('refuse carries the detail; attend is counted and released once', async () => {
    const { queue: q } = queue();
    expect(q.attended).toBe(false);
    const release = q.attend();
    const other = q.attend();
    expect(q.attended).toBe(true);
    release();
    release();
    expect(q.attended).toBe(true);
    other();
    expect(q.attended).toBe(false);
    const pending = q.open(call);
    expect(q.refuse(pending.request.id, 'no_approver', 'nobody home')).toBe(true);
    await expect(pending.outcome).resolves.toEqual({ decision: 'deny', reason: 'no_approver', detail: 'nobody home' });
  });
});
