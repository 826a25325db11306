/**
 * Spec features beyond one option = one value: two-value options (`--arg name value`), cobra root
 * options after the subcommand, a required `<COMMAND>` before positionals, positionals shown only in
 * a Synopsis line, `.tool.json` corrections of positionals and option fields, and subcommands' own
 * options (flat schema, refused with another command, argv after the command).
 */
import { describe, expect, it } from 'vitest';
import { commandOptionProblem } from '../../src/introspect/command-options.ts';
import { applyToolOverrides, parseToolOverrides } from '../../src/introspect/overrides.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import type { CliOption, CliSpec } from '../../src/introspect/spec.ts';
import { parseCliSpec } from '../../src/introspect/spec-schema.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { jsonSchemaOf } from '../../src/tool.ts';

function argvOf(spec: CliSpec, input: Record<string, unknown>): string[] {
  return cliSpecToArgv(spec, cliSpecToZod(spec).parse(input) as Record<string, unknown>);
}

function option(fields: Partial<CliOption> & Pick<CliOption, 'long'>): CliOption {
  return { short: null, aliases: [], takes_value: false, value_name: null, type: 'boolean', default: null, choices: null, repeatable: false, required: false, negation: null, description: null, ...fields };
}

const JQ_HELP = `Usage:\tjq [OPTIONS] FILTER [FILES...]

Options:
  -n, --null-input          use \`null\` as the single input value;
      --arg name value      set $name to the string value;
  -c, --compact-output      compact instead of pretty-printed output;
`;

describe('two-value options (--arg name value)', () => {
  const spec = parseHelp(JQ_HELP);
  const arg = spec.options.find((candidate) => candidate.long === 'arg');

  it('parses the option as taking two values per use', () => {
    expect(arg).toMatchObject({ takes_value: true, value_count: 2 });
  });

  it('the schema wants exactly two values, as a sized array every provider accepts', () => {
    const schema = cliSpecToZod(spec);
    expect(schema.safeParse({ filter: '.', arg: ['name', 'value'] }).success).toBe(true);
    expect(schema.safeParse({ filter: '.', arg: ['name'] }).success).toBe(false);
    expect(schema.safeParse({ filter: '.', arg: 'name' }).success).toBe(false);
    const property = (jsonSchemaOf(schema) as { properties: Record<string, Record<string, unknown>> }).properties.arg;
    expect(property).toMatchObject({ type: 'array', minItems: 2, maxItems: 2, items: { type: 'string' } });
  });

  it('argv writes the flag, then each value as its own argument', () => {
    expect(argvOf(spec, { filter: '.x', arg: ['who', '-dash'] })).toEqual(['--arg', 'who', '-dash', '.x']);
  });

  it('a repeatable two-value option takes a list of pairs; variadic values take two or more', () => {
    const repeated: CliSpec = { name: 't', description: '', positionals: [], subcommands: [], options: [option({ long: 'arg', takes_value: true, type: 'string', value_count: 2, repeatable: true })] };
    expect(argvOf(repeated, { arg: [['a', '1'], ['b', '2']] })).toEqual(['--arg', 'a', '1', '--arg', 'b', '2']);
    const variadic: CliSpec = { ...repeated, options: [option({ long: 'cmd', takes_value: true, type: 'string', value_count: 2, variadic_values: true })] };
    expect(cliSpecToZod(variadic).safeParse({ cmd: ['x'] }).success).toBe(false);
    expect(argvOf(variadic, { cmd: ['x', 'f1', 'f2'] })).toEqual(['--cmd', 'x', 'f1', 'f2']);
  });

  it('value_count is part of the spec schema (--help-json, .tool.json spec)', () => {
    const parsed = parseCliSpec({ name: 't', options: [{ long: 'arg', takes_value: true, value_count: 2 }] });
    expect(parsed.ok && parsed.spec.options[0]?.value_count).toBe(2);
    expect(parseCliSpec({ name: 't', options: [{ long: 'arg', value_count: 1 }] }).ok).toBe(false);
  });
});

