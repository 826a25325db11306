import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy, type ToolPolicy } from '../../src/policy.ts';
import type { LoadedComponent } from '../../src/wasm/load.ts';
import { mapRunOutcome } from '../../src/wasm/result-mapping.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';

// Real tools built from source by test/fixtures/build.mjs (`npm run fixtures`): go-memory is a standard
// `GOOS=wasip1 GOARCH=wasm` binary; wasi-exit and wasi-hog are C, as a component (adapter attached at
// build time) and as a wasip1 core module (toolhost wraps it).
const build = join(import.meta.dirname, '../fixtures/build');
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const MIB = 1024 * 1024;
let work: string;
let runtime: WasmRuntime;
let goTool: LoadedComponent;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-polyglot-'));
  runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 2 });
  goTool = await runtime.load(join(build, 'go-memory.core.wasm'));
}, 120_000);

afterAll(async () => {
  await runtime.close();
  await rm(work, { recursive: true, force: true });
});

const run = (component: LoadedComponent, args: string[], policy: ToolPolicy = {}) =>
  runtime.run(component, { args, policy: resolvePolicy({ timeout_ms: 60_000, ...policy }, work) });

describe('standard Go wasip1 binaries', () => {
  it('allocate while printing 60 MiB without corrupting the adapter (no grant)', async () => {
    const outcome = await run(goTool, ['print', '60'], { output_bytes: 100 * MIB });
    expect(outcome.trap).toBeUndefined();
    expect(decode(outcome.stderr)).toBe('');
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout.length).toBeGreaterThanOrEqual(60 * MIB);
    const text = decode(outcome.stdout);
    const lines = text.trimEnd().split('\n');
    // Every line is intact and in order: the heap was never shared with the adapter.
    expect(lines.every((line, index) => line === `${String(index).padStart(8, '0')} ${String(index % 10).repeat(1000)}`)).toBe(true);
  }, 120_000);

  it('allocate, print and write 50 MiB to a file with a filesystem grant', async () => {
    const granted = await mkdtemp(join(work, 'grant-'));
    const policy: ToolPolicy = { output_bytes: 100 * MIB, fs: [{ host: granted, guest: '/data', mode: 'rw' }] };
    const printed = await run(goTool, ['print', '50'], policy);
    expect(printed).toMatchObject({ exitCode: 0, truncated: false });
    expect(printed.trap).toBeUndefined();
    expect(printed.stdout.length).toBeGreaterThanOrEqual(50 * MIB);
    // os.File.Write goes through Go's second fd_write import: it must reach the adapter that opened the file.
    const written = await run(goTool, ['write', '50', '/data/out.txt'], policy);
    expect(decode(written.stderr)).toBe('');
    expect(written.exitCode).toBe(0);
    const size = (await stat(join(granted, 'out.txt'))).size;
    expect(size).toBeGreaterThanOrEqual(50 * MIB);
    expect(decode(written.stdout)).toBe(`wrote ${size} bytes\n`);
  }, 120_000);
});

describe('exact exit codes', () => {
  it('a C tool exiting 3 gives exit_code 3, as a component and as a wasip1 core module', async () => {
    for (const file of ['wasi-exit.wasm', 'wasi-exit.core.wasm']) {
      const tool = await runtime.load(join(build, file));
      const outcome = await run(tool, ['3']);
      expect(outcome.exitCode).toBe(3);
      const result = mapRunOutcome(outcome);
      expect(result).toMatchObject({ is_error: true, metadata: { exit_code: 3, stderr: 'stderr-before-exit' } });
      expect(result.content).toMatch(/^the tool exited with code 3: before-exit/);
      expect((await run(tool, ['0'])).exitCode).toBe(0);
      expect((await run(tool, ['255'])).exitCode).toBe(255);
    }
  }, 60_000);

  it('a Go tool exiting 3 gives exit_code 3', async () => {
    const outcome = await run(goTool, ['exit', '3']);
    expect(outcome.exitCode).toBe(3);
    expect(mapRunOutcome(outcome)).toMatchObject({ is_error: true, metadata: { exit_code: 3, stderr: 'exiting on purpose' } });
  }, 60_000);

  it('a native wasip2 component calling the unstable wasi:cli/exit exit-with-code gives its code', async () => {
    const jco = (await import('@bytecodealliance/jco' as string)) as { parse(wat: string): Promise<Uint8Array> };
    const file = join(work, 'exit-with-code.wasm');
    await writeFile(
      file,
      await jco.parse(`(component
        (import "wasi:cli/exit@0.2.3" (instance $exit (export "exit-with-code" (func (param "status-code" u8)))))
        (core func $exit-with-code (canon lower (func $exit "exit-with-code")))
        (core module $m
          (import "host" "exit-with-code" (func $exit (param i32)))
          (func (export "run") (result i32) i32.const 3 call $exit i32.const 0))
        (core instance $i (instantiate $m (with "host" (instance (export "exit-with-code" (func $exit-with-code))))))
        (func $run (result (result)) (canon lift (core func $i "run")))
        (instance $run-instance (export "run" (func $run)))
        (export "wasi:cli/run@0.2.3" (instance $run-instance)))`),
    );
    const outcome = await run(await runtime.load(file), []);
    expect(outcome.exitCode).toBe(3);
  }, 60_000);
});

describe('running out of memory', () => {
  const expectOutOfMemory = (outcome: Awaited<ReturnType<typeof run>>) => {
    const result = mapRunOutcome(outcome);
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/^ran out of memory \(limit 64 MiB\)/);
    expect(result.content).not.toMatch(/assertion failed at adapter/);
    expect(result.metadata).toMatchObject({ out_of_memory: true, memory_limit_mb: 64 });
    return result;
  };

  it('a C tool hitting the cap gives the clear out-of-memory result (component and core module)', async () => {
    for (const file of ['wasi-hog.wasm', 'wasi-hog.core.wasm']) {
      const tool = await runtime.load(join(build, file));
      expectOutOfMemory(await run(tool, [], { memory_mb: 64 }));
      expectOutOfMemory(await run(tool, ['abort'], { memory_mb: 64 }));
    }
  }, 60_000);

  it('a Go tool hitting the cap gives the clear out-of-memory result with the head of its stderr', async () => {
    const outcome = await run(goTool, ['hog'], { memory_mb: 64 });
    expect(outcome.exitCode).toBe(2);
    expect(outcome.memoryExhaustedBytes).toBe(64 * MIB);
    const result = expectOutOfMemory(outcome);
    // Go prints the reason first, then a goroutine dump.
    expect(result.content).toContain('fatal error: out of memory');
    expect(result.metadata?.['stderr']).toMatch(/^runtime: out of memory: cannot allocate/);
  }, 60_000);

  it('a failed call far below the cap is not taken for running out of memory', async () => {
    const outcome = await run(goTool, ['exit', '3'], { memory_mb: 64 });
    expect(outcome.memoryExhaustedBytes).toBeUndefined();
    const hog = await runtime.load(join(build, 'wasi-exit.wasm'));
    expect((await run(hog, ['1'], { memory_mb: 64 })).memoryExhaustedBytes).toBeUndefined();
  }, 60_000);
});
