/**
 * Large arguments. Tools that take argv through the preview1 adapter (C here, standard Go) are
 * refused before running when an argument does not fit the adapter's arena; the limit in
 * argv-limit.ts is checked against the real adapter on both sides of it (test/fixtures/c/argv-size.c).
 * A native wasip2 component (the Rust fixture http-fetch) takes an argument as large as an HTTP body.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../src/policy.ts';
import { DEFAULT_BODY_LIMIT_BYTES } from '../../src/server/index.ts';
import {
  isPreview1ArgvCommand,
  importsPreview1Argv,
  PREVIEW1_ARGV_ARENA_BYTES,
  PREVIEW1_ARGV_ENTRY_BYTES,
  preview1ArgvViolation,
  readsArgvThroughAdapter,
} from '../../src/wasm/argv-limit.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';
import { createExtHost, FIXTURES, fixture, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

let root: TempRoot;
let ext: ExtHost;
let runtime: WasmRuntime;
/** The default runtime: wasip1 commands, bare or adapter-wrapped, run on toolhost's preview1 host. */
let defaultRuntime: WasmRuntime;
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Deterministic text of `length` letters (a fixed-seed LCG), so a damaged copy cannot pass for the original. */
function letters(length: number, seed = 7): string {
  let state = seed;
  let text = '';
  for (let index = 0; index < length; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    text += String.fromCharCode(97 + (state % 26));
  }
  return text;
}

beforeAll(async () => {
  root = tempRoot();
  const tools = root.folder('tools');
  writeFileSync(
    join(tools, 'argv-size.tool.json'),
    JSON.stringify({ spec: { name: 'argv-size', description: 'Counts its arguments.', positionals: [{ name: 'words', required: true, variadic: true }] } }),
  );
  copyFileSync(fixture('argv-size'), join(tools, 'argv-size.wasm'));
  // The adapter path (`preview1Adapter`): toolhost runs an adapter-wrapped command such as argv-size.wasm on its own
  // preview1 host by default, where this limit does not apply; components that keep the adapter still have it.
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace'), wasm: { preview1Adapter: true } });
  runtime = createWasmRuntime({ cacheDirectory: root.folder('runtime-cache'), threads: 1, preview1Adapter: true });
  defaultRuntime = createWasmRuntime({ cacheDirectory: root.folder('default-runtime-cache'), threads: 1 });
}, 120_000);

afterAll(async () => {
  await runtime.close();
  await defaultRuntime.close();
  await ext.close();
  root.remove();
});