const COBRA_ROOT = `kubedeploy deploys manifests

Usage:
  kubedeploy [command]

Available Commands:
  apply       Apply a manifest
  status      Show rollout status

Flags:
      --context string   kubeconfig context to use
  -h, --help             help for kubedeploy

Use "kubedeploy [command] --help" for more information about a command.
`;

const CLAP_ROOT = `Usage: notes [OPTIONS] <COMMAND>

Commands:
  add   Add a note
  list  List notes

Options:
      --context <CONTEXT>  Context to use
  -h, --help               Print help
`;

describe('root options and the subcommand', () => {
  it('cobra: root (persistent) options go after the subcommand', () => {
    const spec = parseHelp(COBRA_ROOT);
    expect(spec.options_after_command).toBe(true);
    expect(argvOf(spec, { command: 'apply', context: 'prod' })).toEqual(['apply', '--context', 'prod']);
  });

  it('clap, argparse, click: root options stay before the subcommand', () => {
    const spec = parseHelp(CLAP_ROOT);
    expect(spec.options_after_command).toBeUndefined();
    expect(argvOf(spec, { command: 'add', context: 'prod' })).toEqual(['--context', 'prod', 'add']);
  });

  it('`<COMMAND>` written outside brackets before positionals makes the command required', () => {
    const spec = parseHelp('Usage: hashenc [OPTIONS] <COMMAND> <TEXT>\n\nCommands:\n  sha256  Digest\n  hex     Hex\n\nOptions:\n  -u, --url  URL-safe\n');
    expect(spec.command_required).toBe(true);
    const schema = cliSpecToZod(spec);
    expect(schema.safeParse({ text: 'abc' }).success).toBe(false);
    expect(argvOf(spec, { command: 'hex', text: 'abc', url: true })).toEqual(['--url', 'hex', 'abc']);
    // `[COMMAND]` keeps the old rule: optional when the program has root positionals
    expect(parseHelp('Usage: t [OPTIONS] [COMMAND] <TEXT>\n\nCommands:\n  a  A\n  b  B\n').command_required).toBeUndefined();
  });
});

describe('positionals shown only in a Synopsis or Examples line', () => {
  it('gojq: `Usage: gojq [OPTIONS]` plus a synopsis with placeholders', () => {
    const help = 'gojq - Go implementation of jq\n\nSynopsis:\n  % echo \'{"foo": 128}\' | gojq \'.foo\'\n  % gojq [OPTIONS] FILTER [FILES...]\n\nUsage:\n  gojq [OPTIONS]\n\nCommand Options:\n  -r, --raw-output   output raw strings\n';
    expect(parseHelp(help).positionals).toEqual([
      { name: 'FILTER', required: true, variadic: false },
      { name: 'FILES', required: false, variadic: true },
    ]);
  });

  it('an example with real values names nothing; a usage line with positionals wins', () => {
    const examples = 'Usage: conv [OPTIONS]\n\nOptions:\n  -q  quiet\n\nExamples:\n  conv in.png out.jpg\n';
    expect(parseHelp(examples).positionals).toEqual([]);
    const both = 'Usage: conv [OPTIONS] <INPUT>\n\nExamples:\n  conv [OPTIONS] SRC DEST\n';
    expect(parseHelp(both).positionals.map((positional) => positional.name)).toEqual(['INPUT']);
  });
});

