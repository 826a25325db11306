/**
 * Options whose one value is a comma-joined list of choices (`--style <components>  Comma-separated
 * list of style elements (auto, full, plain)`): the schema offers an array of the choices, each
 * checked, and argv joins them into one value. Unit checks on the detection and the spec → schema →
 * argv path, then a real component (rt-echo prints its argv) with the list declared in `.tool.json`.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliOption, CliSpec } from '../../src/introspect/spec.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { valueSeparatorOf } from '../../src/introspect/value-list.ts';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from '../extensions/helpers.ts';

function option(fields: Partial<CliOption>): CliOption {
  return {
    long: null, short: null, aliases: [], takes_value: true, value_name: 'X', type: 'string', default: null, choices: null,
    repeatable: false, required: false, negation: null, description: null, ...fields,
  };
}

const STYLE = option({ long: 'style', choices: ['auto', 'full', 'plain', 'header', 'grid'], value_separator: ',', default: 'auto', description: 'Comma-separated list of style elements' });
const SPEC: CliSpec = { name: 'viewer', description: 'views files', options: [STYLE, option({ long: 'color', choices: ['auto', 'never'] })], positionals: [], subcommands: [] };

describe('valueSeparatorOf', () => {
  it('reads the comma-list phrasings and nothing else', () => {
    expect(valueSeparatorOf('Comma-separated list of style elements to display')).toBe(',');
    expect(valueSeparatorOf('Specify one or more comma-delimited values: dep, group')).toBe(',');
    expect(valueSeparatorOf('Comma separated list of types of crates')).toBe(',');
    expect(valueSeparatorOf('Names, separated by commas')).toBe(',');
    expect(valueSeparatorOf('When to use colors (auto, never, always)')).toBeUndefined();
    expect(valueSeparatorOf('Print trailing commas wherever possible')).toBeUndefined();
    expect(valueSeparatorOf(null)).toBeUndefined();
  });
});

describe('a comma-joined list of choices', () => {
  const schema = cliSpecToZod(SPEC);

  it('is an array of the choices in the schema, each checked', () => {
    expect(schema.safeParse({ style: ['header', 'grid'] }).success).toBe(true);
    const wrong = schema.safeParse({ style: ['header', 'bogus'] });
    expect(wrong.success).toBe(false);
    expect(schema.safeParse({ style: [] }).success).toBe(false);
    expect(schema.safeParse({ style: 'header,grid' }).success).toBe(false);
    // an option without a separator stays one choice
    expect(schema.safeParse({ color: 'never' }).success).toBe(true);
    expect(schema.safeParse({ color: ['never'] }).success).toBe(false);
  });

  it('keeps its default in the description, not as an array the argv could not leave out', () => {
    const parsed = schema.parse({});
    expect(parsed.style).toBeUndefined();
    expect(schema.shape.style?.description).toContain('(default: auto)');
  });

  it('is joined into one argv value', () => {
    expect(cliSpecToArgv(SPEC, schema.parse({ style: ['header', 'grid'], color: 'never' }))).toEqual(['--style', 'header,grid', '--color', 'never']);
    expect(cliSpecToArgv(SPEC, schema.parse({ style: ['full'] }))).toEqual(['--style', 'full']);
  });
});

describe('with a real component', () => {
  let root: TempRoot;
  let ext: ExtHost;

  beforeAll(async () => {
    root = tempRoot();
    const tools = root.folder('tools');
    copyFileSync(fixture('rt-echo'), join(tools, 'viewer.wasm'));
    writeFileSync(
      join(tools, 'viewer.tool.json'),
      JSON.stringify({ output: 'envelope', spec: { name: 'viewer', description: 'views files', options: [{ long: 'style', takes_value: true, choices: ['auto', 'full', 'plain'] }], positionals: [], subcommands: [] }, options: { style: { value_separator: ',' } } }),
    );
    ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
  }, 120_000);

  afterAll(async () => {
    await ext.close();
    root.remove();
  });

  it('an override makes the option a list: the program gets one joined value, and a wrong item is refused before it runs', async () => {
    const joined = await ext.host.callTool('viewer', { style: ['full', 'plain'] });
    expect(joined.is_error, joined.content).toBe(false);
    expect(joined.content).toBe('--style full,plain');
    const wrong = await ext.host.callTool('viewer', { style: ['full', 'fancy'] });
    expect(wrong.is_error).toBe(true);
    expect(wrong.content).toMatch(/style/);
  });
});
