import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../src/policy.ts';
import { patchGlue } from '../../src/wasm/glue-patches.ts';
import type { LoadedComponent } from '../../src/wasm/load.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';

const build = join(import.meta.dirname, '../fixtures/build');
let work: string;
let runtime: WasmRuntime;
let envTool: LoadedComponent;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-glue-'));
  runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1 });
  envTool = await runtime.load(join(build, 'wasi-env.wasm'));
});

afterAll(async () => {
  await runtime.close();
  await rm(work, { recursive: true, force: true });
});

describe('glue patches', () => {
  it('removes the empty-string realloc shortcut from glue source', () => {
    const source = 'function utf8Encode(s, realloc, memory) {\n    if (s.length === 0) {\n      utf8EncodedLen = 0;\n      return 1;\n    }\n    rest();\n}';
    expect(patchGlue(source)).not.toContain('s.length === 0');
    expect(patchGlue(source)).toContain('rest();');
  });

  it('passes empty environment values through intact (the guest sees A= and B=1 separately)', async () => {
    const policy = resolvePolicy({ env: { A: '', B: '1', C: '' } }, work);
    const outcome = await runtime.run(envTool, { args: [], policy });
    const lines = new TextDecoder().decode(outcome.stdout).split('\n');
    expect(lines.filter((line) => line.startsWith('env='))).toEqual(['env=A=', 'env=B=1', 'env=C=']);
    expect(lines).toContain('envc=3');
  });

  it('passes an empty argument as its own argv entry', async () => {
    const outcome = await runtime.run(envTool, { args: ['', 'x'], policy: resolvePolicy({}, work) });
    const lines = new TextDecoder().decode(outcome.stdout).split('\n');
    expect(lines).toContain('arg[1]=');
    expect(lines).toContain('arg[2]=x');
  });
});
