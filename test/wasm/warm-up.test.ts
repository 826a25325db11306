import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createWasmRuntime } from '../../src/wasm/runtime.ts';

it('warmUp boots the worker pool before the first call, once', async () => {
  const work = await mkdtemp(join(tmpdir(), 'toolhost-warm-'));
  const runtime = createWasmRuntime({ cacheDirectory: work, threads: 1 });
  expect(runtime.stats().generations).toBe(0);
  runtime.warmUp();
  runtime.warmUp();
  expect(runtime.stats().generations).toBe(1);
  await runtime.close();
  runtime.warmUp();
  expect(runtime.stats().generations).toBe(1);
  await rm(work, { recursive: true, force: true });
});
