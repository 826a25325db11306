import { getEventListeners } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolHostError } from '../../src/errors.ts';
import { resolvePolicy, type ToolPolicy } from '../../src/policy.ts';
import type { LoadedComponent } from '../../src/wasm/load.ts';
import { mapRunOutcome } from '../../src/wasm/result-mapping.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
let work: string;
let runtime: WasmRuntime;
let behave: LoadedComponent;
let echo: LoadedComponent;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-runtime-'));
  runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 2 });
  [behave, echo] = await Promise.all([runtime.load(join(build, 'rt-behave.wasm')), runtime.load(join(build, 'rt-echo.wasm'))]);
}, 60_000);

afterAll(async () => {
  await runtime.close();
  await rm(work, { recursive: true, force: true });
});

const run = (args: string[], policy: ToolPolicy = {}, stdin?: Uint8Array) =>
  runtime.run(behave, { args, policy: resolvePolicy(policy, work), ...(stdin ? { stdin } : {}) });

describe('running calls in the pool', () => {
  it('runs a call and captures stdout and stdin', async () => {
    const outcome = await runtime.run(echo, { args: ['hello', 'world'], policy: resolvePolicy({}, work) });
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, truncated: false });
    expect(outcome.trap).toBeUndefined();
    expect(decode(outcome.stdout)).toBe('{"content":"hello world"}\n');
    // rt-echo prints toolhost's envelope; a tool opts in to it (`"output": "envelope"`), else stdout is the content.
    expect(mapRunOutcome(outcome, { envelope: true })).toMatchObject({ content: 'hello world', is_error: false });
    expect(mapRunOutcome(outcome)).toMatchObject({ content: '{"content":"hello world"}\n', is_error: false });
    const piped = await run(['stdin'], {}, new TextEncoder().encode('from stdin'));
    expect(decode(piped.stdout)).toBe('from stdin');
  });

  it('reports non-zero exit codes with stderr', async () => {
    const outcome = await run(['stderr', 'something broke', '3']);
    // The guest's own code, though the preview1 command adapter would map it to 1 (see glue-patches.ts).
    expect(outcome.exitCode).toBe(3);
    expect(decode(outcome.stderr)).toBe('something broke');
    const result = mapRunOutcome(outcome);
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('something broke');
    expect(result.metadata).toMatchObject({ exit_code: 3, stderr: 'something broke' });
  });

  it('turns traps into a trap message, and the next call runs on a fresh instance', async () => {
    const unreachable = await run(['trap']);
    expect(unreachable.exitCode).toBeNull();
    expect(unreachable.trap).toMatch(/unreachable/);
    const outOfBounds = await run(['oob']);
    expect(outOfBounds.trap).toMatch(/out of bounds/);
    expect(mapRunOutcome(outOfBounds)).toMatchObject({ is_error: true });
    expect(decode((await run(['print', 'still fine'])).stdout)).toBe('still fine');
  });

  it('times out an infinite loop while another call completes meanwhile', async () => {
    const looping = run(['loop'], { timeout_ms: 1500 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const hello = await runtime.run(echo, { args: ['meanwhile'], policy: resolvePolicy({}, work) });
    expect(decode(hello.stdout)).toBe('{"content":"meanwhile"}\n');
    let settled = false;
    void looping.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    const outcome = await looping;
    expect(outcome).toMatchObject({ timedOut: true, exitCode: null, timeoutMs: 1500 });
    expect(mapRunOutcome(outcome)).toMatchObject({ is_error: true, content: 'timed out after 1500 ms' });
    expect(decode((await run(['print', 'after the timeout'])).stdout)).toBe('after the timeout');
  }, 20_000);

  it('caps guest memory at the policy limit', async () => {
    const small = await run(['membomb'], { memory_mb: 16 });
    expect(small.exitCode).toBe(0);
    const smallResult = mapRunOutcome(small, { envelope: true });
    expect(smallResult.metadata?.mib).toBeGreaterThan(8);
    expect(smallResult.metadata?.mib).toBeLessThan(16);
    const larger = mapRunOutcome(await run(['membomb'], { memory_mb: 48 }), { envelope: true });
    expect(larger.metadata?.mib).toBeGreaterThan(32);
    expect(larger.metadata?.mib).toBeLessThan(48);
  }, 20_000);

  it('truncates an output flood at the cap and says so', async () => {
    const outcome = await run(['flood', String(8 * 1024 * 1024)], { output_bytes: 64 * 1024 });
    expect(outcome.truncated).toBe(true);
    expect(outcome.stdout.length).toBe(64 * 1024);
    expect(outcome.stderr.length).toBe(64 * 1024);
    const result = mapRunOutcome(outcome);
    expect(result.metadata).toMatchObject({ truncated: true });
    expect(result.content).toMatch(/output truncated/);
    expect((result.metadata?.stderr as string).length).toBeLessThanOrEqual(4100);
  }, 20_000);

  it('shows the guest only the environment its policy grants', async () => {
    process.env.TOOLHOST_TEST_SECRET = 'do-not-leak';
    try {
      expect(decode((await run(['env'])).stdout)).toBe('');
      expect(decode((await run(['env'], { env: { GREETING: 'hi' } })).stdout)).toBe('GREETING=hi\n');
    } finally {
      delete process.env.TOOLHOST_TEST_SECRET;
    }
  });

  it('wires policy fs grants to preopens: ro readable but not writable, rw writable, nothing else visible', async () => {
    const shared = join(work, 'shared');
    await mkdir(shared, { recursive: true });
    await writeFile(join(shared, 'note.txt'), 'from the host');
    const readOnly: ToolPolicy = { fs: [{ host: 'shared', guest: '/data', mode: 'ro' }] };
    expect(decode((await run(['read', '/data/note.txt'], readOnly)).stdout)).toBe('from the host');
    const refused = await run(['write', '/data/new.txt', 'nope'], readOnly);
    expect(refused.exitCode).not.toBe(0);
    await expect(readFile(join(shared, 'new.txt'))).rejects.toThrow();
    const readWrite: ToolPolicy = { fs: [{ host: 'shared', guest: '/data', mode: 'rw' }] };
    expect(decode((await run(['write', '/data/new.txt', 'written'], readWrite)).stdout)).toBe('ok\n');
    expect(await readFile(join(shared, 'new.txt'), 'utf8')).toBe('written');
    expect((await run(['read', '/data/note.txt'])).exitCode).not.toBe(0);
    expect((await run(['read', '/data/../../etc/passwd'], readOnly)).exitCode).not.toBe(0);
  });

  it('leaves nothing on a long-lived caller signal once its calls are done (no listener, no AbortSignal.any dependant)', async () => {
    const longLived = new AbortController().signal;
    const policy = resolvePolicy({}, work);
    for (let call = 0; call < 20; call += 1) {
      const outcome = await runtime.run(echo, { args: [String(call)], policy, signal: longLived });
      expect(outcome.exitCode).toBe(0);
    }
    expect(getEventListeners(longLived, 'abort')).toHaveLength(0);
    // Node 20 keeps a WeakRef per AbortSignal.any composite in each source's dependant set, for good.
    const dependants = Object.getOwnPropertySymbols(longLived).find((symbol) => symbol.description === 'kDependantSignals');
    const set = dependants === undefined ? undefined : (longLived as unknown as Record<symbol, { size: number } | undefined>)[dependants];
    expect(set?.size ?? 0).toBe(0);
  });

  it('runs in process through the same code path', async () => {
    const outcome = await runtime.runInProcess(echo, { args: ['inline'], policy: resolvePolicy({}, work) });
    expect(decode(outcome.stdout)).toBe('{"content":"inline"}\n');
    expect(outcome.workerThreadId).toBe(0);
    const trapped = await runtime.runInProcess(behave, { args: ['trap'], policy: resolvePolicy({}, work) });
    expect(trapped.trap).toMatch(/unreachable/);
  });
});