describe('the preview1 adapter argv limit', () => {
  it('is exact: the real adapter runs the largest argument the rule allows and traps one byte over it', async () => {
    const policy = resolvePolicy({}, root.path);
    // The component carries the adapter (test/fixtures/build.mjs wraps it); a bare wasip1 module runs on toolhost's preview1 host.
    for (const file of ['argv-size.wasm']) {
      const component = await runtime.load(join(FIXTURES, file));
      expect(await readsArgvThroughAdapter(component), file).toBe(true);
      for (const others of [0, 99]) {
        const programName = 'argv-size';
        const argc = others + 2;
        const allowed = PREVIEW1_ARGV_ARENA_BYTES - PREVIEW1_ARGV_ENTRY_BYTES * argc;
        const args = (size: number) => ['x'.repeat(size), ...Array<string>(others).fill('yy')];
        const fits = await runtime.run(component, { args: args(allowed), policy, programName });
        expect(fits.trap, `${file}, ${argc} arguments`).toBeUndefined();
        expect(decode(fits.stdout)).toBe(`args=${others + 1} bytes=${allowed + 2 * others}\n`);
        expect(preview1ArgvViolation([programName, ...args(allowed)])).toBeUndefined();
        const over = await runtime.run(component, { args: args(allowed + 1), policy, programName });
        expect(over.trap, `${file}, ${argc} arguments, one byte over`).toBeDefined();
        expect(preview1ArgvViolation([programName, ...args(allowed + 1)])).toMatchObject({ argc, allowedBytes: allowed, largestBytes: allowed + 1 });
      }
    }
  }, 120_000);

  it('does not apply to a wasip1 module on the preview1 host: a 1 MiB argument and 10,000 arguments arrive intact', async () => {
    const policy = resolvePolicy({}, root.path);
    // The bare module, and the same module wrapped with the adapter (unwrapped by the default runtime).
    for (const file of ['argv-size.core.wasm', 'argv-size.wasm']) {
      const component = await defaultRuntime.load(join(FIXTURES, file));
      expect(component.execution, file).toBe('preview1');
      expect(await readsArgvThroughAdapter(component)).toBe(false);
      const large = letters(1 << 20);
      expect(preview1ArgvViolation(['argv-size', large])).toBeDefined();
      const one = await defaultRuntime.run(component, { args: [large], policy, programName: 'argv-size' });
      expect(one.trap).toBeUndefined();
      expect(decode(one.stdout)).toBe(`args=1 bytes=${1 << 20}\n`);
      const many = await defaultRuntime.run(component, { args: Array<string>(10_000).fill('yy'), policy, programName: 'argv-size' });
      expect(decode(many.stdout)).toBe('args=10000 bytes=20000\n');
    }
  }, 120_000);

  it('counts UTF-8 bytes and applies to the imports of wasip1 modules only', () => {
    expect(preview1ArgvViolation(['p', 'é'.repeat(29_508)])).toBeUndefined();
    expect(preview1ArgvViolation(['p', 'é'.repeat(29_509)])).toMatchObject({ largestBytes: 59_018 });
    expect(importsPreview1Argv([{ module: 'wasi_snapshot_preview1', name: 'args_get', kind: 'func' }])).toBe(true);
    expect(importsPreview1Argv([{ module: 'wasi_snapshot_preview1_dup1', name: 'args_sizes_get', kind: 'func' }])).toBe(true);
    expect(importsPreview1Argv([{ module: 'wasi_snapshot_preview1', name: 'fd_write', kind: 'func' }])).toBe(false);
    expect(importsPreview1Argv([{ module: 'wasi:cli/environment@0.2.4', name: 'get-arguments', kind: 'func' }])).toBe(false);
  });

  it('refuses a call over the limit before running it, naming the limit and suggesting stdin or a file', async () => {
    const allowed = PREVIEW1_ARGV_ARENA_BYTES - PREVIEW1_ARGV_ENTRY_BYTES * 2;
    expect(await ext.host.callTool('argv-size', { words: ['x'.repeat(allowed)] })).toMatchObject({ content: `args=1 bytes=${allowed}\n`, is_error: false });
    const refused = await ext.host.callTool('argv-size', { words: ['x'.repeat(allowed + 1)] });
    expect(refused).toMatchObject({ is_error: true, metadata: { reason: 'arguments_too_large', limit_bytes: allowed, largest_argument_bytes: allowed + 1 } });
    expect(refused.content).toMatch(new RegExp(`^the arguments are too large for this tool: .*at most ${allowed} bytes.* stdin.* file`));
    // Refused, not run: no exit code, no trap.
    expect(refused.metadata).not.toHaveProperty('exit_code');
    expect(refused.metadata).not.toHaveProperty('trap');
  }, 60_000);
});

describe('a native wasip2 component', () => {
  it('takes one argument as large as the HTTP body limit, intact', async () => {
    const component = await runtime.load(fixture('http-fetch'));
    expect(await readsArgvThroughAdapter(component)).toBe(false);
    const large = letters(DEFAULT_BODY_LIMIT_BYTES);
    // A second URL is an unexpected argument, which http-fetch prints back in full on stderr.
    const policy = resolvePolicy({ output_bytes: 4 * DEFAULT_BODY_LIMIT_BYTES }, root.path);
    const outcome = await runtime.run(component, { args: ['http://example.test/', large], policy, programName: 'http-fetch' });
    expect(outcome.trap).toBeUndefined();
    expect(outcome.exitCode).not.toBe(0); // http-fetch exits 2 (exact codes through wasi:cli/run are item 5)
    expect(decode(outcome.stderr)).toContain(`unexpected argument: ${large}\n`);
  }, 60_000);
});

describe('which components the limit applies to', () => {
  const argsGet = { module: 'wasi_snapshot_preview1', name: 'args_get', kind: 'func' as const };
  it('a wasip1 command (imports args_get, exports _start), not an engine that exports wasi:cli/run itself (ComponentizeJS)', () => {
    expect(isPreview1ArgvCommand({ imports: [argsGet], exports: [{ name: '_start' }, { name: 'memory' }] })).toBe(true);
    expect(isPreview1ArgvCommand({ imports: [argsGet], exports: [{ name: 'wasi:cli/run@0.2.12#run' }] })).toBe(false);
    expect(isPreview1ArgvCommand({ imports: [], exports: [{ name: '_start' }] })).toBe(false);
  });
});
