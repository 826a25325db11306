/**
 * wasip1 core modules on toolhost's preview1 host answer exactly as the reference runtime does:
 * stdout, stderr and exit code of each case in reference-cases.ts equal wasmtime's, live when the
 * wasmtime CLI is installed (see findWasmtime) and always against the answers recorded from it
 * (expected.json). Runs through the real runtime: the load that caches the module, and calls both on
 * this thread and in the worker pool. The heap-spew module is the one the preview1 adapter broke:
 * under the adapter every call of it trapped ("assertion failed at adapter line 2745").
 */
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../../src/policy.ts';
import { loadComponent } from '../../../src/wasm/load.ts';
import { createWasmRuntime, type WasmRuntime } from '../../../src/wasm/runtime.ts';
import type { RunOutcome } from '../../../src/wasm/run-types.ts';
import { answerOf, CASES, findWasmtime, FIXTURES, makeDataFolder, PROGRAM_NAME, readExpected, runWasmtime, type ReferenceCase } from './reference-cases.ts';

let work: string;
let runtime: WasmRuntime;
const wasmtime = findWasmtime();
const expected = readExpected();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-preview1-reference-'));
  runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1 });
});

afterAll(async () => {
  await runtime?.close();
  await rm(work, { recursive: true, force: true });
});

async function runOnToolhost(testCase: ReferenceCase, where: 'in-process' | 'pool'): Promise<RunOutcome> {
  const component = await runtime.load(join(FIXTURES, testCase.file));
  expect(component.execution).toBe('preview1');
  const folder = testCase.grant ? makeDataFolder() : undefined;
  try {
    const policy = resolvePolicy(
      { env: testCase.env ?? {}, fs: folder === undefined ? [] : [{ host: folder, guest: '/data', mode: 'rw' }] },
      work,
    );
    const options = { args: testCase.args, policy, programName: PROGRAM_NAME, ...(testCase.stdin === undefined ? {} : { stdin: new TextEncoder().encode(testCase.stdin) }) };
    return where === 'pool' ? await runtime.run(component, options) : await runtime.runInProcess(component, options);
  } finally {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  }
}

describe('the preview1 host against the reference runtime', { timeout: 120_000 }, () => {
  it('has a recorded answer for every case', () => {
    expect(Object.keys(expected).sort()).toEqual(CASES.map((testCase) => testCase.name).sort());
  });

  for (const testCase of CASES) {
    it(`${testCase.name}: same stdout, stderr and exit code, in process and in the pool`, async () => {
      const reference = expected[testCase.name];
      if (wasmtime !== undefined) expect(runWasmtime(wasmtime, testCase, PROGRAM_NAME), 'wasmtime now vs recorded').toEqual(reference);
      for (const where of ['in-process', 'pool'] as const) {
        const outcome = await runOnToolhost(testCase, where);
        expect(outcome.trap, where).toBeUndefined();
        expect(answerOf(outcome.exitCode ?? -1, outcome.stdout, outcome.stderr), where).toEqual(reference);
      }
    });
  }

  it('the same heap-spew module traps under the preview1 adapter (why the host exists)', async () => {
    const adapted = await loadComponent(join(FIXTURES, 'heap-spew-producers.core.wasm'), { cacheDirectory: join(work, 'adapter-cache'), preview1Adapter: true });
    expect(adapted.execution).toBe('component');
    const outcome = await runtime.runInProcess(adapted, { args: ['call-0'], policy: resolvePolicy({}, work), programName: PROGRAM_NAME });
    expect(outcome.trap).toBeDefined();
    expect(new TextDecoder().decode(outcome.stderr)).toMatch(/assertion failed at adapter line \d+/);
  });
});