describe('pool limits and recycling', () => {
  it('rotates to fresh workers after N calls per worker, warming each successor with the tools first, and keeps serving', async () => {
    const recycling = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1, recycleAfterCalls: 3 });
    try {
      const component = await recycling.load(join(build, 'rt-echo.wasm'));
      const threadIds: number[] = [];
      // The successor takes over once warm; calls keep going to the current workers meanwhile.
      for (let call = 0; recycling.stats().retired < 2; call += 1) {
        expect(call).toBeLessThan(5000);
        const outcome = await recycling.run(component, { args: [String(call)], policy: resolvePolicy({}, work) });
        expect(decode(outcome.stdout)).toBe(`{"content":"${call}"}\n`);
        threadIds.push(outcome.workerThreadId ?? -1);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const stats = recycling.stats();
      expect(threadIds.slice(0, 3).every((id) => id === threadIds[0])).toBe(true);
      expect(new Set(threadIds).size).toBeGreaterThanOrEqual(2);
      expect(stats.generations).toBeGreaterThanOrEqual(3);
      // Only the first generation was handed the modules at a call; every successor had them from its warm-up.
      expect(stats.moduleHandovers).toBe(1);
    } finally {
      await recycling.close();
    }
  }, 60_000);

  it('queues calls up to the bound, then refuses with QUEUE_FULL', async () => {
    const bounded = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1, maxConcurrentCallsPerTool: 1, maxQueuedCalls: 1 });
    try {
      const component = await bounded.load(join(build, 'rt-behave.wasm'));
      const policy = resolvePolicy({ timeout_ms: 1000 }, work);
      const running = bounded.run(component, { args: ['loop'], policy });
      // The queued call runs on the worker that replaces the timed-out one: its boot is not its budget on a busy machine.
      const queued = bounded.run(component, { args: ['print', 'queued'], policy: resolvePolicy({ timeout_ms: 30_000 }, work) });
      const refused = await bounded.run(component, { args: ['print', 'refused'], policy }).catch((error: unknown) => error);
      expect(ToolHostError.is(refused, 'QUEUE_FULL')).toBe(true);
      expect((await running).timedOut).toBe(true);
      expect(decode((await queued).stdout)).toBe('queued');
    } finally {
      await bounded.close();
    }
  }, 30_000);
});
