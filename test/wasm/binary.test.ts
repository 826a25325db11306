import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readBinaryKind, readBinaryLayout } from '../../src/wasm/binary-sections.ts';
import { readCoreModuleInterface, wasip1CommandProblem } from '../../src/wasm/core-module.ts';
import { decodeUnsigned, encodeUnsigned } from '../../src/wasm/leb128.ts';
import { capMemoryPages, MemoryCapError } from '../../src/wasm/memory-limit.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const section = (id: number, payload: number[]) => [id, ...encodeUnsigned(payload.length), ...payload];
const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const name = (text: string) => [...encodeUnsigned(text.length), ...new TextEncoder().encode(text)];

// The project's TypeScript lib has no WebAssembly declarations: reach the global untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const WA = (globalThis as any).WebAssembly;

/** Instantiates `bytes` (importing `env.memory` when asked) and measures its memory's limits by growing it. */
function memoryLimitsOf(bytes: Uint8Array, provided: unknown = new WA.Memory({ initial: 1 })): { minimum: number; maximum?: number } {
  const instance = new WA.Instance(new WA.Module(bytes), { env: { memory: provided } });
  const memory = instance.exports.memory;
  const minimum = memory.buffer.byteLength / 65536;
  let pages = minimum;
  while (pages < 2000) {
    try {
      memory.grow(1);
    } catch {
      return { minimum, maximum: pages };
    }
    pages += 1;
  }
  return { minimum };
}

describe('LEB128', () => {
  it('round-trips every u32', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (value) => {
        const encoded = encodeUnsigned(value);
        expect(decodeUnsigned(encoded, 0)).toEqual({ value, next: encoded.length });
      }),
    );
  });

  it('decodes known encodings and refuses truncation and overflow', () => {
    expect(Array.from(encodeUnsigned(624485))).toEqual([0xe5, 0x8e, 0x26]);
    expect(decodeUnsigned(Uint8Array.of(0x80, 0x80, 0x01), 0)).toEqual({ value: 16384, next: 3 });
    expect(() => decodeUnsigned(Uint8Array.of(0x80, 0x80), 0)).toThrow(/truncated/);
    expect(() => decodeUnsigned(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x7f), 0)).toThrow(/32 bits/);
    expect(() => encodeUnsigned(-1)).toThrow(RangeError);
  });
});

describe('binary framing', () => {
  it('tells components from core modules and refuses garbage and truncation', () => {
    expect(readBinaryKind(readFileSync(join(build, 'hello.wasm')))).toBe('component');
    expect(readBinaryKind(readFileSync(join(build, 'hello.core.wasm')))).toBe('core-module');
    expect(() => readBinaryKind(new TextEncoder().encode('#!/bin/sh\necho hi\n'))).toThrow(/magic/);
    expect(() => readBinaryKind(Uint8Array.of(0, 0x61))).toThrow(/too short/);
    const hello = readFileSync(join(build, 'hello.wasm'));
    expect(() => readBinaryLayout(hello.subarray(0, hello.length - 100))).toThrow(/truncated/);
    expect(readBinaryLayout(hello).sections.length).toBeGreaterThan(3);
  });

  it('recognises a wasip1 command core module and explains other core modules', () => {
    const hello = readCoreModuleInterface(readFileSync(join(build, 'hello.core.wasm')));
    expect(hello.exports).toContainEqual({ name: '_start', kind: 'func' });
    expect(hello.imports.every((entry) => entry.module === 'wasi_snapshot_preview1')).toBe(true);
    expect(wasip1CommandProblem(hello)).toBeUndefined();
    const empty = readCoreModuleInterface(Uint8Array.from(header));
    expect(wasip1CommandProblem(empty)).toMatch(/no _start/);
  });
});

describe('memory cap rewriter', () => {
  const limits = (minimum: number, maximum: number | undefined) =>
    maximum === undefined ? [0x00, ...encodeUnsigned(minimum)] : [0x01, ...encodeUnsigned(minimum), ...encodeUnsigned(maximum)];
  // (module (memory 2 [max]) (export "memory" (memory 0)))
  const definedMemory = (maximum: number | undefined) =>
    Uint8Array.from([...header, ...section(5, [1, ...limits(2, maximum)]), ...section(7, [1, ...name('memory'), 0x02, 0])]);
  // (module (import "env" "memory" (memory 1 [max])) (export "memory" (memory 0)))
  const importedMemory = (maximum: number | undefined) =>
    Uint8Array.from([
      ...header,
      ...section(2, [1, ...name('env'), ...name('memory'), 0x02, ...limits(1, maximum)]),
      ...section(7, [1, ...name('memory'), 0x02, 0]),
    ]);

  it('caps a defined memory: sets a maximum where none was, lowers larger ones, keeps smaller ones', () => {
    expect(memoryLimitsOf(definedMemory(undefined))).toEqual({ minimum: 2 });
    expect(memoryLimitsOf(capMemoryPages(definedMemory(undefined), 10))).toEqual({ minimum: 2, maximum: 10 });
    expect(memoryLimitsOf(capMemoryPages(definedMemory(60000), 10))).toEqual({ minimum: 2, maximum: 10 });
    expect(memoryLimitsOf(capMemoryPages(definedMemory(3), 10))).toEqual({ minimum: 2, maximum: 3 });
  });

  it('caps an imported memory consistently, so a memory above the cap no longer links', () => {
    const capped = capMemoryPages(importedMemory(undefined), 10);
    expect(WA.validate(capped)).toBe(true);
    const descriptor = WA.Module.imports(new WA.Module(capped));
    expect(descriptor).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
    expect(() => new WA.Instance(new WA.Module(capped), { env: { memory: new WA.Memory({ initial: 1 }) } })).toThrow();
    const fits = new WA.Instance(new WA.Module(capped), { env: { memory: new WA.Memory({ initial: 1, maximum: 10 }) } });
    expect(fits.exports.memory.buffer.byteLength).toBe(65536);
    expect(memoryLimitsOf(capMemoryPages(importedMemory(500), 10), new WA.Memory({ initial: 1, maximum: 10 }))).toEqual({ minimum: 1, maximum: 10 });
  });

  it('keeps memory-free modules unchanged and refuses minimums above the cap', () => {
    const empty = Uint8Array.from(header);
    expect(capMemoryPages(empty, 4)).toBe(empty);
    expect(() => capMemoryPages(definedMemory(undefined), 1)).toThrow(MemoryCapError);
  });

  it('keeps a real C module valid', () => {
    const capped = capMemoryPages(readFileSync(join(build, 'hello.core.wasm')), 16);
    expect(WA.validate(capped)).toBe(true);
    expect(readCoreModuleInterface(capped).exports).toContainEqual({ name: '_start', kind: 'func' });
  });
});
