/**
 * Asking real programs, through the load pipeline a host uses: the third-party Go CLIs of
 * test/fixtures/go (go-yq is cobra, go-chroma kong, go-hclfmt Go flag) built unmodified to wasip1,
 * plus two attackers: a module that carries cobra's signature and answers every probe with endless
 * output, and a filesystem driver whose probe run would write a file if it had any grant.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWasmTool, type WasmToolDetails } from '../../../src/extensions/wasm-tool.ts';
import { inspectWasmTool } from '../../../src/extensions/tool-inspection.ts';
import { createHelpCache, type HelpCache } from '../../../src/introspect/capture.ts';
import { probeProgram } from '../../../src/introspect/probe/index.ts';
import { PROBE_OUTPUT_BYTES } from '../../../src/introspect/probe/sandbox.ts';
import { createProbeRunner } from '../../../src/introspect/probe/wasm-runner.ts';
import { DEFAULT_POLICY, resolvePolicy } from '../../../src/policy.ts';
import type { RunOptions } from '../../../src/wasm/run-types.ts';
import { createWasmRuntime, type WasmRuntime } from '../../../src/wasm/runtime.ts';
import { FIXTURES, fixture, tempRoot, type TempRoot } from '../../extensions/helpers.ts';

const LOAD_TIMEOUT_MS = 600_000;

let root: TempRoot;
let runtime: WasmRuntime;
let helpCache: HelpCache;
let probeCache: HelpCache;
/** Every run's argv, as the runtime was asked for it (help runs and probes alike). */
const runs: (readonly string[])[] = [];

beforeAll(() => {
  root = tempRoot('toolhost-probe-');
  const real = createWasmRuntime({ threads: 2, cacheDirectory: root.folder('transpile') });
  runtime = {
    ...real,
    run: (component, options: RunOptions) => {
      runs.push(options.args);
      return real.run(component, options);
    },
  };
  helpCache = createHelpCache(root.folder('help'));
  probeCache = createHelpCache(root.folder('probe'));
});

afterAll(async () => {
  await runtime?.close();
  root?.remove();
});

/** Copies a Go fixture into a tools folder of its own, with optional sidecars. */
function install(name: string, sidecars: { tool?: object } = {}): string {
  const folder = root.folder(`tools-${name}-${Math.random().toString(36).slice(2)}`);
  const file = join(folder, `${name}.wasm`);
  copyFileSync(join(FIXTURES, `${name}.core.wasm`), file);
  // the help of a large Go program may take seconds on a busy machine
  writeFileSync(join(folder, `${name}.policy.json`), JSON.stringify({ timeout_ms: 120_000 }));
  if (sidecars.tool !== undefined) writeFileSync(join(folder, `${name}.tool.json`), JSON.stringify(sidecars.tool));
  return file;
}

// What the probes find, not how fast (the 15 s budget is the product's; a loaded CI machine may need longer).
const load = (file: string) => loadWasmTool(file, { runtime, workspaceRoot: root.path, helpCache, probeCache, probeBudgetMs: 300_000 });

describe('probes on real programs', () => {
  it('kong (go-chroma): the enum from the parser\'s error and the required positional, shown with their source; a second load sends nothing', async () => {
    const file = install('go-chroma');
    const first = await load(file);
    const details = first.tool.details as WasmToolDetails;
    expect(details.probe?.framework).toBe('kong');
    const formatter = details.spec.options.find((option) => option.long === 'formatter');
    expect(formatter?.choices).toEqual(['html', 'json', 'tokens', 'terminal256', 'noop']);
    expect(formatter?.sources?.['choices']).toBe('probe:kong.must-be-one-of');
    const files = details.spec.positionals.find((positional) => positional.name === 'files');
    expect(files?.required).toBe(true);
    const report = inspectWasmTool(first.tool, (policy) => policy);
    expect(report.spec.options.find((option) => option.long === 'formatter')?.sources).toMatchObject({ choices: 'probe:kong.must-be-one-of' });
    expect(report.probe?.claims.length).toBeGreaterThan(0);

    const before = runs.length;
    const second = await load(file);
    expect(runs.length).toBe(before);
    expect((second.tool.details as WasmToolDetails).spec).toEqual(details.spec);
  }, LOAD_TIMEOUT_MS);

  it('cobra (go-yq): flags the help misread as value-taking are flags, proven by pflag', async () => {
    const first = await load(install('go-yq'));
    const details = first.tool.details as WasmToolDetails;
    expect(details.probe?.framework).toBe('cobra');
    expect(details.probe?.runs).toBeLessThanOrEqual(64);
    for (const long of ['exit-status', 'inplace']) {
      const option = details.spec.options.find((entry) => entry.long === long);
      expect(option).toMatchObject({ takes_value: false, type: 'boolean', sources: { takes_value: 'probe:pflag.parse-error' } });
    }
    const properties = first.tool.inputSchema['properties'] as Record<string, { type?: string }>;
    expect(properties['exit_status']?.type).toBe('boolean');
  }, LOAD_TIMEOUT_MS);

  it('"probes": false sends no probe and records none', async () => {
    const before = runs.length;
    const loaded = await load(install('go-hclfmt', { tool: { probes: false } }));
    expect((loaded.tool.details as WasmToolDetails).probe).toBeUndefined();
    const sent = runs.slice(before);
    expect(sent.every((args) => args.length === 1 && ['--help-json', '--help', '-h', 'help'].includes(args[0] ?? ''))).toBe(true);
  }, LOAD_TIMEOUT_MS);
});

