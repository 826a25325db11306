/** A tool that declares it reads stdin gets a `stdin` parameter piped to it; others get EOF at once. */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseCliSpec } from '../../src/introspect/spec-schema.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

let root: TempRoot;
let ext: ExtHost;
const spec = (name: string) => ({ name, description: 'Copies stdin to stdout.', options: [], positionals: [{ name: 'mode', required: true, variadic: false }], subcommands: [] });

beforeAll(async () => {
  root = tempRoot();
  const tools = root.folder('tools');
  copyFileSync(fixture('rt-behave'), join(tools, 'reads-stdin.wasm'));
  writeFileSync(join(tools, 'reads-stdin.tool.json'), JSON.stringify({ spec: spec('reads-stdin'), stdin: true }));
  copyFileSync(fixture('rt-behave'), join(tools, 'no-stdin.wasm'));
  writeFileSync(join(tools, 'no-stdin.tool.json'), JSON.stringify({ spec: spec('no-stdin') }));
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, 120_000);

afterAll(async () => {
  await ext.close();
  root.remove();
});

it('pipes the stdin parameter to a tool whose .tool.json says it reads stdin', async () => {
  const tool = ext.host.registry.get('reads-stdin');
  expect(tool?.inputSchema).toMatchObject({ properties: { mode: { type: 'string' }, stdin: { type: 'string' } }, required: ['mode'] });
  const text = 'line one\n{"json": true}\n--not-an-option\n'.repeat(1000);
  const result = await ext.host.callTool('reads-stdin', { mode: 'stdin', stdin: text });
  expect(result).toMatchObject({ content: text, is_error: false });
  expect(await ext.host.callTool('reads-stdin', { mode: 'stdin' })).toMatchObject({ content: '', is_error: false });
}, 60_000);

it('gives other tools an empty stdin and refuses a stdin parameter they did not declare', async () => {
  expect(await ext.host.callTool('no-stdin', { mode: 'stdin' })).toMatchObject({ content: '', is_error: false });
  const refused = await ext.host.callTool('no-stdin', { mode: 'stdin', stdin: 'x' });
  expect(refused.is_error).toBe(true);
  expect(refused.content).toContain('stdin: unknown parameter');
}, 60_000);

it('accepts "stdin": true in a --help-json spec, and keeps an option named --stdin apart', () => {
  const parsed = parseCliSpec({ name: 'jq-like', options: [{ long: 'stdin', short: null, aliases: [], takes_value: false, value_name: null, type: 'boolean', default: null, choices: null, repeatable: false, required: false, negation: null, description: null }], stdin: true });
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  expect(Object.keys(cliSpecToZod(parsed.spec).shape).sort()).toEqual(['stdin', 'stdin_2']);
  expect(cliSpecToArgv(parsed.spec, { stdin: 'data', stdin_2: true })).toEqual(['--stdin']);
});
