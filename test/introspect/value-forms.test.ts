/**
 * Issue 25 item 3: attached and optional values (`-B#`, `-O<level>`, `--fast[=#]`, `--color[=WHEN]`,
 * Go's `-lang  str`) from help to argv, their `.tool.json` overrides, "send what the caller sent", and
 * the description rules (help-summary.ts). Each goes from the help text (or spec) through the schema
 * to the argv the program would get.
 */
import { describe, expect, it } from 'vitest';
import { ToolHostError } from '../../src/errors.ts';
import { helpSummary } from '../../src/introspect/help-summary.ts';
import { applyToolOverrides, parseToolOverrides } from '../../src/introspect/overrides.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { parseCliSpec } from '../../src/introspect/spec-schema.ts';
import type { CliOption, CliSpec } from '../../src/introspect/spec.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { jsonSchemaOf } from '../../src/tool.ts';

/** Validates like the host does, then builds the argv. */
function argvFor(spec: CliSpec, input: Record<string, unknown>): string[] {
  return cliSpecToArgv(spec, cliSpecToZod(spec).parse(input) as Record<string, unknown>);
}

function option(fields: Partial<CliOption>): CliOption {
  return { long: null, short: null, aliases: [], takes_value: true, value_name: 'N', type: 'integer', default: null, choices: null, repeatable: false, required: false, negation: null, description: null, ...fields };
}

function specOf(options: CliOption[]): CliSpec {
  return { name: 't', description: '', options, positionals: [{ name: 'file', required: false, variadic: false }], subcommands: [] };
}

const ZSTD_LIKE = `Usage: zstd [OPTIONS...] [INPUT... | -] [-o OUTPUT]

Options:
  -o OUTPUT                     Write output to a single file, OUTPUT.
  -#                            Desired compression level. [Default: 3]
  --fast[=#]                    Use to very fast compression levels. [Default: 1]
  -T#                           Spawn # compression threads. [Default: 1]
  -B#                           Cut file into independent chunks of size #. [Default: 0]
  -O<level>                     Optimization level
  -b#                           Benchmark file(s) using compression level #. [Default: 3]
  --color[=WHEN]                Colorize the output; WHEN is 'always', 'never', or 'auto'
  -j[N], --jobs[=N]             Allow N jobs at once
`;

describe('the help shows a value glued to a short flag: the argv glues it too', () => {
  const spec = parseHelp(ZSTD_LIKE, { fileName: 'zstd' });
  const byShort = (short: string) => spec.options.find((entry) => entry.short === short && entry.long === null);

  it('-B#, -b#, -T#, -O<level> are attached; -o OUTPUT is not; -# stays the number-flag', () => {
    for (const short of ['B', 'b', 'T', 'O']) expect(byShort(short)).toMatchObject({ takes_value: true, attached: true });
    expect(byShort('o')?.attached).toBeUndefined();
    expect(byShort('#')?.attached).toBeUndefined();
  });

  it('maps to -B4 -T2 -O3 (never -B 4, which the program reads as a file)', () => {
    const names = Object.keys(cliSpecToZod(spec).shape);
    expect(names).toEqual(expect.arrayContaining(['b_upper', 'b', 't_upper', 'o_upper', 'o']));
    expect(argvFor(spec, { b_upper: 4, t_upper: 2, o_upper: 3, o: 'out.zst', input: ['in.txt'] })).toEqual(['-o', 'out.zst', '-T2', '-B4', '-O3', 'in.txt']);
  });

  it('--fast[=#] and --color[=WHEN]: --fast=3, --color=never; -j[N], --jobs[=N] writes --jobs=4', () => {
    expect(spec.options.find((entry) => entry.long === 'fast')).toMatchObject({ value_optional: true });
    expect(argvFor(spec, { fast: 3, color: 'never', jobs: 4 })).toEqual(['--fast=3', '--color=never', '--jobs=4']);
  });

  it('a glued value that starts with a dash stays glued (-B-1); an empty one is its own argument', () => {
    const glued = specOf([option({ short: 'B', attached: true, type: 'string' })]);
    expect(cliSpecToArgv(glued, { b_upper: '-1' })).toEqual(['-B-1']);
    // `-B` alone would make getopt take the next argument as the value: `-B ""` is getopt's empty value
    expect(cliSpecToArgv(glued, { b_upper: '', file: 'f' })).toEqual(['-B', '', 'f']);
  });

  it('attached on a long spelling writes --long=VALUE, and on a Go flag -name=VALUE', () => {
    expect(cliSpecToArgv(specOf([option({ long: 'size', attached: true })]), { size: 10 })).toEqual(['--size=10']);
    expect(cliSpecToArgv(specOf([option({ long: 'lang', prefix: '-', type: 'string', attached: true })]), { lang: 'go1.22' })).toEqual(['-lang=go1.22']);
  });

  it('a repeatable attached option glues every value', () => {
    const spec = specOf([option({ short: 'I', attached: true, type: 'path', repeatable: true })]);
    expect(cliSpecToArgv(spec, { i_upper: ['a', 'b'] })).toEqual(['-Ia', '-Ib']);
  });
});

