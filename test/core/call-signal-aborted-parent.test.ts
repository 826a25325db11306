import { getEventListeners } from 'node:events';
import { expect, it } from 'vitest';
import { createCallSignal } from '../../src/call-signal.ts';

it('a parent already aborted decides the call: its reason, no listener left on the other parents', () => {
  const live = new AbortController();
  const gone = new AbortController();
  gone.abort(new Error('client left'));
  const call = createCallSignal(60_000, [live.signal, undefined, gone.signal]);
  expect(call.signal.aborted).toBe(true);
  expect(call.signal.reason).toEqual(new Error('client left'));
  expect(getEventListeners(live.signal, 'abort')).toHaveLength(0);
  call.dispose();
  call.dispose();
});
