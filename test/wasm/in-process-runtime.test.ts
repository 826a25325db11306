/**
 * The one-shot runtime (createInProcessRuntime): calls on this thread, compiled at the call, held to
 * their deadline even when the guest spins, and the runtime stays usable after a call was cut off.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolvePolicy } from '../../src/policy.ts';
import { createInProcessRuntime } from '../../src/wasm/in-process.ts';
import type { LoadedComponent } from '../../src/wasm/load.ts';
import type { WasmRuntime } from '../../src/wasm/runtime.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
let work: string;
let runtime: WasmRuntime;
let behave: LoadedComponent;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-in-process-'));
  runtime = createInProcessRuntime({ cacheDirectory: join(work, 'cache') });
  behave = await runtime.load(join(build, 'rt-behave.wasm'));
}, 60_000);

afterAll(async () => {
  await runtime.close();
  await rm(work, { recursive: true, force: true });
});

it('runs a call on this thread and starts no workers', async () => {
  const outcome = await runtime.run(behave, { args: ['print', 'hi'], policy: resolvePolicy({}, work) });
  expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, workerThreadId: 0 });
  expect(decode(outcome.stdout)).toContain('hi');
  expect(runtime.stats()).toMatchObject({ generations: 0, running: 0 });
});

it('cuts off a guest that spins past its timeout, and runs the next call normally', async () => {
  const looping = await runtime.run(behave, { args: ['loop'], policy: resolvePolicy({ timeout_ms: 300 }, work) });
  expect(looping).toMatchObject({ exitCode: null, timedOut: true, timeoutMs: 300 });
  expect(looping.durationMs).toBeGreaterThanOrEqual(250);
  const next = await runtime.run(behave, { args: ['print', 'after'], policy: resolvePolicy({}, work) });
  expect(next).toMatchObject({ exitCode: 0, timedOut: false });
  expect(decode(next.stdout)).toContain('after');
});

it('reports a trap as a failed call', async () => {
  const trapped = await runtime.run(behave, { args: ['trap'], policy: resolvePolicy({}, work) });
  expect(trapped.exitCode).toBeNull();
  expect(trapped.trap).toMatch(/unreachable/i);
});

it('does not start a call whose signal is already aborted', async () => {
  const controller = new AbortController();
  controller.abort();
  const outcome = await runtime.run(behave, { args: ['print', 'never'], policy: resolvePolicy({}, work), signal: controller.signal });
  expect(outcome).toMatchObject({ cancelled: true, exitCode: null });
  expect(outcome.stdout.length).toBe(0);
});
