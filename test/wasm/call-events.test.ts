/**
 * A wasm call's events at the runtime's level, both runtimes: the worker pool (events over a
 * MessageChannel from the worker, opened only for a call that listens) and the in-process runtime
 * (the tap calls the listener directly). The real progress-report component; the result's stderr
 * never holds the progress lines, whether or not anyone listened.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallEvents, CallProgress } from '../../src/call-events.ts';
import { resolvePolicy } from '../../src/policy.ts';
import { createInProcessRuntime } from '../../src/wasm/in-process.ts';
import { mapRunOutcome } from '../../src/wasm/result-mapping.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';

const build = join(import.meta.dirname, '../fixtures/build');
let work: string;
const runtimes: Array<[string, () => WasmRuntime]> = [
  ['worker pool', () => createWasmRuntime({ threads: 1, cacheDirectory: join(work, 'cache-pool') })],
  ['in process', () => createInProcessRuntime({ cacheDirectory: join(work, 'cache-in-process'), tierUp: true })],
];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-call-events-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function recording(): { events: CallEvents; progress: CallProgress[]; lines: string[] } {
  const progress: CallProgress[] = [];
  const lines: string[] = [];
  return { events: { progress: (update) => progress.push(update), stderrLine: (line) => lines.push(line) }, progress, lines };
}

describe.each(runtimes)('%s', (_label, create) => {
  let runtime: WasmRuntime;
  beforeAll(() => {
    runtime = create();
  });
  afterAll(async () => {
    await runtime.close();
  });

  it('delivers progress and stderr lines to a listener, all of them before the call settles', async () => {
    const component = await runtime.load(join(build, 'progress-report.wasm'));
    const { events, progress, lines } = recording();
    const outcome = await runtime.run(component, { args: ['steps', '3'], policy: resolvePolicy({}, work), events });
    expect(outcome.exitCode).toBe(0);
    expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
    expect(lines).toEqual(['info: step 1', 'info: step 2', 'info: step 3']);
    expect(mapRunOutcome(outcome).metadata?.['stderr']).toBe('info: step 1\ninfo: step 2\ninfo: step 3');
  }, 60_000);

  it('a call nobody listens to has the same result', async () => {
    const component = await runtime.load(join(build, 'progress-report.wasm'));
    const outcome = await runtime.run(component, { args: ['steps', '3'], policy: resolvePolicy({}, work) });
    expect(mapRunOutcome(outcome)).toMatchObject({ content: '3 steps done', is_error: false, metadata: { stderr: 'info: step 1\ninfo: step 2\ninfo: step 3' } });
  }, 60_000);

  it('a listener for progress only gets no lines', async () => {
    const component = await runtime.load(join(build, 'progress-report.wasm'));
    const progress: CallProgress[] = [];
    await runtime.run(component, { args: ['steps', '2'], policy: resolvePolicy({}, work), events: { progress: (update) => progress.push(update) } });
    expect(progress.map((update) => update.progress)).toEqual([1, 2]);
  }, 60_000);
});
