import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolHostError } from '../../src/errors.ts';
import { resolvePolicy } from '../../src/policy.ts';
import { loadComponent } from '../../src/wasm/load.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
let work: string;
let runtime: WasmRuntime;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-load-'));
  runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1 });
});

afterAll(async () => {
  await runtime.close();
  await rm(work, { recursive: true, force: true });
});

/** Assembles a component from the WebAssembly text format with jco's bundled wasm-tools. */
async function componentFromText(text: string): Promise<Uint8Array> {
  const jco = (await import('@bytecodealliance/jco' as string)) as { parse(wat: string): Promise<Uint8Array> };
  return jco.parse(text);
}

async function expectLoadError(file: string, code: 'WASM_LOAD_FAILED' | 'WASM_UNSUPPORTED_IMPORT', reason: RegExp): Promise<void> {
  const error = await runtime.load(file).catch((caught: unknown) => caught);
  expect(ToolHostError.is(error, code)).toBe(true);
  expect((error as Error).message).toContain(file);
  expect((error as Error).message).toMatch(reason);
}

describe('loading', () => {
  it('loads a component, reports its imports and a stable version id', async () => {
    // rt-echo.wasm is a C command wrapped with the preview1 adapter: the adapter-path runtime keeps it a component.
    const adapterRuntime = createWasmRuntime({ cacheDirectory: join(work, 'adapter-cache'), threads: 1, preview1Adapter: true });
    try {
      const component = await adapterRuntime.load(join(build, 'rt-echo.wasm'));
      expect(component.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(component.sourceKind).toBe('component');
      expect(component.execution).toBe('component');
      expect(component.imports).toContain('wasi:cli/stdout');
      expect(component.imports.every((name) => name.startsWith('wasi:'))).toBe(true);
      const outcome = await adapterRuntime.run(component, { args: ['a', 'b'], policy: resolvePolicy({}, work) });
      expect(decode(outcome.stdout)).toBe('{"content":"a b"}\n');
    } finally {
      await adapterRuntime.close();
    }
  });

  it('runs a component that only wraps a wasip1 command with the preview1 adapter as its inner module, with the same output', async () => {
    const component = await runtime.load(join(build, 'rt-echo.wasm'));
    expect(component.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(component.sourceKind).toBe('wasip1-core-module');
    expect(component.execution).toBe('preview1');
    expect(component.imports).toContain('wasi:cli/stdout');
    const outcome = await runtime.run(component, { args: ['a', 'b'], policy: resolvePolicy({}, work) });
    expect(decode(outcome.stdout)).toBe('{"content":"a b"}\n');
    // A native wasip2 component (Rust) is not unwrapped.
    expect((await runtime.load(join(build, 'http-fetch.wasm'))).execution).toBe('component');
  });

  it('wraps a wasip1 command core module with the command adapter, and it runs', async () => {
    const component = await runtime.load(join(build, 'rt-echo.core.wasm'));
    expect(component.sourceKind).toBe('wasip1-core-module');
    const outcome = await runtime.run(component, { args: ['core'], policy: resolvePolicy({}, work) });
    expect(outcome.exitCode).toBe(0);
    expect(decode(outcome.stdout)).toBe('{"content":"core"}\n');
  });

  it('refuses garbage, truncated files and non-command core modules with clear errors; others still load', async () => {
    const garbage = join(work, 'garbage.wasm');
    await writeFile(garbage, 'this is not wasm at all, just text');
    const truncated = join(work, 'truncated.wasm');
    const hello = await readFile(join(build, 'hello.wasm'));
    await writeFile(truncated, hello.subarray(0, Math.floor(hello.length / 2)));
    const library = join(work, 'library.wasm');
    await writeFile(library, Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00));
    const missing = join(work, 'missing.wasm');
    const results = await Promise.allSettled([garbage, truncated, library, missing, join(build, 'hello.wasm')].map((file) => runtime.load(file)));
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected', 'fulfilled']);
    await expectLoadError(garbage, 'WASM_LOAD_FAILED', /bad magic/);
    await expectLoadError(truncated, 'WASM_LOAD_FAILED', /truncated/);
    await expectLoadError(library, 'WASM_LOAD_FAILED', /not a wasip1 command.*_start/);
    await expectLoadError(missing, 'WASM_LOAD_FAILED', /ENOENT/);
  });

  it('refuses a component importing a non-WASI interface, and one without wasi:cli/run', async () => {
    const foreign = join(work, 'foreign.wasm');
    await writeFile(
      foreign,
      await componentFromText(`(component
        (import "acme:secrets/vault" (instance (export "open" (func))))
        (core module $m (func (export "run") (result i32) i32.const 0))
        (core instance $i (instantiate $m))
        (func $run (result (result)) (canon lift (core func $i "run")))
        (instance $r (export "run" (func $run)))
        (export "wasi:cli/run@0.2.3" (instance $r)))`),
    );
    await expectLoadError(foreign, 'WASM_UNSUPPORTED_IMPORT', /acme:secrets\/vault/);
    const library = join(work, 'no-run.wasm');
    await writeFile(
      library,
      await componentFromText(`(component
        (core module $m (func (export "f") (result i32) i32.const 7))
        (core instance $i (instantiate $m))
        (func $f (result u32) (canon lift (core func $i "f")))
        (export "f" (func $f)))`),
    );
    await expectLoadError(library, 'WASM_LOAD_FAILED', /does not export wasi:cli\/run/);
  });

  it('transpiles once per version: a second load (and a restart) reads the disk cache', async () => {
    const cacheDirectory = join(work, 'fresh-cache');
    const file = join(work, 'copy.wasm');
    await writeFile(file, await readFile(join(build, 'rt-echo.wasm')));
    const first = await loadComponent(file, { cacheDirectory });
    expect(first.transpiled).toBe(true);
    const entries = await readdir(cacheDirectory);
    expect(entries.filter((name) => name.startsWith(first.sha256))).toHaveLength(1);
    expect(entries.filter((name) => name.startsWith('.tmp-'))).toEqual([]);
    const second = await loadComponent(file, { cacheDirectory });
    expect(second.transpiled).toBe(false);
    expect(second.gluePath).toBe(first.gluePath);
    const restarted = createWasmRuntime({ cacheDirectory, threads: 1 });
    try {
      const third = await restarted.load(file);
      expect(third.transpiled).toBe(false);
      const outcome = await restarted.run(third, { args: ['cached'], policy: resolvePolicy({}, work) });
      expect(decode(outcome.stdout)).toBe('{"content":"cached"}\n');
    } finally {
      await restarted.close();
    }
  });
});
