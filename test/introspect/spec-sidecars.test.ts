/**
 * Specs the author ships (src/introspect/sidecars): hand-written samples in the published formats
 * (test/fixtures/spec-sidecars: a usage KDL spec in clap_usage's layout, an oclif manifest, a carapace
 * spec) read into CliSpecs — fields, provenance, schema and argv — plus what a bad, hostile or
 * oversized spec does (a failure as data, never a throw or a stall), the custom-section walk, and how
 * a declared effect maps to the permission level and MCP hints.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpAnnotationsFor } from '../../src/schema/providers/mcp.ts';
import { permissionWithEffect } from '../../src/permission.ts';
import { readCarapaceSpec } from '../../src/introspect/sidecars/carapace-yaml.ts';
import { findCustomSections, MAX_SECTIONS_WALKED } from '../../src/introspect/sidecars/custom-sections.ts';
import { findSpecSidecar, MAX_SPEC_SIDECAR_BYTES } from '../../src/introspect/sidecars/index.ts';
import { readOclifManifest } from '../../src/introspect/sidecars/oclif-manifest.ts';
import { readUsageSpec } from '../../src/introspect/sidecars/usage-kdl.ts';
import type { CliSpec } from '../../src/introspect/spec.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { toolEffectOf } from '../../src/introspect/tool-effect.ts';
import { jsonSchemaOf } from '../../src/tool.ts';
import { FIXTURES, PROJECT_ROOT, tempRoot, type TempRoot } from '../extensions/helpers.ts';
import { customSection, leb } from '../helpers/wasm-sections.ts';

const SAMPLES = join(PROJECT_ROOT, 'test', 'fixtures', 'spec-sidecars');
const sample = (name: string): string => readFileSync(join(SAMPLES, name), 'utf8');

function ok(result: ReturnType<typeof readUsageSpec>): CliSpec {
  if (!result.ok) throw new Error(`expected a spec, got: ${result.message}`);
  return result.spec;
}

/** The argv a call maps to, after the input passes the derived schema (as the bridge checks it). */
function argvOf(spec: CliSpec, input: Record<string, unknown>): string[] {
  return cliSpecToArgv(spec, cliSpecToZod(spec).parse(input) as Record<string, unknown>);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// The project's lib settings declare no WebAssembly namespace: the slice used here.
const engine = (globalThis as unknown as { WebAssembly: { Module: { new (bytes: Uint8Array): object; customSections(module: object, name: string): ArrayBuffer[] } } }).WebAssembly;

const CORE_HEADER = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
const COMPONENT_HEADER = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00]);