describe("Go flag's type column: `-lang   str    target Go version` takes a value", () => {
  const gofumpt = 'usage: gofumpt [flags] [path ...]\n\t-l        list files whose formatting differs\n\t-extra    enable extra rules\n\n\t-lang       str    target Go version in the form "go1.X" (default from go.mod)\n\t-modpath    str    Go module path containing the source file (default from go.mod)\n';

  it('reads -lang and -modpath as string values, the type word out of the description', () => {
    const spec = parseHelp(gofumpt, { fileName: 'gofumpt' });
    expect(spec.options.find((entry) => entry.long === 'lang')).toMatchObject({ prefix: '-', takes_value: true, type: 'string', value_name: 'str', description: expect.stringMatching(/^target Go version in the form "go1\.X"/) });
    expect(spec.options.find((entry) => entry.long === 'extra')).toMatchObject({ takes_value: false });
    expect(argvFor(spec, { lang: 'go1.22', extra: true, path: ['a.go'] })).toEqual(['-extra', '-lang', 'go1.22', 'a.go']);
  });

  it('a word that is no Go type, or one without a column gap, is description (`-v  str is ignored`)', () => {
    const spec = parseHelp('usage: t [flags]\n\t-quiet    strict mode off\n\t-verbose  str is ignored here\n', { fileName: 't' });
    expect(spec.options.map((entry) => [entry.long, entry.takes_value])).toEqual([['quiet', false], ['verbose', false]]);
  });
});

describe('send what the caller sent', () => {
  const help = 'Usage: base64 [OPTION]... [FILE]\n\n  -d, --decode          decode data\n  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).\n      --color[=WHEN]    colorize (default: auto)\n      --[no-]progress   show progress [Default: enabled]\n';
  const spec = parseHelp(help, { fileName: 'base64' });

  it('an explicit value equal to the default reaches the argv; a left-out one does not', () => {
    expect(spec.options.find((entry) => entry.long === 'wrap')?.default).toBe(76);
    expect(argvFor(spec, { decode: true, wrap: 76, file: 'in.txt' })).toEqual(['--decode', '--wrap', '76', 'in.txt']);
    expect(argvFor(spec, { decode: true, file: 'in.txt' })).toEqual(['--decode', 'in.txt']);
  });

  it('an explicit boolean equal to the default goes on too (true as the flag, false as its negation)', () => {
    const booleans = specOf([option({ long: 'progress', takes_value: false, type: 'boolean', default: true, negation: '--no-progress' }), option({ long: 'quiet', takes_value: false, type: 'boolean', default: false })]);
    expect(argvFor(booleans, { progress: true, quiet: false })).toEqual(['--progress']);
    expect(argvFor(booleans, { progress: false })).toEqual(['--no-progress']);
    expect(argvFor(booleans, {})).toEqual([]);
  });

  it('the schema documents the default without filling it in', () => {
    const schema = cliSpecToZod(spec);
    expect(schema.parse({})).toEqual({});
    const properties = jsonSchemaOf(schema).properties as Record<string, Record<string, unknown>>;
    expect(properties.wrap).toMatchObject({ type: 'integer', default: 76 });
    expect(properties.wrap?.description).toContain('(default: 76)');
    // an optional value's default is what the bare flag means, not what leaving it out means: not documented as `default`
    expect(properties.color).not.toHaveProperty('default');
  });
});

