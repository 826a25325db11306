/**
 * Pristine memories (src/wasm/preview1/imported-memory.ts, memory-pool.ts): a preview1 module is
 * rewritten to import its memory and each call gets one no earlier call can be seen in. Written as a
 * guest that tries to read what the previous call left: its stack-and-heap bytes, the top of the
 * memory, a data segment it overwrote, pages it grew — on this thread and through the worker pool,
 * after a normal exit, a trap and a non-zero exit.
 */
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../../src/policy.ts';
import { importDefinedMemory, PRISTINE_MEMORY_MODULE } from '../../../src/wasm/preview1/imported-memory.ts';
import { mergeDataSegments } from '../../../src/wasm/preview1/merged-data.ts';
import { createWasmRuntime, type WasmRuntime } from '../../../src/wasm/runtime.ts';
import type { LoadedComponent } from '../../../src/wasm/load.ts';
import type { RunOutcome } from '../../../src/wasm/run-types.ts';

const build = join(import.meta.dirname, '../../fixtures/build');
const WebAssembly = (globalThis as unknown as {
  WebAssembly: {
    Module: (new (bytes: Uint8Array) => object) & {
      imports(module: object): { module: string; name: string; kind: string }[];
      exports(module: object): { name: string; kind: string }[];
    };
    validate(bytes: Uint8Array): boolean;
  };
}).WebAssembly;

async function moduleFromText(text: string): Promise<Uint8Array> {
  const jco = (await import('@bytecodealliance/jco' as string)) as { parse(wat: string): Promise<Uint8Array> };
  return jco.parse(text);
}

/**
 * The snoop: prints memory.size, then 16 bytes at 1024 (where the last call wrote), the last 16
 * bytes of its first page, the 4-byte data segment at 2048; then writes "SECRET" over all three,
 * grows the memory by `grow` pages and writes into the new page; ends by exit code, trap or return
 * as argv[1] says ("exit3", "trap", anything else returns).
 */
const SNOOP = `(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_get" (func $args_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 1 4)
  (data (i32.const 2048) "DATA")
  (func $emit (param $ptr i32) (param $len i32)
    (i32.store (i32.const 0) (local.get $ptr))
    (i32.store (i32.const 4) (local.get $len))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func $fill (param $at i32)
    (i64.store (local.get $at) (i64.const 0x5445524345534553))
    (i64.store (i32.add (local.get $at) (i32.const 8)) (i64.const 0x5445524345534553)))
  (func (export "_start") (local $mode i32)
    (i32.store8 (i32.const 16) (i32.add (i32.const 48) (memory.size)))
    (call $emit (i32.const 16) (i32.const 1))
    (call $emit (i32.const 1024) (i32.const 16))
    (call $emit (i32.const 65520) (i32.const 16))
    (call $emit (i32.const 2048) (i32.const 4))
    (call $fill (i32.const 1024))
    (call $fill (i32.const 65520))
    (i32.store (i32.const 2048) (i32.const 0x58585858))
    ;; argv[1]'s first byte: 'e' exits 3, 't' traps, 'g' grows a page and writes in it
    (drop (call $args_sizes_get (i32.const 32) (i32.const 36)))
    (drop (call $args_get (i32.const 40) (i32.const 256)))
    (local.set $mode (if (result i32) (i32.ge_u (i32.load (i32.const 32)) (i32.const 2))
      (then (i32.load8_u (i32.load (i32.const 44)))) (else (i32.const 0))))
    (if (i32.eq (local.get $mode) (i32.const 103))
      (then (drop (memory.grow (i32.const 1))) (call $fill (i32.const 65536)) (call $fill (i32.const 131056))))
    (if (i32.eq (local.get $mode) (i32.const 101)) (then (call $proc_exit (i32.const 3))))
    (if (i32.eq (local.get $mode) (i32.const 116)) (then unreachable))))`;

