import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolHostError } from '../../src/errors.ts';
import { jsonSchemaOf } from '../../src/tool.ts';
import { argvExample } from '../../src/introspect/argv-example.ts';
import { buildInspectReport } from '../../src/introspect/inspect-report.ts';
import { applyToolOverrides, parseToolOverrides, readToolOverrides } from '../../src/introspect/overrides.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { propertyNameOf, propertyNamesOf } from '../../src/introspect/property-name.ts';
import type { CliOption, CliSpec } from '../../src/introspect/spec.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { loadCorpus } from './corpus.ts';

const corpus = Object.fromEntries(loadCorpus().map((entry) => [entry.id, parseHelp(entry.text)]));
function corpusSpec(id: string): CliSpec {
  const spec = corpus[id];
  if (spec === undefined) throw new Error(`no corpus entry ${id}`);
  return spec;
}

function option(fields: Partial<CliOption>): CliOption {
  return {
    long: null, short: null, aliases: [], takes_value: false, value_name: null, type: 'boolean', default: null, choices: null,
    repeatable: false, required: false, negation: null, description: null, ...fields,
  };
}

describe('property names', () => {
  it('snake_cases the long name, else the short name, and resolves collisions deterministically', () => {
    expect(propertyNameOf({ long: 'dry-run', short: 'n' })).toBe('dry_run');
    expect(propertyNameOf({ long: null, short: 'n' })).toBe('n');
    expect(propertyNameOf({ long: null, short: 'V' })).toBe('v_upper');
    const spec: CliSpec = {
      name: 't', description: '', subcommands: [],
      options: [option({ long: 'dry-run' }), option({ long: 'dry_run' }), option({ short: 'v' }), option({ long: 'v' })],
      positionals: [{ name: 'DRY-RUN', required: true, variadic: false }],
    };
    expect(propertyNamesOf(spec)).toEqual({ options: ['dry_run', 'dry_run_2', 'v', 'v_2'], positionals: ['dry_run_3'], subcommandOptions: [], subcommandPositionals: [] });
    expect(Object.keys(cliSpecToZod(spec).shape)).toEqual(['dry_run', 'dry_run_2', 'v', 'v_2', 'dry_run_3']);
  });
});

describe('cliSpecToArgv', () => {
  const clap = corpusSpec('clap-imgconv');
  it('maps a clap spec: values, repeated options, count flags, variadic positionals', () => {
    const input = { output_dir: 'o', format: 'webp', quality: 90, scale: 0.5, force: true, verbose: 2, strip: ['exif', 'icc'], jobs: 4, inputs: ['a.png', 'b.png'] };
    expect(cliSpecToZod(clap).parse(input)).toEqual(input);
    expect(cliSpecToArgv(clap, input)).toEqual([
      '--output-dir', 'o', '--format', 'webp', '--quality', '90', '--scale', '0.5', '--force', '--verbose', '--verbose',
      '--strip', 'exif', '--strip', 'icc', '--jobs', '4', 'a.png', 'b.png',
    ]);
  });

  it('inserts -- before positionals when one starts with a dash and binds dash-leading option values', () => {
    expect(cliSpecToArgv(clap, { scale: -2, inputs: ['ok.png', '-weird.png'] })).toEqual(['--scale=-2', '--', 'ok.png', '-weird.png']);
  });

  it('formats integers exactly and numbers with String()', () => {
    expect(cliSpecToArgv(clap, { quality: 1e21, scale: 1e-7, inputs: ['x'] })).toEqual(['--quality', '1000000000000000000000', '--scale', '1e-7', 'x']);
  });

  it('uses the negation when the input is false, and sends a true equal to the default', () => {
    const click = corpusSpec('click-thumbs');
    expect(cliSpecToArgv(click, { src: 's', recursive: false })).toEqual(['--no-recursive', 's']);
    // true is the flag's default, and the caller sent it: it is sent (issue 25, send what the user sent)
    expect(cliSpecToArgv(click, { src: 's', recursive: true, overwrite: false })).toEqual(['--recursive', 's']);
    expect(cliSpecToArgv(click, { src: 's', overwrite: true })).toEqual(['--overwrite', 's']);
  });

  it('writes Go flags with one dash and switches true-by-default bools off with -name=false', () => {
    const go = corpusSpec('goflag-fileserve');
    expect(cliSpecToArgv(go, { addr: ':9000', gzip: false, v: true, workers: 8 })).toEqual(['-addr', ':9000', '-gzip=false', '-v', '-workers', '8']);
  });

  it('attaches optional values (--opt[=VALUE])', () => {
    expect(cliSpecToArgv(corpusSpec('argp-rotlog'), { suffix: 'old', logfile: ['a.log'] })).toEqual(['--suffix=old', 'a.log']);
  });

  it('puts root options before the subcommand and requires the command when there are no root positionals', () => {
    const backup = corpusSpec('argparse-backup');
    const schema = cliSpecToZod(backup);
    expect(schema.safeParse({ host: 'h' }).success).toBe(false);
    expect(schema.safeParse({ host: 'h', command: 'delete' }).success).toBe(false);
    expect(cliSpecToArgv(backup, schema.parse({ host: 'h', port: 2222, command: 'prune' }))).toEqual(['--host', 'h', '--port', '2222', 'prune']);
    const cobra = corpusSpec('cobra-kubedeploy');
    expect(cliSpecToZod(cobra).safeParse({ manifest: ['m.yaml'] }).success).toBe(true);
  });
});

