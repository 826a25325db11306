import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../src/policy.ts';
import type { LoadedComponent } from '../../src/wasm/load.ts';
import { createWasmRuntime, defaultPerToolConcurrency, type WasmRuntime } from '../../src/wasm/runtime.ts';
import type { RunOutcome } from '../../src/wasm/run-types.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-fair-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function withRuntime(options: { threads: number; maxConcurrentCallsPerTool?: number }, body: (runtime: WasmRuntime, spinner: LoadedComponent, quick: LoadedComponent) => Promise<void>): Promise<void> {
  const runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), ...options });
  try {
    const [spinner, quick] = await Promise.all([runtime.load(join(build, 'rt-behave.wasm')), runtime.load(join(build, 'rt-echo.wasm'))]);
    // Every worker boots and receives both tools' modules before the measured part starts.
    const policy = resolvePolicy({}, work);
    await Promise.all(Array.from({ length: options.threads * 2 }, (_, index) => runtime.run(index % 2 ? spinner : quick, { args: ['print', 'warm'], policy })));
    await body(runtime, spinner, quick);
  } finally {
    await runtime.close();
  }
}

/** Resolves once `predicate` holds, polling the event loop (no wall-clock bound: the test's own timeout is the limit). */
async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('default per-tool share', () => {
  it('leaves at least half the pool, rounded down, to the other tools', () => {
    expect([1, 2, 3, 4, 8].map(defaultPerToolConcurrency)).toEqual([1, 1, 2, 2, 4]);
  });
});