/** What a guest sees in a memory no call has touched: size 1, zeros, the data segment. */
const PRISTINE = `1${'\0'.repeat(32)}DATA`;

describe('importDefinedMemory', () => {
  it('turns the defined memory into an import with the same limits and keeps everything else', async () => {
    const bytes = await moduleFromText(SNOOP);
    const rewritten = importDefinedMemory(bytes);
    expect(rewritten).toMatchObject({ minimumPages: 1, maximumPages: 4 });
    expect(WebAssembly.validate(rewritten!.bytes)).toBe(true);
    const module = new WebAssembly.Module(rewritten!.bytes);
    expect(WebAssembly.Module.imports(module).filter((entry) => entry.kind === 'memory')).toEqual([{ module: PRISTINE_MEMORY_MODULE, name: 'memory/1/4', kind: 'memory' }]);
    expect(WebAssembly.Module.exports(module)).toEqual(WebAssembly.Module.exports(new WebAssembly.Module(bytes)));
  });

  it('rewrites real toolchains\' modules (clang + wasi-libc, standard Go) into valid modules', async () => {
    for (const name of ['rt-echo.core.wasm', 'heap-spew-producers.core.wasm', 'go-greet.core.wasm']) {
      const { capMemoryPages } = await import('../../../src/wasm/memory-limit.ts');
      const rewritten = importDefinedMemory(capMemoryPages(await readFile(join(build, name)), 4096));
      expect(rewritten, name).toBeDefined();
      expect(WebAssembly.validate(rewritten!.bytes), name).toBe(true);
    }
  });

  it('leaves modules alone that import a memory, define none, or have no maximum', async () => {
    expect(importDefinedMemory(await moduleFromText('(module (import "env" "memory" (memory 1 2)) (func (export "_start")))'))).toBeUndefined();
    expect(importDefinedMemory(await moduleFromText('(module (func (export "_start")))'))).toBeUndefined();
    expect(importDefinedMemory(await moduleFromText('(module (memory 1) (func (export "_start")))'))).toBeUndefined();
  });

  it('adds an import section to a module that had none', async () => {
    const rewritten = importDefinedMemory(await moduleFromText('(module (type (func)) (memory (export "memory") 2 3) (func (export "_start")))'));
    expect(WebAssembly.Module.imports(new WebAssembly.Module(rewritten!.bytes))).toEqual([{ module: PRISTINE_MEMORY_MODULE, name: 'memory/2/3', kind: 'memory' }]);
  });
});

describe('a call cannot see the memory of an earlier call', () => {
  let work: string;
  let runtime: WasmRuntime;
  let snoop: LoadedComponent;
  const decode = (outcome: RunOutcome) => new TextDecoder().decode(outcome.stdout);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'toolhost-pristine-'));
    await writeFile(join(work, 'snoop.wasm'), await moduleFromText(SNOOP));
    runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1 });
    snoop = await runtime.load(join(work, 'snoop.wasm'));
    expect(snoop.execution).toBe('preview1');
  }, 120_000);

  afterAll(async () => {
    await runtime.close();
    await rm(work, { recursive: true, force: true });
  });

  const policy = () => resolvePolicy({ memory_mb: 1 }, work);

  for (const mode of ['return', 'exit3', 'trap', 'grow']) {
    it(`after a call that ends by ${mode}: on this thread and in the worker pool`, async () => {
      for (const run of [runtime.runInProcess, runtime.run]) {
        const first = await run(snoop, { args: [mode], policy: policy() });
        expect(first.exitCode === 0 || first.exitCode === 3 || first.trap !== undefined).toBe(true);
        for (let call = 0; call < 3; call++) {
          const next = await run(snoop, { args: ['return'], policy: policy() });
          expect(next.exitCode).toBe(0);
          expect(decode(next)).toBe(PRISTINE);
        }
      }
    });
  }

  it('a call that grew the memory is followed by one at the declared size', async () => {
    await runtime.runInProcess(snoop, { args: ['grow'], policy: policy() });
    const next = await runtime.runInProcess(snoop, { args: ['grow'], policy: policy() });
    expect(decode(next)).toBe(PRISTINE);
  });

  it('the cap still holds: a guest cannot grow past memory_mb', async () => {
    // 1 MiB = 16 pages but the module's own maximum is 4: growing by one page from 1 is fine; the cap is below the module maximum here
    const capped = await runtime.runInProcess(snoop, { args: ['grow'], policy: resolvePolicy({ memory_mb: 0.0625 }, work) });
    // a 1-page cap: memory.grow fails (returns -1), the guest's writes to the page it did not get trap
    expect(capped.trap).toMatch(/out of bounds/);
  });
});

