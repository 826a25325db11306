/** Approvals in the host's call path: what every edge gets. */
import { afterEach, describe, expect, it } from 'vitest';
import { hostApprovals, type ApprovalRule } from '../../src/approvals/index.ts';
import type { Host, HostEvent, HostOptions } from '../../src/host-types.ts';
import { instrumentHost, ServerMetrics } from '../../src/server/metrics.ts';
import { createTestHost } from '../server/helpers.ts';

const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close({ graceMs: 0 });
});

async function host(rules: ApprovalRule[], options: HostOptions = {}): Promise<{ host: Host; events: HostEvent[] }> {
  const created = await createTestHost({ approvals: rules, ...options });
  hosts.push(created);
  const events: HostEvent[] = [];
  created.onEvent((event) => events.push(event));
  return { host: created, events };
}

async function firstPending(target: Host): Promise<string> {
  const queue = hostApprovals(target);
  for (;;) {
    const [first] = queue?.list() ?? [];
    if (first) return first.id;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('approvals in the host', () => {
  it('time spent waiting for a person does not count against the call timeout', async () => {
    const { host: h } = await host([{ tool: 'slow', action: 'ask' }], { limits: { timeoutMs: 200 } });
    hostApprovals(h)?.attend();
    const call = h.callTool('slow', { ms: 10, label: 'x' });
    const id = await firstPending(h);
    await new Promise((resolve) => setTimeout(resolve, 400));
    hostApprovals(h)?.decide(id, 'allow', 'http');
    expect(await call).toMatchObject({ is_error: false, content: 'done x' });
  });

  it('stopping the host refuses calls waiting for approval instead of waiting out the timeout', async () => {
    const { host: h } = await host([{ tool: 'echo', action: 'ask' }]);
    hostApprovals(h)?.attend();
    const call = h.callTool('echo', { text: 'hi' });
    await firstPending(h);
    await h.close({ graceMs: 30_000 });
    expect(await call).toMatchObject({ is_error: true, metadata: { reason: 'shutting_down' } });
  });

  it('a refused call still ends with call_finished', async () => {
    const { host: h, events } = await host([{ tool: 'echo', action: 'deny' }]);
    const result = await h.callTool('echo', { text: 'hi' }, { callId: 'call-1' });
    expect(result.is_error).toBe(true);
    expect(events).toContainEqual(expect.objectContaining({ type: 'call_finished', tool: 'echo', call_id: 'call-1', is_error: true }));
  });

  it('an allow rule does not unhide a tool above the permission mode', async () => {
    const { host: h } = await host([{ tool: 'write_note', action: 'allow' }], { permissionMode: 'read_only' });
    const result = await h.callTool('write_note', { note: 'x' });
    expect(result.is_error).toBe(true);
    expect(result.metadata?.['reason']).not.toBe('approval_denied');
  });

  it('views of a host (the metrics wrapper) reach the same queue', async () => {
    const { host: h } = await host([]);
    const view = instrumentHost(h, new ServerMetrics(h));
    expect(hostApprovals(view)).toBe(hostApprovals(h));
    expect(hostApprovals(h)).toBeDefined();
  });
});