describe('.tool.json per-option value_optional and attached', () => {
  const base = parseHelp('Usage: t [OPTIONS] [FILE]\n\nOptions:\n  -B SIZE           block size\n  --level LEVEL     level\n  --fast            be fast\n  -v                verbose\n', { fileName: 't' });

  it('attached: true glues a value the help wrote apart; value_optional: true attaches a long one', () => {
    const fixed = applyToolOverrides(base, parseToolOverrides({ options: { '-B': { attached: true }, level: { value_optional: true } } }));
    expect(argvFor(fixed, { b_upper: '4', level: 3, file: 'x' })).toEqual(['-B4', '--level=3', 'x']);
    expect(base.options.some((entry) => entry.attached === true || entry.value_optional === true)).toBe(false);
  });

  it('value_optional on a flag makes it take a value; false removes a misread one', () => {
    const fast = applyToolOverrides(base, parseToolOverrides({ options: { fast: { value_optional: true, type: 'integer' } } }));
    expect(fast.options.find((entry) => entry.long === 'fast')).toMatchObject({ takes_value: true, type: 'integer', value_optional: true });
    expect(argvFor(fast, { fast: 3 })).toEqual(['--fast=3']);
    const undone = applyToolOverrides(fast, parseToolOverrides({ options: { fast: { value_optional: false, attached: false } } }));
    expect(undone.options.find((entry) => entry.long === 'fast')).not.toHaveProperty('value_optional');
    expect(argvFor(undone, { fast: 3 })).toEqual(['--fast', '3']);
  });

  it('takes_value: false drops attached and value_optional with the value', () => {
    const glued = applyToolOverrides(base, parseToolOverrides({ options: { '-B': { attached: true } } }));
    const flag = applyToolOverrides(glued, parseToolOverrides({ options: { '-B': { takes_value: false } } }));
    expect(flag.options.find((entry) => entry.short === 'B')).not.toHaveProperty('attached');
  });

  it('refuses a non-boolean and an unknown spelling of the keys', () => {
    expect(() => parseToolOverrides({ options: { '-B': { attached: 'yes' } } })).toThrow(/options\.-B\.attached/);
    let refused: unknown;
    try {
      parseToolOverrides({ options: { '-B': { glued: true } } });
    } catch (error) {
      refused = error;
    }
    expect(ToolHostError.is(refused, 'TOOL_OVERRIDES_INVALID')).toBe(true);
  });

  it('a whole-spec override and --help-json carry attached too', () => {
    const parsed = parseCliSpec({ name: 'z', options: [{ short: 'B', takes_value: true, type: 'integer', attached: true }] });
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(cliSpecToArgv(parsed.spec, { b_upper: 4 })).toEqual(['-B4']);
  });
});