describe('usage KDL (clap_usage layout)', () => {
  const spec = ok(readUsageSpec(sample('deployctl.usage.kdl'), { fallbackName: 'deployctl' }));

  it('reads the program, root flags (help/version left out) and the command requirement', () => {
    expect(spec.name).toBe('deployctl');
    expect(spec.description).toBe('Deploy and manage application releases');
    expect(spec.options.map((option) => option.long)).toEqual(['verbose', 'color']);
    expect(spec.options[0]).toMatchObject({ short: 'v', takes_value: false, repeatable: true });
    expect(spec.options[1]).toMatchObject({ takes_value: true, value_name: 'WHEN', choices: ['auto', 'always', 'never'], default: 'auto' });
    expect(spec.command_required).toBe(true);
  });

  it('flattens nested commands to their words, leaves out hidden ones and commands that need a subcommand', () => {
    expect(spec.subcommands.map((command) => command.name)).toEqual(['list', 'push', 'prune', 'config get', 'config set']);
    expect(spec.subcommands.find((command) => command.name === 'config set')?.path).toEqual(['config', 'set']);
    // config's global --profile reaches its commands; its own --local cannot (it sits between the words).
    expect(spec.subcommands.find((command) => command.name === 'config get')?.options?.map((option) => option.long)).toEqual(['profile']);
  });

  it('reads flags with choices, defaults, required, repeatable and file values, and args with choices and variadics', () => {
    const list = spec.subcommands.find((command) => command.name === 'list');
    expect(list?.options?.[0]).toMatchObject({ long: 'format', short: 'f', choices: ['table', 'json', 'yaml'], default: 'table' });
    expect(list?.positionals?.[0]).toMatchObject({ name: 'ENV', required: false, description: 'Environment to list (one of: staging, production)' });
    const push = spec.subcommands.find((command) => command.name === 'push');
    expect(push?.description).toBe('Upload a release');
    expect(push?.options?.find((option) => option.long === 'tag')).toMatchObject({ required: true, takes_value: true });
    expect(push?.options?.find((option) => option.long === 'label')).toMatchObject({ repeatable: true });
    expect(push?.options?.find((option) => option.long === 'output')).toMatchObject({ type: 'path', value_name: 'file' });
    expect(push?.positionals).toEqual([expect.objectContaining({ name: 'FILE', required: true, variadic: true, type: 'path' })]);
  });

  it('records every field as from sidecar:usage', () => {
    expect(spec.sources).toMatchObject({ name: 'sidecar:usage', description: 'sidecar:usage', options: 'sidecar:usage' });
    const format = spec.subcommands[0]?.options?.[0];
    expect(format?.sources).toMatchObject({ long: 'sidecar:usage', choices: 'sidecar:usage', default: 'sidecar:usage', takes_value: 'sidecar:usage' });
    expect(spec.subcommands[1]?.positionals?.[0]?.sources).toMatchObject({ name: 'sidecar:usage', variadic: 'sidecar:usage' });
  });

  it('derives a schema and maps calls to the argv the program expects, nested commands as their words', () => {
    const schema = jsonSchemaOf(cliSpecToZod(spec)) as { properties: Record<string, { enum?: string[] }>; required?: string[] };
    expect(schema.properties['command']?.enum).toEqual(['list', 'push', 'prune', 'config get', 'config set']);
    expect(schema.required).toEqual(['command']);
    expect(argvOf(spec, { command: 'push', tag: 'v1', label: ['a', 'b'], file: ['x.tar'] })).toEqual(['push', '--tag', 'v1', '--label', 'a', '--label', 'b', 'x.tar']);
    expect(argvOf(spec, { command: 'config set', profile: 'ci', key: 'region', value: 'eu' })).toEqual(['config', 'set', '--profile', 'ci', 'region', 'eu']);
    expect(argvOf(spec, { command: 'list', verbose: 2, format: 'json' })).toEqual(['--verbose', '--verbose', 'list', '--format', 'json']);
    expect(() => argvOf(spec, { command: 'list', format: 'xml' })).toThrow();
  });

  it('takes effects from commands and flags: the maximum, declared for every command', () => {
    expect(spec.subcommands.map((command) => command.effect)).toEqual(['read', 'write', 'destructive', 'read', 'write']);
    expect(spec.subcommands[2]?.options?.[0]).toMatchObject({ long: 'all', effect: 'destructive' });
    expect(toolEffectOf(spec)).toEqual({ max: 'destructive', complete: true });
  });

  it('reads KDL v1 too (older specs: bare true, quoted values)', () => {
    const v1 = ok(readUsageSpec('bin "tiny"\nabout "A tiny tool"\neffect "read"\nflag "-q --quiet" help="No output"\narg "[path]"', { fallbackName: 'x' }));
    expect(v1).toMatchObject({ name: 'tiny', description: 'A tiny tool', effect: 'read' });
    expect(v1.positionals[0]).toMatchObject({ name: 'path', required: false, type: 'path' });
    expect(toolEffectOf(v1)).toEqual({ max: 'read', complete: true });
  });

  it('falls back to the file stem for a program name that is no valid name, and counts an undeclared command as unknown', () => {
    const spec2 = ok(readUsageSpec('name "My CLI"\ncmd a effect=read\ncmd b', { fallbackName: 'my-cli' }));
    expect(spec2.name).toBe('my-cli');
    expect(toolEffectOf(spec2)).toEqual({ max: 'read', complete: false });
  });

  it.each([
    ['not KDL', 'flag "unterminated', /Unexpected EOF/],
    ['a flag without names', 'flag', /flag without its names/],
    ['a flag name that is none', 'flag "verbose"', /neither a flag name/],
    ['an unknown effect', 'cmd a effect=dangerous', /effect "dangerous" is not one of read, write, destructive/],
    ['a command name with a space', 'cmd "a b"', /one-word name/],
    ['an invalid option name for the schema', 'flag "--a b"', /neither a flag name/],
  ])('refuses %s with a message, never a throw', (_what, text, message) => {
    const result = readUsageSpec(text, { fallbackName: 'x' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('refuses a deeply nested document (a parser stack overflow is a failure, not a crash)', () => {
    const result = readUsageSpec(`${'cmd a {'.repeat(50_000)}${'}'.repeat(50_000)}`, { fallbackName: 'x' });
    expect(result.ok).toBe(false);
  });

  it('leaves out commands nested past the depth cap, and says so', () => {
    const result = readUsageSpec('cmd a { cmd b { cmd c { cmd d { cmd e } } } }', { fallbackName: 'x' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.spec.subcommands.map((command) => command.name)).toEqual(['a', 'a b', 'a b c', 'a b c d']);
    expect(result.notes.join()).toMatch(/nested deeper than 4/);
  });
});

describe('oclif manifest', () => {
  const spec = ok(readOclifManifest(sample('notes.oclif.manifest.json'), { fallbackName: 'notes' }));

  it('makes each visible command a subcommand called by its id, with its flags and args', () => {
    expect(spec.name).toBe('notes');
    expect(spec.subcommands.map((command) => command.name)).toEqual(['notes:add', 'notes:list']);
    const add = spec.subcommands[0];
    expect(add?.description).toBe('Add a note');
    expect(add?.options?.map((option) => option.long)).toEqual(['notebook', 'tag', 'pin', 'format']);
    expect(add?.options?.[0]).toMatchObject({ short: 'n', value_name: 'name', default: 'inbox' });
    expect(add?.options?.[1]).toMatchObject({ repeatable: true, takes_value: true });
    expect(add?.options?.[2]).toMatchObject({ takes_value: false, negation: '--no-pin' });
    expect(add?.options?.[3]).toMatchObject({ choices: ['md', 'txt', 'html'], default: 'md' });
    expect(add?.positionals).toEqual([expect.objectContaining({ name: 'text', required: true, variadic: false })]);
    // strict: false → the last arg takes any number of values.
    expect(spec.subcommands[1]?.positionals?.[0]).toMatchObject({ name: 'notebooks', variadic: true, required: false });
    expect(spec.subcommands[1]?.options?.[0]).toMatchObject({ long: 'limit', default: '50' });
    expect(spec.subcommands[1]?.options?.[0]?.sources?.['default']).toBe('sidecar:oclif');
  });

  it('maps a call to the argv oclif parses', () => {
    expect(argvOf(spec, { command: 'notes:add', notebook: 'work', tag: ['a', 'b'], pin: false, text: 'buy milk' })).toEqual([
      'notes:add',
      '--notebook',
      'work',
      '--tag',
      'a',
      '--tag',
      'b',
      '--no-pin',
      'buy milk',
    ]);
  });

  it('reads a single-command manifest (id ".") as the root, and oclif 1 args as an array', () => {
    const single = ok(
      readOclifManifest(JSON.stringify({ commands: { '.': { id: '.', description: 'Greets', flags: { name: { name: 'name', type: 'option', char: 'n' } }, args: [{ name: 'who', required: true }] } } }), { fallbackName: 'greet' }),
    );
    expect(single).toMatchObject({ name: 'greet', description: 'Greets', subcommands: [] });
    expect(single.options[0]).toMatchObject({ long: 'name', short: 'n', takes_value: true });
    expect(single.positionals[0]).toMatchObject({ name: 'who', required: true });
  });

  it.each([
    ['not JSON', '{"commands": ', /JSON/],
    ['no commands', '{"version": "1"}', /no "commands" object/],
    ['a flag of an unknown type', JSON.stringify({ commands: { a: { flags: { x: { name: 'x', type: 'custom' } } } } }), /neither "boolean" nor "option"/],
    ['a command id with a space', JSON.stringify({ commands: { 'a b': {} } }), /not one word/],
  ])('refuses %s with a message', (_what, text, message) => {
    const result = readOclifManifest(text, { fallbackName: 'x' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe('carapace spec', () => {
  const spec = ok(readCarapaceSpec(sample('fetchurl.carapace.yaml'), { fallbackName: 'fetchurl' }));

  it('reads flags with their modifiers, non-posix spellings and nargs; hidden flags and commands are left out', () => {
    expect(spec).toMatchObject({ name: 'fetchurl', description: 'Download files over HTTP' });
    const byName = (name: string) => spec.options.find((option) => option.long === name || option.short === name);
    expect(byName('verbose')).toMatchObject({ short: 'v', repeatable: true, takes_value: false });
    expect(byName('output')).toMatchObject({ short: 'o', takes_value: true, type: 'path' });
    expect(byName('header')).toMatchObject({ takes_value: true, repeatable: true });
    expect(byName('color')).toMatchObject({ takes_value: true, value_optional: true, choices: null });
    expect(byName('token')).toMatchObject({ required: true });
    expect(byName('insecure')).toBeUndefined();
    expect(byName('H')).toMatchObject({ long: null, takes_value: false });
    expect(byName('proxy')).toMatchObject({ prefix: '-', takes_value: true });
    expect(byName('range')).toMatchObject({ value_count: 2 });
    expect(spec.positionals).toEqual([expect.objectContaining({ name: 'arg1', variadic: false }), expect.objectContaining({ name: 'args', variadic: true, type: 'path' })]);
    expect(spec.subcommands.map((command) => command.name)).toEqual(['mirror', 'mirror resume']);
    expect(spec.subcommands[1]?.path).toEqual(['mirror', 'resume']);
    expect(byName('output')?.sources?.['type']).toBe('sidecar:carapace');
  });

  it('maps a call to argv: non-posix single dash, optional values attached, two values per use', () => {
    expect(argvOf(spec, { token: 't', proxy: 'p:1', color: 'never', range: ['0', '9'], arg1: 'https://x' })).toEqual([
      '--color=never',
      '--token',
      't',
      '-proxy',
      'p:1',
      '--range',
      '0',
      '9',
      'https://x',
    ]);
  });

  it.each([
    ['not YAML', 'name: [unclosed', /./],
    ['a list, not a map', '- a\n- b', /not a map/],
    ['a bad flag key', 'name: x\nflags:\n  "--a, --b, --c": no', /not a carapace flag/],
    ['a billion-laughs document', `name: x\na: &a ["x","x"]\n${Array.from({ length: 12 }, (_, i) => `l${i}: &l${i} [${Array(10).fill(i === 0 ? '*a' : `*l${i - 1}`).join(',')}]`).join('\n')}\n`, /alias/i],
  ])('refuses %s with a message', (_what, text, message) => {
    const result = readCarapaceSpec(text, { fallbackName: 'x' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('reads a flag key made of a million modifier characters in linear time (a failure, not a stall)', () => {
    const key = `--a${'='.repeat(500_000)}x${'='.repeat(500_000)}`;
    const result = readCarapaceSpec(`name: x\nflags:\n  "${key}": d\n`, { fallbackName: 'x' });
    expect(result.ok).toBe(false);
  });
});

describe('custom sections', () => {
  const payload = new TextEncoder().encode('bin "sectioned"\nflag "--fast"');

  it('finds a section at the top of a core module, as WebAssembly.Module.customSections does', () => {
    const core = readFileSync(join(FIXTURES, 'argv-list.core.wasm'));
    const withSection = concat(core, customSection('toolhost:spec-usage', payload));
    const found = findCustomSections(withSection, new Set(['toolhost:spec-usage']));
    expect(found.problem).toBeUndefined();
    expect(new TextDecoder().decode(found.sections.get('toolhost:spec-usage'))).toBe('bin "sectioned"\nflag "--fast"');
    const [byEngine] = engine.Module.customSections(new engine.Module(withSection), 'toolhost:spec-usage');
    expect(new Uint8Array(byEngine ?? new ArrayBuffer(0))).toEqual(new Uint8Array(found.sections.get('toolhost:spec-usage') ?? []));
  });

  it('finds a section of a component, at its top or inside an embedded core module', () => {
    const component = readFileSync(join(FIXTURES, 'argv-list.wasm'));
    const top = findCustomSections(concat(component, customSection('toolhost:spec-usage', payload)), new Set(['toolhost:spec-usage']));
    expect(top.sections.has('toolhost:spec-usage')).toBe(true);
    const module = concat(CORE_HEADER, customSection('toolhost:spec-oclif', payload));
    const nested = concat(COMPONENT_HEADER, new Uint8Array([1, ...leb(module.length)]), module);
    expect(findCustomSections(nested, new Set(['toolhost:spec-oclif'])).sections.has('toolhost:spec-oclif')).toBe(true);
  });

  it.each([
    ['a truncated binary', concat(CORE_HEADER, new Uint8Array([0, 0x7f, 1]))],
    ['a size that claims 4 GiB', concat(CORE_HEADER, new Uint8Array([0, 0xff, 0xff, 0xff, 0xff, 0x0f]))],
    ['a LEB128 that never ends', concat(CORE_HEADER, new Uint8Array([0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]))],
    ['not wasm at all', new TextEncoder().encode('#!/bin/sh\necho hi\n')],
  ])('stops at %s with a problem, never a throw', (_what, bytes) => {
    const found = findCustomSections(bytes, new Set(['toolhost:spec-usage']));
    expect(found.sections.size).toBe(0);
    expect(found.problem).toBeTruthy();
  });

  it('stops after the section cap on a binary of a million empty sections', () => {
    const empty = new Uint8Array(2_000_000);
    for (let index = 0; index < empty.length; index += 2) empty[index] = 11; // a data-count-like id, size 0
    const found = findCustomSections(concat(CORE_HEADER, empty), new Set(['toolhost:spec-usage']));
    expect(found.problem).toMatch(new RegExp(`more than ${MAX_SECTIONS_WALKED} sections`));
  });
});

describe('findSpecSidecar: rank, bad and oversized files', () => {
  let root: TempRoot;
  let folder: string;
  beforeAll(() => {
    root = tempRoot('toolhost-sidecars-');
    folder = root.folder('tools');
    mkdirSync(folder, { recursive: true });
  });
  afterAll(() => root.remove());

  it('takes a file over a section, and a usage spec over an oclif manifest, saying which were not used', async () => {
    const wasm = join(folder, 'ranked.wasm');
    writeFileSync(wasm, concat(CORE_HEADER, customSection('toolhost:spec-usage', new TextEncoder().encode('bin "from-section"'))));
    writeFileSync(join(folder, 'ranked.usage.kdl'), 'bin "from-file"');
    writeFileSync(join(folder, 'ranked.oclif.manifest.json'), sample('notes.oclif.manifest.json'));
    const lookup = await findSpecSidecar(wasm);
    expect(lookup.found).toMatchObject({ format: 'usage', origin: 'ranked.usage.kdl', source: 'sidecar:usage' });
    expect(lookup.found?.spec.name).toBe('from-file');
    expect(lookup.warnings.map((warning) => warning.code)).toEqual(['spec-sidecar-shadowed', 'spec-sidecar-shadowed']);
    expect(lookup.present).toEqual(['ranked.usage.kdl', 'ranked.oclif.manifest.json', 'custom section toolhost:spec-usage']);
  });

  it('skips a bad file with a warning and takes the next candidate (here the section)', async () => {
    const wasm = join(folder, 'fallback.wasm');
    writeFileSync(wasm, concat(CORE_HEADER, customSection('toolhost:spec-usage', new TextEncoder().encode('bin "from-section"'))));
    writeFileSync(join(folder, 'fallback.usage.kdl'), 'flag "--broken');
    const lookup = await findSpecSidecar(wasm);
    expect(lookup.found?.spec.name).toBe('from-section');
    expect(lookup.warnings).toEqual([expect.objectContaining({ code: 'spec-sidecar-invalid', message: expect.stringMatching(/^fallback\.usage\.kdl is not used \(.*Unexpected EOF/) })]);
  });

  it('never reads an oversized file, nor a section over the limit, nor a file that is not UTF-8', async () => {
    const wasm = join(folder, 'huge.wasm');
    writeFileSync(wasm, concat(CORE_HEADER, customSection('toolhost:spec-carapace', new Uint8Array(MAX_SPEC_SIDECAR_BYTES + 1).fill(0x61))));
    writeFileSync(join(folder, 'huge.usage.kdl'), `bin "x"\n// ${'a'.repeat(MAX_SPEC_SIDECAR_BYTES)}`);
    writeFileSync(join(folder, 'huge.oclif.manifest.json'), new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    const lookup = await findSpecSidecar(wasm);
    expect(lookup.found).toBeUndefined();
    expect(lookup.warnings.map((warning) => warning.message)).toEqual([
      expect.stringMatching(/^huge\.usage\.kdl is not used \(\d+ bytes, over the 1048576-byte limit\)/),
      expect.stringMatching(/^huge\.oclif\.manifest\.json is not used \(not UTF-8 text\)/),
      expect.stringMatching(/^custom section toolhost:spec-carapace is not used \(\d+ bytes, over the 1048576-byte limit\)/),
    ]);
  });
});

describe('effect → permission level and MCP hints', () => {
  it('raises the level for a declared write or destructive effect, never lowers it', () => {
    expect(permissionWithEffect('none', 'write')).toBe('write');
    expect(permissionWithEffect('read_only', 'destructive')).toBe('write');
    expect(permissionWithEffect('write', 'read')).toBe('write');
    expect(permissionWithEffect('none', 'read')).toBe('none');
    expect(permissionWithEffect('execute', 'write')).toBe('execute');
    expect(permissionWithEffect('read_only', undefined)).toBe('read_only');
  });

  it('refines destructiveHint from a complete declaration; read changes nothing', () => {
    expect(mcpAnnotationsFor('write', false, 'write')).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(mcpAnnotationsFor('write', true, 'destructive')).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(mcpAnnotationsFor('none', false, 'read')).toEqual(mcpAnnotationsFor('none', false));
    expect(mcpAnnotationsFor('write', false, 'read')).toEqual(mcpAnnotationsFor('write', false));
  });
});
