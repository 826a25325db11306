import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHost } from '../../src/host.ts';
import type { HostEvent } from '../../src/host-types.ts';
import { textResult } from '../../src/result.ts';
import { defineTool } from '../../src/tool.ts';

function workspace(): string {
  return mkdtempSync(join(tmpdir(), 'toolhost-host-'));
}

describe('createHost', () => {
  it('serves the built-ins through the bridge', async () => {
    const root = workspace();
    const host = await createHost({ workspaceRoot: root });
    expect(host.listTools().map((tool) => tool.name)).toEqual(['edit_file', 'glob', 'grep', 'list_dir', 'process', 'read_file', 'run_code', 'search_tools', 'shell', 'write_file']);
    const written = await host.callTool('write_file', { path: 'a/b.txt', content: 'hello' });
    expect(written.is_error).toBe(false);
    expect(readFileSync(join(root, 'a/b.txt'), 'utf8')).toBe('hello');
    const read = await host.callTool('read_file', '{"path":"a/b.txt","limit":"10"}');
    expect(read.content).toContain('hello');
    await host.close();
  });

  it('turns unknown and refused tools into is_error results', async () => {
    const host = await createHost({ workspaceRoot: workspace(), permissionMode: 'read_only' });
    expect(host.listTools().map((tool) => tool.name)).toEqual(['glob', 'grep', 'list_dir', 'read_file', 'run_code', 'search_tools']);
    const unknown = await host.callTool('nope', {});
    expect(unknown.is_error).toBe(true);
    expect(unknown.content).toMatch(/Unknown tool "nope"/);
    const refused = await host.callTool('shell', { command: 'echo hi' });
    expect(refused.is_error).toBe(true);
    expect(refused.content).toMatch(/needs permission "execute"/);
    await host.close();
  });

  it('reports registry changes as host events', async () => {
    const host = await createHost({ workspaceRoot: workspace(), builtins: false });
    const events: HostEvent[] = [];
    host.onEvent((event) => events.push(event));
    const tool = defineTool({ name: 'probe', description: 'd', permission: 'none', input: z.object({}), secretParams: [], execute: async () => textResult('ok') });
    host.registry.add(tool);
    host.registry.remove('probe');
    expect(events.map((event) => event.type)).toEqual(['added', 'removed']);
    await host.close();
  });

  it('lets in-flight calls finish on close and refuses new ones', async () => {
    const host = await createHost({ workspaceRoot: workspace(), builtins: false });
    let release: () => void = () => undefined;
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    host.registry.add(
      defineTool({
        name: 'slow',
        description: 'd',
        permission: 'none',
        input: z.object({}),
        secretParams: [],
        execute: () =>
          new Promise((resolve) => {
            release = () => resolve(textResult('finished'));
            markStarted();
          }),
      }),
    );
    const call = host.callTool('slow', {});
    expect(host.inFlightCalls()).toBe(1);
    const closed = host.close({ graceMs: 5_000 });
    const refused = await host.callTool('slow', {});
    expect(refused.content).toMatch(/shutting down/);
    // The accepted call passes the approval and quota gates (a few turns of the event loop) before it runs.
    await started;
    release();
    expect(await call).toEqual({ content: 'finished', is_error: false });
    await closed;
  });

  it('gives a tool its own declared time budget instead of the host default', async () => {
    const host = await createHost({ workspaceRoot: workspace(), limits: { timeoutMs: 50 } });
    host.registry.add(
      defineTool({
        name: 'patient',
        description: 'd',
        permission: 'none',
        input: z.object({}),
        secretParams: [],
        timeoutMs: 5_000,
        execute: (_input, context) =>
          new Promise((resolve) => setTimeout(() => resolve(textResult(context.signal.aborted ? 'aborted' : 'finished')), 200)),
      }),
    );
    expect((await host.callTool('patient', {})).content).toBe('finished');
    // shell declares a budget above its own timeout_ms maximum, so the host default does not cut it short.
    const shell = await host.callTool('shell', { command: 'sleep 0.2; echo done' });
    expect(shell).toMatchObject({ content: expect.stringContaining('done'), is_error: false });
    await host.close();
  });

  it('cancels calls still running when the grace period ends', async () => {
    const host = await createHost({ workspaceRoot: workspace(), builtins: false, limits: { timeoutMs: 60_000 } });
    host.registry.add(
      defineTool({
        name: 'stuck',
        description: 'd',
        permission: 'none',
        input: z.object({}),
        secretParams: [],
        execute: (_input, context) => new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(textResult('cancelled')))),
      }),
    );
    const call = host.callTool('stuck', {});
    await host.close({ graceMs: 50 });
    expect(await call).toEqual({ content: 'cancelled', is_error: false });
  });

  it('aborts a call at its deadline through the context signal', async () => {
    const host = await createHost({ workspaceRoot: workspace(), builtins: false, limits: { timeoutMs: 50 } });
    host.registry.add(
      defineTool({
        name: 'waits',
        description: 'd',
        permission: 'none',
        input: z.object({}),
        secretParams: [],
        execute: (_input, context) =>
          new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(textResult(`aborted: ${String(context.signal.reason)}`)))),
      }),
    );
    const result = await host.callTool('waits', {});
    expect(result.content).toMatch(/aborted: TimeoutError/);
    await host.close();
  });
});