describe('descriptions: the help summary, never a banner (help-summary.ts)', () => {
  const paragraph = (lines: string[], afterUsage = false, afterEntries = false) => ({ lines, afterUsage, afterEntries, indents: lines.map(() => 0) });

  it.each([
    ['zstd banner, then the summary', ZSTD_BANNER, 'Compress or decompress the INPUT file(s); reads from STDIN if INPUT is `-` or not provided.'],
    ['clap name-version-author-about', 'bat 0.22.1\nDavid Peter <mail@david-peter.de>\nA cat(1) clone with wings.\n\nUSAGE:\n    bat [OPTIONS] [FILE]...\n\nOPTIONS:\n    -n, --number   Show line numbers\n', 'A cat(1) clone with wings.'],
    ['a version line with copyright', 'foo version 2.0 (c) 2020 Foo Corp\n\nConvert foo files to bar.\n\nUsage: foo [options] FILE\n\n  -v   verbose\n', 'Convert foo files to bar.'],
    ['a name/version tag after the summary', 'Initialize a fresh project (nuxi init v3.37.0)\n\nUSAGE nuxi init [OPTIONS] [DIR]\n\nOPTIONS\n\n  --force    Override existing directory\n', 'Initialize a fresh project'],
    ['a summary after the banner separator', 'foo 1.2.3 - convert images between formats\n\nUsage: foo [options] FILE\n\n  -v   verbose\n', 'convert images between formats'],
    ['ASCII art over the summary', FIGLET, 'Fast web fuzzer written in Go'],
    ['no summary at all', 'tailwindcss v3.4.17\n\nUsage:\n   tailwindcss [--input input.css] [--output output.css]\n\nOptions:\n   -i, --input    Input file\n', ''],
  ])('%s', (_label, help, description) => {
    expect(parseHelp(help, { fileName: 'tool' }).description).toBe(description);
  });

  it('keeps prose that mentions a version or a number', () => {
    expect(helpSummary([paragraph(['High Performance MPEG 1.0/2.0/2.5 Audio Player for Layers 1, 2 and 3'])], false)).toBe('High Performance MPEG 1.0/2.0/2.5 Audio Player for Layers 1, 2 and 3');
    expect(helpSummary([paragraph(['Starts the web server (default to 127.0.0.1:8090 if no domain is specified)'])], false)).toBe('Starts the web server (default to 127.0.0.1:8090 if no domain is specified)');
    expect(helpSummary([paragraph(['bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.'])], false)).toBe('bzip2, a block-sorting file compressor.');
    expect(helpSummary([paragraph(['Upgrade files to the 2.0 format'])], false)).toBe('Upgrade files to the 2.0 format');
  });

  it('takes a paragraph after the entries only when nothing comes before them', () => {
    const notes = paragraph(['Report problems at the tracker, with the full output.'], true, true);
    expect(helpSummary([paragraph(['foo 1.2.3']), notes], true)).toBe('');
    expect(helpSummary([notes], true)).toBe('Report problems at the tracker, with the full output.');
  });

  it('is linear on a hostile paragraph (long lines of digits, dots and brackets)', () => {
    const hostile = paragraph(Array.from({ length: 200 }, () => `${'1.'.repeat(5000)}(${'[v1.2 '.repeat(2000)}`));
    expect(helpSummary(Array.from({ length: 100 }, () => hostile), false)).toBeTypeOf('string');
  });
});

const ZSTD_BANNER = `*** Zstandard CLI (64-bit) v1.5.4, by Yann Collet ***

Compress or decompress the INPUT file(s); reads from STDIN if INPUT is \`-\` or not provided.

Usage: zstd [OPTIONS...] [INPUT... | -] [-o OUTPUT]

Options:
  -o OUTPUT                     Write output to a single file, OUTPUT.
`;

const FIGLET = String.raw`        /'___\  /'___\           /'___\
       /\ \__/ /\ \__/  __  __  /\ \__/
       \ \ ,__\\ \ ,__\/\ \/\ \ \ \ ,__\
        \ \ \_/ \ \ \_/\ \ \_\ \ \ \ \_/
         \ \_\   \ \_\  \ \____/  \ \_\
          \/_/    \/_/   \/___/    \/_/

Fast web fuzzer written in Go

Usage: ffuf [options]

Options:
  -u URL        Target URL
`;