describe('a spinning tool and a quick tool on a pool of 2 workers', () => {
  it('the quick call finishes while the first spinner still spins; aborted spinners leave the queue; replacement workers drain the rest', async () => {
    await withRuntime({ threads: 2 }, async (runtime, spinner, quick) => {
      const spinPolicy = resolvePolicy({ timeout_ms: 5000 }, work);
      const events: string[] = [];
      const controllers = Array.from({ length: 50 }, () => new AbortController());
      const spinners: Promise<RunOutcome>[] = controllers.map((controller, index) =>
        runtime.run(spinner, { args: ['loop'], policy: spinPolicy, signal: controller.signal }).then((outcome) => {
          events.push(`spinner ${index} settled`);
          return outcome;
        }),
      );
      await until(() => runtime.stats().running >= 1);
      const answer = await runtime.run(quick, { args: ['quick'], policy: resolvePolicy({}, work) });
      events.push('quick settled');
      expect(decode(answer.stdout)).toBe('{"content":"quick"}\n');
      // On a FIFO pool (or one where a tool may hold every worker) the quick call waits for a spinner's timeout.
      expect(events).toEqual(['quick settled']);
      // The spinning tool holds its share of the pool (1 worker of 2); its other 49 calls wait.
      expect(runtime.stats()).toMatchObject({ running: 1, queued: 49 });

      // The spinners run one after another, each ended at its timeout by terminating its worker.
      const [first, second] = await Promise.all([spinners[0], spinners[1]]);
      expect(first).toMatchObject({ timedOut: true, timeoutMs: 5000 });
      expect(second).toMatchObject({ timedOut: true, timeoutMs: 5000 });
      expect(events.slice(0, 3)).toEqual(['quick settled', 'spinner 0 settled', 'spinner 1 settled']);

      // Cancelling the other 48 empties the queue at once; the running one's worker is terminated.
      await until(() => runtime.stats().running === 1);
      for (const controller of controllers) controller.abort();
      expect(runtime.stats().queued).toBe(0);
      const rest = await Promise.all(spinners.slice(2));
      expect(rest.every((outcome) => outcome.cancelled === true && outcome.timedOut === false)).toBe(true);
      expect(runtime.stats()).toMatchObject({ running: 0, queued: 0 });

      // Three workers were terminated; the pool is back at two and serves calls on both.
      const threadIds = new Set<number>();
      for (let round = 0; round < 10 && threadIds.size < 2; round += 1) {
        const outcomes = await Promise.all([quick, spinner].map((component) => runtime.run(component, { args: ['print', 'after'], policy: resolvePolicy({}, work) })));
        for (const outcome of outcomes) {
          expect(outcome.exitCode).toBe(0);
          threadIds.add(outcome.workerThreadId ?? -1);
        }
      }
      expect(threadIds.size).toBe(2);
    });
  }, 180_000);

  it('a call cancelled while queued leaves the queue at once and never runs', async () => {
    await withRuntime({ threads: 1 }, async (runtime, spinner) => {
      const events: string[] = [];
      const running = new AbortController();
      const spinning = runtime.run(spinner, { args: ['loop'], policy: resolvePolicy({ timeout_ms: 10_000 }, work), signal: running.signal }).then((outcome) => {
        events.push('spinner settled');
        return outcome;
      });
      await until(() => runtime.stats().running === 1);
      const controllers = [new AbortController(), new AbortController(), new AbortController()];
      const queued = controllers.map((controller, index) =>
        runtime.run(spinner, { args: ['print', `queued ${index}`], policy: resolvePolicy({}, work), signal: controller.signal }).then((outcome) => {
          events.push(`queued ${index} settled`);
          return outcome;
        }),
      );
      const queuedBefore = runtime.stats().queued;
      controllers[0]?.abort();
      controllers[2]?.abort();
      const queuedAfter = runtime.stats().queued;
      const [cancelledFirst, cancelledLast] = await Promise.all([queued[0], queued[2]]);
      expect(cancelledFirst).toMatchObject({ cancelled: true, exitCode: null });
      expect(cancelledLast).toMatchObject({ cancelled: true, exitCode: null });
      expect(cancelledFirst?.workerThreadId).toBeUndefined();
      // They settled while the spinner still held the only worker, and left the queue as they were cancelled.
      expect(events).toEqual(['queued 0 settled', 'queued 2 settled']);
      expect([queuedBefore, queuedAfter]).toEqual([3, 1]);

      // Cancelling the running spinner terminates its worker; the queued call runs on the replacement.
      running.abort();
      expect(await spinning).toMatchObject({ cancelled: true });
      const survivor = await queued[1];
      expect(decode(survivor?.stdout ?? new Uint8Array())).toBe('queued 1');
      expect(events).toEqual(['queued 0 settled', 'queued 2 settled', 'spinner settled', 'queued 1 settled']);
      expect(runtime.stats()).toMatchObject({ running: 0, queued: 0 });
    });
  }, 180_000);

  it('with the share raised to the whole pool, a queued quick call still goes before the spinner backlog', async () => {
    await withRuntime({ threads: 2, maxConcurrentCallsPerTool: 2 }, async (runtime, spinner, quick) => {
      const events: string[] = [];
      // A spinner's timeout is the margin the quick call has on a loaded machine (a replacement worker boots and is
      // warmed with the tools before it takes the quick call): 6 s, not a tight 1.5 s.
      const spinPolicy = resolvePolicy({ timeout_ms: 6000 }, work);
      const spinners = Array.from({ length: 6 }, (_, index) =>
        runtime.run(spinner, { args: ['loop'], policy: spinPolicy }).then((outcome) => {
          events.push(`spinner ${index} settled`);
          return outcome;
        }),
      );
      await until(() => runtime.stats().running === 2);
      expect(runtime.stats().queued).toBe(4);
      const answer = await runtime.run(quick, { args: ['after one spinner'], policy: resolvePolicy({}, work) });
      events.push('quick settled');
      expect(decode(answer.stdout)).toBe('{"content":"after one spinner"}\n');
      // The pool was all spinners, so the quick call waited for one timeout, but not for the backlog.
      expect(events.indexOf('quick settled')).toBeLessThanOrEqual(2);
      await Promise.all(spinners);
    });
  }, 180_000);
});