describe('.tool.json corrections without a whole spec', () => {
  const base = parseHelp('Usage: gojq [OPTIONS]\n\nOptions:\n  -r, --raw-output   output raw strings\n  --indent   indentation\n  --tab  use tabs\n');

  it('adds positionals in order; new ones are optional unless they say required', () => {
    const spec = applyToolOverrides(base, parseToolOverrides({ positionals: [{ name: 'filter', required: true }, { name: 'files', variadic: true }] }));
    expect(spec.positionals).toEqual([
      { name: 'filter', required: true, variadic: false },
      { name: 'files', required: false, variadic: true },
    ]);
    expect(argvOf(spec, { filter: '.a', files: ['x.json', 'y.json'] })).toEqual(['.a', 'x.json', 'y.json']);
    expect(cliSpecToZod(spec).safeParse({}).success).toBe(false);
  });

  it('corrects a parsed positional by name (case and punctuation ignored), or hides it', () => {
    const parsed = parseHelp('Usage: t [OPTIONS] <INPUT-FILE> [EXTRA]\n');
    const spec = applyToolOverrides(parsed, parseToolOverrides({ positionals: [{ name: 'input_file', variadic: true, type: 'path' }, { name: 'extra', hidden: true }] }));
    expect(spec.positionals).toEqual([{ name: 'INPUT-FILE', required: true, variadic: true, type: 'path' }]);
  });

  it('corrects takes_value, choices, default and repeatable of an option', () => {
    const spec = applyToolOverrides(
      base,
      parseToolOverrides({ options: { indent: { takes_value: true, type: 'integer', default: 2 }, '--tab': { repeatable: true }, 'raw-output': { takes_value: true, choices: ['yes', 'no'] } } }),
    );
    const byLong = (long: string) => spec.options.find((candidate) => candidate.long === long);
    expect(byLong('indent')).toMatchObject({ takes_value: true, type: 'integer', default: 2 });
    expect(byLong('tab')).toMatchObject({ takes_value: false, repeatable: true });
    expect(byLong('raw-output')).toMatchObject({ takes_value: true, type: 'string', choices: ['yes', 'no'] });
    expect(argvOf(spec, { indent: 4, tab: 2, raw_output: 'no' })).toEqual(['--raw-output', 'no', '--indent', '4', '--tab', '--tab']);
    expect(cliSpecToZod(spec).safeParse({ raw_output: 'maybe' }).success).toBe(false);
  });

  it('refuses unknown fields and option names with the field path', () => {
    expect(() => parseToolOverrides({ positionals: [{ name: 'x', optional: true }] })).toThrow(/positionals\.0/);
    expect(() => applyToolOverrides(base, parseToolOverrides({ options: { nope: { takes_value: true } } }))).toThrow(/no option "nope"/);
  });
});

describe('subcommands’ own options', () => {
  const spec: CliSpec = {
    name: 'notes',
    description: '',
    options: [option({ long: 'verbose' })],
    positionals: [],
    subcommands: [
      { name: 'add', description: null, options: [option({ long: 'tag', takes_value: true, type: 'string' }), option({ long: 'text', takes_value: true, type: 'string', required: true })] },
      { name: 'list', description: null, options: [option({ long: 'tag', takes_value: true, type: 'string' }), option({ long: 'limit', takes_value: true, type: 'integer', default: 10 })] },
      { name: 'rm', description: null, options: [option({ long: 'tag', takes_value: true, type: 'integer' })] },
    ],
  };

  it('one property per spelling and shape; a different shape gets its own name', () => {
    const keys = Object.keys(cliSpecToZod(spec).shape);
    expect(keys).toEqual(['command', 'verbose', 'tag', 'text', 'limit', 'tag_2']);
  });

  it('no schema default for a command’s option (it would count as given with every command)', () => {
    expect(cliSpecToZod(spec).parse({ command: 'add', text: 'x' })).toEqual({ command: 'add', text: 'x' });
  });

  it('refuses an option with another command or none, and a command’s required option missing', () => {
    expect(commandOptionProblem(spec, { command: 'list', tag: 'a', limit: 2 })).toBeUndefined();
    expect(commandOptionProblem(spec, { command: 'add', limit: 2, text: 'x' })).toMatch(/"limit" \(--limit\) is only valid with command list; the command is "add"/);
    expect(commandOptionProblem(spec, { tag: 'a' })).toMatch(/only valid with command add, list; no command was given/);
    expect(commandOptionProblem(spec, { command: 'add' })).toMatch(/Command "add" requires parameter "text"/);
  });

  it('argv: root options, the command, then the command’s own options', () => {
    expect(argvOf(spec, { command: 'list', verbose: true, tag: 'w', limit: 3 })).toEqual(['--verbose', 'list', '--tag', 'w', '--limit', '3']);
    expect(argvOf({ ...spec, options_after_command: true }, { command: 'rm', verbose: true, tag_2: 7 })).toEqual(['rm', '--verbose', '--tag', '7']);
  });
});
