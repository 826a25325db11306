/**
 * Test helper: transpiles a C fixture component (test/fixtures/build/<name>.wasm) with jco 1.11
 * `instantiation: 'sync'`, imports the glue from a temp dir and runs it in-process through
 * `createWasiHost`. With `TOOLHOST_WASI_FIXTURE_HOST=preview1` (test/wasm/preview1/wasi-suites.test.ts)
 * it runs the fixture's wasip1 core module (<name>.core.wasm) on the preview1 host instead, so the same
 * suites check both hosts.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transpile } from '@bytecodealliance/jco';
import { createPreview1Host } from '../../../src/wasm/preview1/host.ts';
import { createWasiHost } from '../../../src/wasm/wasi/host.ts';
import { type CapturedOutput, WasiExit, type WasiHostOptions } from '../../../src/wasm/wasi/types.ts';

/** A compiled core module (the project's lib has no WebAssembly types). */
export type CoreModule = object;
const wasm = (globalThis as unknown as {
  WebAssembly: { Module: new (bytes: Uint8Array) => CoreModule; Instance: new (module: CoreModule, imports: object) => { exports: Record<string, unknown> } };
}).WebAssembly;

/** Which host `loadFixture` runs fixtures on. */
export function fixtureHost(): 'component' | 'preview1' {
  return process.env['TOOLHOST_WASI_FIXTURE_HOST'] === 'preview1' ? 'preview1' : 'component';
}

function loadPreview1Fixture(name: string): Fixture {
  const module = new wasm.Module(readFileSync(join(buildDir, `${name}.core.wasm`)));
  return {
    glue: { instantiate: () => { throw new Error('a preview1 fixture has no glue'); } },
    modules: new Map([['module.wasm', module]]),
    imports: [],
    run(options = {}) {
      const host = createPreview1Host(baseOptions(options));
      let exitCode: number | null = 0;
      let error: unknown;
      try {
        const instance = new wasm.Instance(module, host.imports);
        host.bindMemory(instance.exports['memory'] as { buffer: ArrayBuffer });
        (instance.exports['_start'] as () => void)();
      } catch (e) {
        if (e instanceof WasiExit) exitCode = e.exitCode;
        else {
          exitCode = null;
          error = e;
        }
      } finally {
        host.dispose();
      }
      const o = host.stdout();
      const e = host.stderr();
      const result: RunResult = { exitCode, stdout: decoder.decode(o.bytes), stderr: decoder.decode(e.bytes), out: o, err: e };
      if (error !== undefined) result.error = error;
      return result;
    },
  };
}

const buildDir = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/build');

export interface Glue {
  instantiate(
    getCoreModule: (name: string) => CoreModule,
    imports: Record<string, unknown>,
  ): { run: { run(): void } };
}

export interface RunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  out: CapturedOutput;
  err: CapturedOutput;
  /** A thrown value other than WasiExit (trap, host error). */
  error?: unknown;
}

export interface Fixture {
  readonly glue: Glue;
  readonly modules: Map<string, CoreModule>;
  readonly imports: string[];
  run(options?: Partial<WasiHostOptions>): RunResult;
}

const decoder = new TextDecoder();

export function baseOptions(options: Partial<WasiHostOptions> = {}): WasiHostOptions {
  return { args: ['tool'], env: {}, preopens: [], networkAllow: [], outputLimitBytes: 1 << 20, ...options };
}

/**
 * jco 1.11's glue skips `realloc` for empty strings; the preview1 adapter lays out `environ` by
 * realloc order and then loses the NUL after an empty value (`A=` swallows the next entry). This
 * patch makes the glue call realloc for empty strings too, as the canonical ABI does.
 */
export function patchEmptyStringRealloc(js: string): string {
  return js.replace(/if \(s\.length === 0\) \{\s*utf8EncodedLen = 0;\s*return 1;\s*\}/g, '');
}

export async function loadFixture(name: string, opts: { patchEmptyStrings?: boolean } = {}): Promise<Fixture> {
  if (fixtureHost() === 'preview1') return loadPreview1Fixture(name);
  const bytes = readFileSync(join(buildDir, `${name}.wasm`));
  const out = (await transpile(bytes, {
    name: 'tool',
    instantiation: 'sync',
    typescript: false,
    nodejsCompat: false,
    tlaCompat: false,
    base64Cutoff: 0,
    validLiftingOptimization: true,
  } as Parameters<typeof transpile>[1])) as unknown as { files: Record<string, Uint8Array>; imports: string[] };
  const dir = mkdtempSync(join(tmpdir(), `wasi-${name}-`));
  mkdirSync(dir, { recursive: true });
  const modules = new Map<string, CoreModule>();
  for (const [file, data] of Object.entries(out.files)) {
    const patched = file.endsWith('.js') && opts.patchEmptyStrings ? patchEmptyStringRealloc(decoder.decode(data)) : data;
    writeFileSync(join(dir, file), patched);
    if (file.endsWith('.wasm')) modules.set(file, new wasm.Module(data));
  }
  const glue = (await import(pathToFileURL(join(dir, 'tool.js')).href)) as Glue;
  const getCoreModule = (file: string): CoreModule => {
    const module = modules.get(file);
    if (module === undefined) throw new Error(`missing core module ${file}`);
    return module;
  };
  return {
    glue,
    modules,
    imports: out.imports,
    run(options = {}) {
      const host = createWasiHost(baseOptions(options));
      let exitCode: number | null = 0;
      let error: unknown;
      try {
        glue.instantiate(getCoreModule, host.imports).run.run();
      } catch (e) {
        if (e instanceof WasiExit) exitCode = e.exitCode;
        else {
          exitCode = null;
          error = e;
        }
      } finally {
        host.dispose();
      }
      const o = host.stdout();
      const e = host.stderr();
      const result: RunResult = { exitCode, stdout: decoder.decode(o.bytes), stderr: decoder.decode(e.bytes), out: o, err: e };
      if (error !== undefined) result.error = error;
      return result;
    },
  };
}
