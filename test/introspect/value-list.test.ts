/**
 * Options whose one value is a comma-joined list of choices (`--style <components>  Comma-separated
 * list of style elements (auto, full, plain)`): the schema offers an array of the choices, each
 * checked, and argv joins them into one value. Unit checks on the detection and the spec → schema →
 * argv path, then a real component (rt-echo prints its argv) with the list declared in `.tool.json`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliOption, CliSpec } from '../../src/introspect/spec.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { valueSeparatorOf } from '../../src/introspect/value-list.ts';
import { echoHostWithToolJson, type ExtHost } from '../extensions/helpers.ts';

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

describe('parsed from help', () => {
  it('a comma-separated list with stated values gets the separator; one value with choices does not', () => {
    const spec = parseHelp(
      'Usage: viewer [OPTIONS] [FILE]...\n\nOptions:\n' +
        '      --style <components>  Comma-separated list of style elements to display (*default*, auto, full, plain).\n' +
        '      --color <when>        When to use colors (*auto*, never, always).\n' +
        '      --names <list>        Comma-separated list of names.\n',
      { fileName: 'viewer.wasm' },
    );
    const byName = new Map(spec.options.map((option) => [option.long, option]));
    expect(byName.get('style')).toMatchObject({ choices: ['default', 'auto', 'full', 'plain'], value_separator: ',' });
    expect(byName.get('color')?.value_separator).toBeUndefined();
    // without choices a list is one free string: nothing to check item by item
    expect(byName.get('names')?.value_separator).toBeUndefined();
    const schema = cliSpecToZod(spec);
    expect(cliSpecToArgv(spec, schema.parse({ style: ['full', 'plain'], color: 'never' }))).toEqual(['--style', 'full,plain', '--color', 'never']);
  });
});

describe('an optional value with a stated default (GNU `--iso-8601[=FMT]`, FMT defaults to date)', () => {
  const spec = parseHelp(
    "Usage: date [OPTION]... [+FORMAT]\n\n  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.\n                               FMT='date' for date only (the default),\n                               'hours', 'minutes', 'seconds', or 'ns'\n                               for date and time to the indicated precision.\n",
    { fileName: 'date.wasm' },
  );

  it('is what the bare flag means, so the schema fills nothing in and the argv keeps the flag', () => {
    const schema = cliSpecToZod(spec);
    expect(schema.parse({})).toEqual({});
    expect(cliSpecToArgv(spec, schema.parse({ iso_8601: 'date' }))).toEqual(['--iso-8601=date']);
    expect(cliSpecToArgv(spec, schema.parse({}))).toEqual([]);
  });
});

describe('with a real component', () => {
  let served: Awaited<ReturnType<typeof echoHostWithToolJson>>;
  let ext: ExtHost;

  beforeAll(async () => {
    served = await echoHostWithToolJson('viewer', { output: 'envelope', spec: { name: 'viewer', description: 'views files', options: [{ long: 'style', takes_value: true, choices: ['auto', 'full', 'plain'] }], positionals: [], subcommands: [] }, options: { style: { value_separator: ',' } } });
    ext = served.ext;
  }, 120_000);

  afterAll(() => served.close());

  it('an override makes the option a list: the program gets one joined value, and a wrong item is refused before it runs', async () => {
    const joined = await ext.host.callTool('viewer', { style: ['full', 'plain'] });
    expect(joined.is_error, joined.content).toBe(false);
    expect(joined.content).toBe('--style full,plain');
    const wrong = await ext.host.callTool('viewer', { style: ['full', 'fancy'] });
    expect(wrong.is_error).toBe(true);
    expect(wrong.content).toMatch(/style/);
  });
});
