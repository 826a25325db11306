import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitDuplicateImports } from '../../src/wasm/duplicate-imports.ts';

/** A module importing `m.f` twice and `m.g` three times (all `() -> ()`), plus `other.f` twice. */
function moduleWithDuplicates(): Uint8Array {
  const name = (text: string) => [text.length, ...new TextEncoder().encode(text)];
  const importEntry = (module: string, field: string) => [...name(module), ...name(field), 0x00, 0x00];
  const entries = [importEntry('m', 'f'), importEntry('m', 'g'), importEntry('m', 'f'), importEntry('m', 'g'), importEntry('m', 'g'), importEntry('other', 'f'), importEntry('other', 'f')];
  const importPayload = [entries.length, ...entries.flat()];
  const typePayload = [1, 0x60, 0, 0];
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, typePayload.length, ...typePayload, 0x02, importPayload.length, ...importPayload]);
}

/** Imports of a module as `module.name`, read by the engine itself (the project's lib has no WebAssembly types). */
function importsOf(bytes: Uint8Array): { module: string; name: string }[] {
  const wasm = (globalThis as unknown as { WebAssembly: { Module: { new (bytes: Uint8Array): object; imports(module: object): { module: string; name: string }[] } } }).WebAssembly;
  return wasm.Module.imports(new wasm.Module(bytes));
}

describe('splitDuplicateImports', () => {
  it('moves repeated imports of one module to numbered sibling modules without moving any index', () => {
    const split = splitDuplicateImports(moduleWithDuplicates(), 'm');
    expect(split.duplicateModules).toEqual(['m_dup1', 'm_dup2']);
    const imports = importsOf(split.bytes).map((entry) => `${entry.module}.${entry.name}`);
    expect(imports).toEqual(['m.f', 'm.g', 'm_dup1.f', 'm_dup1.g', 'm_dup2.g', 'other.f', 'other.f']);
  });

  it('returns the same bytes when nothing repeats', () => {
    const bytes = Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    expect(splitDuplicateImports(bytes, 'm')).toEqual({ bytes, duplicateModules: [] });
  });

  it('finds the duplicate fd_write of a real Go wasip1 binary', () => {
    const go = new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/build/go-greet.core.wasm')));
    const split = splitDuplicateImports(go, 'wasi_snapshot_preview1');
    expect(split.duplicateModules).toEqual(['wasi_snapshot_preview1_dup1']);
    const moved = importsOf(split.bytes).filter((entry) => entry.module === 'wasi_snapshot_preview1_dup1');
    expect(moved.map((entry) => entry.name)).toContain('fd_write');
  });
});
