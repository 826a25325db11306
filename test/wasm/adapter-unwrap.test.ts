/**
 * `innerPreview1Command`: which components run as their inner wasip1 command (the C fixtures, built with jco's
 * componentNew and the preview1 command adapter, as `jco new --wasi-command` and `toolhost new c` do) and which stay
 * components (native wasip2 components, core modules, anything else).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { innerPreview1Command } from '../../src/wasm/adapter-unwrap.ts';
import { readCoreModuleInterface } from '../../src/wasm/core-module.ts';

const build = join(import.meta.dirname, '../fixtures/build');
/** The project's TypeScript lib has no WebAssembly declarations: reach the global's `validate` untyped. */
const validate = (globalThis as unknown as { WebAssembly: { validate(bytes: Uint8Array): boolean } }).WebAssembly.validate;
const read = (name: string): Uint8Array => readFileSync(join(build, name));

describe('innerPreview1Command', () => {
  it('finds the wasip1 command inside each adapter-wrapped C fixture: a valid module exporting _start and importing only preview1', () => {
    for (const name of ['rt-echo', 'ext-greet', 'wasi-fs', 'argv-size', 'heap-spew']) {
      const inner = innerPreview1Command(read(`${name}.wasm`));
      expect(inner, name).toBeDefined();
      expect(validate(inner as Uint8Array), name).toBe(true);
      const face = readCoreModuleInterface(inner as Uint8Array);
      expect(face.exports.map((entry) => entry.name)).toEqual(expect.arrayContaining(['_start', 'memory']));
      expect(new Set(face.imports.map((entry) => entry.module))).toEqual(new Set(['wasi_snapshot_preview1']));
      // The same functions as the module the fixture build wrapped.
      expect(face.imports).toEqual(readCoreModuleInterface(read(`${name}.core.wasm`)).imports);
    }
  });

  it('leaves native wasip2 components, core modules, truncated and garbage files alone', () => {
    expect(innerPreview1Command(read('http-fetch.wasm'))).toBeUndefined();
    expect(innerPreview1Command(read('tcp-client.wasm'))).toBeUndefined();
    expect(innerPreview1Command(read('rt-echo.core.wasm'))).toBeUndefined();
    const component = read('rt-echo.wasm');
    expect(innerPreview1Command(component.subarray(0, component.length >> 1))).toBeUndefined();
    expect(innerPreview1Command(new TextEncoder().encode('not wasm at all'))).toBeUndefined();
  });
});