/**
 * A wasip1 module with cobra's signature strings in its data that, run with any argv, writes 32 KiB
 * blocks to stdout (an attacker's "completion" answer): forever, or 2000 blocks (62.5 MiB) and exit.
 */
function spewingModule(length: 'forever' | 'huge'): Uint8Array {
  const bytes: number[] = [];
  const u32 = (value: number) => {
    const out: number[] = [];
    do {
      let byte = value & 0x7f;
      value >>>= 7;
      if (value !== 0) byte |= 0x80;
      out.push(byte);
    } while (value !== 0);
    return out;
  };
  const name = (text: string) => [...u32(text.length), ...new TextEncoder().encode(text)];
  const section = (id: number, payload: number[]) => bytes.push(id, ...u32(payload.length), ...payload);
  bytes.push(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00);
  section(1, [2, 0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f, 0x60, 0, 0]);
  section(2, [1, ...name('wasi_snapshot_preview1'), ...name('fd_write'), 0x00, 0]);
  section(3, [1, 1]);
  section(5, [1, 0x00, 2]);
  section(7, [2, ...name('memory'), 0x02, 0, ...name('_start'), 0x00, 1]);
  // loop: fd_write(1, iovs=0, 1, nwritten=16); then br 0 (forever) or ++i < 2000 → br_if 0
  const write = [0x41, 1, 0x41, 0, 0x41, 1, 0x41, 16, 0x10, 0, 0x1a];
  const next = length === 'forever' ? [0x0c, 0] : [0x20, 0, 0x41, 1, 0x6a, 0x22, 0, 0x41, 0xd0, 0x0f, 0x49, 0x0d, 0];
  const body = [1, 1, 0x7f, 0x03, 0x40, ...write, ...next, 0x0b, 0x0b];
  section(10, [1, ...u32(body.length), ...body]);
  // iovec {buf: 1024, len: 32768}; the signature text at 32
  const iovec = [0x00, 0x04, 0, 0, 0x00, 0x80, 0, 0];
  const signature = [...new TextEncoder().encode('__complete ShellCompDirective\n')];
  section(11, [2, 0x00, 0x41, 0, 0x0b, ...u32(iovec.length), ...iovec, 0x00, 0x41, 32, 0x0b, ...u32(signature.length), ...signature]);
  return Uint8Array.from(bytes);
}

describe('probes against an attacker', () => {
  it('a module answering every probe with endless output is cut off at the run deadline, and the probing ends', async () => {
    const file = join(root.folder('endless'), 'endless.wasm');
    writeFileSync(file, spewingModule('forever'));
    const component = await runtime.load(file);
    const spec = { name: 'endless', description: '', options: [], positionals: [], subcommands: [] };
    const result = await probeProgram(spec, { runner: createProbeRunner(runtime, component, DEFAULT_POLICY, 'endless'), moduleBytes: async () => spewingModule('forever') });
    expect(result.framework).toBe('cobra');
    expect(result.claims).toEqual([]);
    // the first answer is not cobra's: no more of the protocol is sent
    expect(result.runs).toBe(1);
  }, LOAD_TIMEOUT_MS);

  it('a module answering with 62 MiB keeps 64 KiB of it, read as no answer', async () => {
    const file = join(root.folder('huge'), 'huge.wasm');
    writeFileSync(file, spewingModule('huge'));
    const component = await runtime.load(file);
    const runner = createProbeRunner(runtime, component, DEFAULT_POLICY, 'huge');
    const output = await runner(['__complete', '']);
    expect(output.exitCode).toBe(0);
    expect(output.stdout.length).toBeGreaterThan(0);
    expect(output.stdout.length).toBeLessThanOrEqual(PROBE_OUTPUT_BYTES);
    const spec = { name: 'huge', description: '', options: [], positionals: [], subcommands: [] };
    const result = await probeProgram(spec, { runner, moduleBytes: async () => spewingModule('huge') });
    expect(result).toMatchObject({ framework: 'cobra', runs: 1, claims: [] });
  }, LOAD_TIMEOUT_MS);

  it('a probe that reaches main cannot touch a file the tool\'s policy grants', async () => {
    const data = root.folder('granted');
    const policy = resolvePolicy({ fs: [{ host: data, guest: '/data', mode: 'rw' }] }, root.path);
    const component = await runtime.load(fixture('wasi-fs'));
    const probe = createProbeRunner(runtime, component, policy, 'wasi-fs');
    const answer = await probe(['write', '/data/probe.txt', 'pwned', 'ls', '/data']);
    expect(answer.stdout).toMatch(/^write err /m);
    expect(existsSync(join(data, 'probe.txt'))).toBe(false);
    // the same argv under the tool's own policy does write: the probe's sandbox is what stopped it
    const call = await runtime.run(component, { args: ['write', '/data/call.txt', 'ok'], policy, programName: 'wasi-fs' });
    expect(new TextDecoder().decode(call.stdout)).toMatch(/^write ok/m);
    expect(existsSync(join(data, 'call.txt'))).toBe(true);
  }, LOAD_TIMEOUT_MS);
});
