/**
 * Through a real host and a real C component that prints its argv (test/fixtures/c/argv-list.c, a
 * grep-like: `[OPTIONS] <PATTERN> [TEMPLATE]`, help parsed from its --help):
 * - `""` sent for a positional, required or optional, reaches the program as an empty argument; `""`
 *   for an optional option is "not given" (dropped), for a required option it is the value;
 * - `.tool.json` `"success_exit_codes": [0, 1]` makes exit 1 a result (grep's "no match"), with
 *   `metadata.exit_code` exact; other codes stay errors; bad lists stop the tool from loading.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectWasmTool } from '../../src/extensions/tool-inspection.ts';
import { parseCliSpec } from '../../src/introspect/spec-schema.ts';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

let root: TempRoot;
let ext: ExtHost;

beforeAll(async () => {
  root = tempRoot();
  const tools = root.folder('tools');
  const tool = (name: string, toolJson?: object) => {
    copyFileSync(fixture('argv-list'), join(tools, `${name}.wasm`));
    if (toolJson !== undefined) writeFileSync(join(tools, `${name}.tool.json`), JSON.stringify(toolJson));
  };
  tool('plain');
  tool('grep-like', { success_exit_codes: [0, 1] });
  tool('required-tag', { options: { tag: { required: true } } });
  tool('codes-out-of-range', { success_exit_codes: [0, 256] });
  tool('codes-without-zero', { success_exit_codes: [1] });
  tool('codes-repeated', { success_exit_codes: [0, 1, 1] });
  tool('codes-not-integers', { success_exit_codes: [0, 1.5] });
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, 120_000);

afterAll(async () => {
  await ext.close();
  root.remove();
});

/** The arguments the program printed, one `[arg]` a line after `argc=N`. */
function printedArgv(content: string): string[] {
  const lines = content.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^argc=\d+$/);
  return lines.slice(1).map((line) => line.replace(/^\[(.*)\]$/, '$1'));
}

describe('"" for positionals and options, through a real program', () => {
  it('parsed the help into a required and an optional positional', () => {
    const schema = ext.host.registry.get('plain')?.inputSchema as { properties: Record<string, unknown>; required?: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual(['exit_code', 'pattern', 'tag', 'template']);
    expect(schema.required).toEqual(['pattern']);
  });

  it('passes "" for the required positional as an empty argument', async () => {
    const result = await ext.host.callTool('plain', { pattern: '' });
    expect(result.is_error).toBe(false);
    expect(result.content).toBe('argc=1\n[]\n');
  });

  it('passes "" for the optional positional as an empty argument (minijinja-style `-t ""`)', async () => {
    const result = await ext.host.callTool('plain', { pattern: 'x', template: '' });
    expect(result.is_error).toBe(false);
    expect(printedArgv(result.content)).toEqual(['x', '']);
    // Left out, it is not there at all.
    expect(printedArgv((await ext.host.callTool('plain', { pattern: 'x' })).content)).toEqual(['x']);
  });

  it('drops "" and null for an optional option ("not given"), and null for an optional positional', async () => {
    const result = await ext.host.callTool('plain', { pattern: 'x', tag: '', exit_code: null, template: null });
    expect(result.is_error).toBe(false);
    expect(printedArgv(result.content)).toEqual(['x']);
  });

  it('passes "" for a required option as its value', async () => {
    const result = await ext.host.callTool('required-tag', { pattern: 'x', tag: '' });
    expect(result.is_error).toBe(false);
    expect(printedArgv(result.content)).toEqual(['--tag', '', 'x']);
  });

  it('refuses null for a required positional', async () => {
    const result = await ext.host.callTool('plain', { pattern: null });
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('pattern');
  });
});

describe('success_exit_codes', () => {
  it('makes a listed non-zero exit a result with the output as content and the exact exit code', async () => {
    const result = await ext.host.callTool('grep-like', { pattern: 'nothing', exit_code: 1 });
    expect(result.is_error).toBe(false);
    expect(result.content).toBe('argc=3\n[--exit-code]\n[1]\n[nothing]\n');
    expect(result.metadata).toMatchObject({ exit_code: 1, stderr: 'argv-list: ending with 1' });
  });

  it('keeps exit codes that are not listed errors, and exit 0 a result', async () => {
    const failed = await ext.host.callTool('grep-like', { pattern: 'x', exit_code: 2 });
    expect(failed.is_error).toBe(true);
    expect(failed.content).toMatch(/^the tool exited with code 2: argc=3/);
    expect(failed.metadata).toMatchObject({ exit_code: 2 });
    expect(await ext.host.callTool('grep-like', { pattern: 'x' })).toMatchObject({ is_error: false, metadata: { exit_code: 0 } });
  });

  it('leaves exit 1 an error for a tool that does not list it (the default [0])', async () => {
    const result = await ext.host.callTool('plain', { pattern: 'x', exit_code: 1 });
    expect(result.is_error).toBe(true);
    expect(result.metadata).toMatchObject({ exit_code: 1 });
  });

  it('shows the list in the inspection (default [0])', () => {
    const grep = ext.host.registry.get('grep-like');
    const plain = ext.host.registry.get('plain');
    if (grep === undefined || plain === undefined) throw new Error('tools not loaded');
    expect(inspectWasmTool(grep, (policy) => policy).success_exit_codes).toEqual([0, 1]);
    expect(inspectWasmTool(plain, (policy) => policy).success_exit_codes).toEqual([0]);
  });

  it.each([
    ['codes-out-of-range', 'success_exit_codes.1: must be 0-255'],
    ['codes-without-zero', 'success_exit_codes: must include 0'],
    ['codes-repeated', 'success_exit_codes: must not list an exit code twice'],
    ['codes-not-integers', 'success_exit_codes.1: must be an integer'],
  ])('%s: a bad list stops the tool from loading, naming the field', (name, message) => {
    expect(ext.host.registry.get(name)).toBeUndefined();
    const failure = ext.host.loadFailures().find((entry) => entry.file.endsWith(`${name}.wasm`));
    expect(failure).toMatchObject({ code: 'TOOL_OVERRIDES_INVALID' });
    expect(failure?.error).toContain(message);
  });

  it('is accepted in a --help-json spec too', () => {
    const parsed = parseCliSpec({ name: 'rg', success_exit_codes: [0, 1] });
    expect(parsed.ok && parsed.spec.success_exit_codes).toEqual([0, 1]);
    const refused = parseCliSpec({ name: 'rg', success_exit_codes: [0, -1] });
    expect(refused.ok).toBe(false);
  });
});
