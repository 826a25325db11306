import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCallSignal } from '../../src/call-signal.ts';
import { createHost } from '../../src/host.ts';
import { textResult } from '../../src/result.ts';
import { defineTool } from '../../src/tool.ts';

describe('createCallSignal', () => {
  it('aborts with a TimeoutError at the deadline', async () => {
    const { signal } = createCallSignal(20, []);
    await new Promise((resolve) => signal.addEventListener('abort', resolve));
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('follows a parent, including one already aborted', () => {
    const parent = new AbortController();
    const call = createCallSignal(60_000, [parent.signal]);
    parent.abort(new Error('shutting down'));
    expect(call.signal.reason).toEqual(new Error('shutting down'));
    expect(createCallSignal(60_000, [parent.signal]).signal.aborted).toBe(true);
  });

  it('leaves nothing on its parents once disposed, and no longer times out', async () => {
    const parent = new AbortController();
    const call = createCallSignal(10, [parent.signal, undefined]);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    call.dispose();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(call.signal.aborted).toBe(false);
  });
});

it('the host keeps no per-call state on a caller signal that outlives its calls', async () => {
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes.',
    permission: 'none',
    input: z.object({ text: z.string() }),
    secretParams: [],
    async execute(input) {
      return textResult(input.text);
    },
  });
  const host = await createHost({ workspaceRoot: process.cwd() }, { builtinTools: [echo] });
  const connection = new AbortController();
  for (let index = 0; index < 200; index++) await host.callTool('echo', { text: 'x' }, { signal: connection.signal });
  expect(getEventListeners(connection.signal, 'abort')).toHaveLength(0);
  // AbortSignal.any registers dependants in an internal set instead of listeners; Node 20 never prunes it.
  const dependants = Object.getOwnPropertySymbols(connection.signal).find((symbol) => symbol.description === 'kDependantSignals');
  const held = dependants === undefined ? undefined : (connection.signal as unknown as Record<symbol, Set<unknown> | undefined>)[dependants];
  expect(held?.size ?? 0).toBe(0);
  await host.close();
});
