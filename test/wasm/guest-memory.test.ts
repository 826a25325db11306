import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTER_REALLOC_EXPORT, MEMORY_EXHAUSTED_EXPORT, routeGuestMemory } from '../../src/wasm/guest-memory.ts';

const build = join(import.meta.dirname, '../fixtures/build');
// The project's lib settings declare no WebAssembly namespace: the slice used here.
const WebAssembly = (globalThis as unknown as { WebAssembly: {
  Module: (new (bytes: Uint8Array) => object) & { exports(module: object): { name: string; kind: string }[] };
  Instance: new (module: object) => { exports: unknown };
} }).WebAssembly;
const PAGE = 65536;

/** Assembles a core module from the WebAssembly text format with jco's bundled wasm-tools. */
async function moduleFromText(text: string): Promise<Uint8Array> {
  const jco = (await import('@bytecodealliance/jco' as string)) as { parse(wat: string): Promise<Uint8Array> };
  return jco.parse(text);
}

interface RoutedExports {
  memory: { buffer: ArrayBuffer };
  size(): number;
  grow(pages: number): number;
  cabi_realloc(old: number, oldSize: number, align: number, size: number): number;
  toolhost_memory_exhausted: { value: number };
}

const GUEST = `(module
  (memory (export "memory") 2 8)
  (func (export "size") (result i32) memory.size)
  (func (export "grow") (param i32) (result i32) (if (i32.eqz (local.get 0)) (then (nop))) local.get 0 memory.grow)
  (func (export "_start")))`;

describe('routing the guest memory around the adapter pages', () => {
  it('rewrites the one memory.size and the one memory.grow of a standard Go wasip1 binary', async () => {
    const routed = routeGuestMemory(await readFile(join(build, 'go-memory.core.wasm')));
    expect(routed?.routedInstructions).toBe(2);
    const module = new WebAssembly.Module(routed!.bytes);
    const exports = WebAssembly.Module.exports(module).map((entry) => `${entry.name}:${entry.kind}`);
    expect(exports).toEqual(expect.arrayContaining(['_start:function', 'memory:memory', `${ADAPTER_REALLOC_EXPORT}:function`, `${MEMORY_EXHAUSTED_EXPORT}:global`]));
  });

  it('hands the adapter pages from the top of the capped memory and never lets the guest grow into them', async () => {
    const routed = routeGuestMemory(await moduleFromText(GUEST));
    expect(routed?.routedInstructions).toBe(2);
    const instance = new WebAssembly.Instance(new WebAssembly.Module(routed!.bytes));
    const guest = instance.exports as unknown as RoutedExports;
    expect(guest.size()).toBe(2);
    expect(guest.grow(1)).toBe(2); // before the adapter allocates: an ordinary grow
    expect(guest.memory.buffer.byteLength).toBe(3 * PAGE);
    // The adapter's stack and state: the two top pages of the 8-page maximum.
    expect(guest.cabi_realloc(0, 0, 8, PAGE)).toBe(7 * PAGE);
    expect(guest.cabi_realloc(0, 0, 8, PAGE)).toBe(6 * PAGE);
    // The memory is now at its maximum, but the guest still sees only its own 3 pages.
    expect(guest.memory.buffer.byteLength).toBe(8 * PAGE);
    expect(guest.size()).toBe(3);
    expect(guest.grow(3)).toBe(3);
    expect(guest.size()).toBe(6);
    expect(guest.toolhost_memory_exhausted.value).toBe(0);
    // One more page would be the adapter's: refused, and the refusal is recorded.
    expect(guest.grow(1)).toBe(-1);
    expect(guest.size()).toBe(6);
    expect(guest.toolhost_memory_exhausted.value).toBe(1);
  });

  it('leaves modules with their own cabi_realloc, or without memory.grow, alone; refuses instructions it cannot read', async () => {
    expect(routeGuestMemory(await moduleFromText(`(module (memory (export "memory") 1)
      (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32) i32.const 0 memory.grow)
      (func (export "_start")))`))).toBeUndefined();
    expect(routeGuestMemory(await moduleFromText(`(module (memory (export "memory") 1) (func (export "_start")))`))).toBeUndefined();
    await expect(
      moduleFromText(`(module (memory (export "memory") 1)
        (func (export "_start") v128.const i64x2 0 0 drop i32.const 1 memory.grow drop))`).then(routeGuestMemory),
    ).rejects.toThrow(/unsupported instruction 0xfd/);
  });
});

describe('which wasip1 modules are routed', () => {
  it('routes Go (its go:buildid and producers) and stripped modules, and leaves a module clang says is C alone', async () => {
    const { needsMemoryRouting } = await import('../../src/wasm/guest-memory.ts');
    expect(needsMemoryRouting(await readFile(join(build, 'go-greet.core.wasm')))).toBe(true);
    expect(needsMemoryRouting(await readFile(join(build, 'rt-echo.core.wasm')))).toBe(true);
    expect(needsMemoryRouting(await readFile(join(build, 'rt-echo-producers.core.wasm')))).toBe(false);
  });

  it('wraps a C module unrouted and a stripped one routed; both answer the same', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { createWasmRuntime } = await import('../../src/wasm/runtime.ts');
    const { resolvePolicy } = await import('../../src/policy.ts');
    const work = await mkdtemp(join(tmpdir(), 'toolhost-routing-'));
    const runtime = createWasmRuntime({ cacheDirectory: work, threads: 1 });
    try {
      const { loadComponent } = await import('../../src/wasm/load.ts');
      const exportsOfMainModule = async (file: string) => {
        // The adapter path (toolhost runs wasip1 modules on its own preview1 host unless asked for it).
        const component = await loadComponent(join(build, file), { cacheDirectory: work, preview1Adapter: true });
        const main = await readFile(join(component.cacheEntry, component.coreModules[0] as string));
        const outcome = await runtime.run(component, { args: ['routing'], policy: resolvePolicy({}, work) });
        return { exports: WebAssembly.Module.exports(new WebAssembly.Module(main)).map((entry) => entry.name), stdout: new TextDecoder().decode(outcome.stdout) };
      };
      const plain = await exportsOfMainModule('rt-echo-producers.core.wasm');
      const routed = await exportsOfMainModule('rt-echo.core.wasm');
      expect(plain.exports).not.toContain(MEMORY_EXHAUSTED_EXPORT);
      expect(routed.exports).toContain(MEMORY_EXHAUSTED_EXPORT);
      expect(plain.stdout).toBe(routed.stdout);
      expect(plain.stdout).toContain('routing');
    } finally {
      await runtime.close();
      await rm(work, { recursive: true, force: true });
    }
  }, 60_000);
});