describe('cliSpecToZod', () => {
  it('derives enums, integers, arrays, required and descriptions with defaults', () => {
    const schema = jsonSchemaOf(cliSpecToZod(corpusSpec('clap-imgconv')));
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.format).toMatchObject({ type: 'string', enum: ['png', 'jpeg', 'webp'], description: 'Output format (default: png)' });
    expect(properties.quality).toMatchObject({ type: 'integer' });
    expect(properties.strip).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(schema.required).toEqual(['inputs']);
    expect(schema.additionalProperties).toBe(false);
  });
});

describe('argvExample', () => {
  it('builds an argv with every required input plus two optional options', () => {
    expect(argvExample(corpusSpec('argparse-backup'))).toEqual(['--dry-run', '--host', 'host', '--port', '1', 'create']);
    // `--mode` defaults to fit: the example shows another choice, since a default never reaches the argv
    expect(argvExample(corpusSpec('yargs-resize'))).toEqual(['--width', '1.5', '--height', '1.5', '--mode', 'fill', 'files']);
  });
});

describe('overrides', () => {
  const directory = mkdtempSync(join(tmpdir(), 'tool-overrides-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('merges name, description and per-option changes, and hides options', () => {
    const spec = corpusSpec('csvstat' in corpus ? 'csvstat' : 'argparse-csvstat');
    const merged = applyToolOverrides(spec, parseToolOverrides({
      name: 'stats', description: 'CSV statistics',
      options: { precision: { type: 'integer', description: 'digits' }, '-q': { hidden: true }, max_rows: { required: true } },
      hide: ['--threshold'],
    }));
    expect(merged.name).toBe('stats');
    expect(merged.description).toBe('CSV statistics');
    expect(merged.options.find((entry) => entry.long === 'precision')).toMatchObject({ type: 'integer', description: 'digits' });
    expect(merged.options.find((entry) => entry.long === 'max-rows')?.required).toBe(true);
    expect(merged.options.some((entry) => entry.long === 'quiet' || entry.long === 'threshold')).toBe(false);
    expect(spec.options.some((entry) => entry.long === 'quiet')).toBe(true);
  });

  it('replaces the whole spec', () => {
    const replaced = applyToolOverrides(corpusSpec('gnu-head'), parseToolOverrides({ spec: { name: 'x', options: [{ long: 'fast' }] } }));
    expect(replaced).toMatchObject({ name: 'x', description: '', positionals: [], subcommands: [] });
    expect(replaced.options).toHaveLength(1);
  });

  it('names the bad field path', async () => {
    const file = join(directory, 'bad.tool.json');
    writeFileSync(file, JSON.stringify({ options: { lines: { type: 'float' } } }));
    await expect(readToolOverrides(file)).rejects.toThrow(/options\.lines\.type/);
    writeFileSync(file, JSON.stringify({ spec: { name: 'ok', options: [{ long: 'x', type: 'integer', bogus: 1 }] } }));
    await expect(readToolOverrides(file)).rejects.toThrow(/spec\.options\.0/);
    writeFileSync(file, '{not json');
    await expect(readToolOverrides(file)).rejects.toSatisfy((error: unknown) => ToolHostError.is(error, 'TOOL_OVERRIDES_INVALID'));
    expect(() => applyToolOverrides(corpusSpec('gnu-head'), { options: { nope: { hidden: true } } })).toThrow(/options\.nope/);
  });

  it('reads a valid file', async () => {
    const file = join(directory, 'good.tool.json');
    writeFileSync(file, JSON.stringify({ name: 'good', secret_params: ['token'] }));
    expect(await readToolOverrides(file)).toEqual({ name: 'good', secret_params: ['token'] });
  });
});

describe('buildInspectReport', () => {
  it('has exactly the public keys (with each field\'s source last), nulls for absent values, and no internal fields', () => {
    const spec = corpusSpec('goflag-fileserve');
    const schema = jsonSchemaOf(cliSpecToZod(spec));
    const report = buildInspectReport(spec, schema);
    expect(Object.keys(report)).toEqual(['name', 'description', 'spec', 'schema', 'argv_example']);
    expect(Object.keys(report.spec)).toEqual(['options', 'positionals', 'subcommands', 'sources']);
    for (const entry of report.spec.options) {
      expect(Object.keys(entry)).toEqual(['long', 'short', 'aliases', 'takes_value', 'value_name', 'type', 'default', 'choices', 'repeatable', 'required', 'negation', 'description', 'sources']);
    }
    expect(report.spec.options.find((entry) => entry.short === 'v')).toMatchObject({ long: null, default: null, choices: null });
    expect(report.schema).toBe(schema);
    expect(report.argv_example).toEqual(argvExample(spec));
    const rotlog = buildInspectReport(corpusSpec('argp-rotlog'), {});
    expect(rotlog.spec.options.some((option) => 'value_optional' in option)).toBe(false);
    expect(Object.keys(rotlog.spec.positionals[0] ?? {})).toEqual(['name', 'required', 'variadic', 'sources']);
  });
});