describe('mergeDataSegments', () => {
  /** The memory a module's instantiation leaves (its data segments written), as bytes. */
  function memoryAfterInstantiation(bytes: Uint8Array): Uint8Array {
    const api = (globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => object; Instance: new (m: object, i: object) => { exports: Record<string, { buffer: ArrayBuffer }> } } }).WebAssembly;
    const module = new api.Module(bytes);
    const stubs: Record<string, () => number> = {};
    for (const entry of WebAssembly.Module.imports(module)) stubs[entry.name] = () => 0;
    const instance = new api.Instance(module, { wasi_snapshot_preview1: stubs });
    return new Uint8Array(instance.exports['memory']!.buffer.slice(0));
  }

  it('gives standard Go\'s ~36,000 segments as a few, with the same memory after instantiation', async () => {
    const bytes = new Uint8Array(await readFile(join(build, 'go-greet.core.wasm')));
    const merged = mergeDataSegments(bytes);
    expect(merged).toBeDefined();
    expect(WebAssembly.validate(merged!)).toBe(true);
    expect(Buffer.compare(memoryAfterInstantiation(merged!), memoryAfterInstantiation(bytes))).toBe(0);
  });

  it('merges out-of-order segments with small gaps, keeps far ones apart, and fills gaps with zeros', async () => {
    const text = `(module (memory (export "memory") 2)
      (data (i32.const 100) "B") (data (i32.const 10) "A") (data (i32.const 70000) "C") (data (i32.const 101) "bb"))`;
    const bytes = await moduleFromText(text);
    const merged = mergeDataSegments(bytes);
    expect(merged).toBeDefined();
    const memory = memoryAfterInstantiation(merged!);
    expect(Buffer.compare(memory, memoryAfterInstantiation(bytes))).toBe(0);
    expect(new TextDecoder().decode(memory.subarray(100, 103))).toBe('Bbb');
    expect(memory.subarray(11, 100).every((byte) => byte === 0)).toBe(true);
  });

  it('leaves overlapping segments, passive ones and offsets from globals alone', async () => {
    expect(mergeDataSegments(await moduleFromText('(module (memory 1) (data (i32.const 0) "abc") (data (i32.const 1) "X"))'))).toBeUndefined();
    expect(mergeDataSegments(await moduleFromText('(module (memory 1) (data (i32.const 0) "abc") (data "passive"))'))).toBeUndefined();
    expect(mergeDataSegments(await moduleFromText('(module (import "env" "base" (global i32)) (memory 1) (data (global.get 0) "a") (data (i32.const 9) "b"))'))).toBeUndefined();
  });

  it('still fails the instantiation when a segment lies past the memory, as the original does', async () => {
    const bytes = await moduleFromText('(module (memory (export "memory") 1) (data (i32.const 10) "a") (data (i32.const 20) "b") (data (i32.const 65537) ""))');
    const merged = mergeDataSegments(bytes);
    expect(merged).toBeDefined();
    expect(() => memoryAfterInstantiation(bytes)).toThrow();
    expect(() => memoryAfterInstantiation(merged!)).toThrow();
  });
});
