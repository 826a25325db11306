/**
 * Provenance of the reader architecture: the framework fingerprint, the claims resolver, and the
 * per-field `sources` that `parseHelp` records and `inspect --json` shows.
 */
import { describe, expect, it } from 'vitest';
import { buildInspectReport } from '../../src/introspect/inspect-report.ts';
import { applyToolOverrides } from '../../src/introspect/overrides.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { ClaimLedger, WEIGHT } from '../../src/introspect/reader/claims.ts';
import { fingerprintHelp } from '../../src/introspect/reader/fingerprint.ts';
import type { CliOption } from '../../src/introspect/spec.ts';

const CLAP = `Runs commands

Usage: runner [OPTIONS] <COMMAND>...

Arguments:
  <COMMAND>...  The commands to run

Options:
  -j, --jobs <N>         Parallel jobs [default: 4]
      --style <STYLE>    Output style [possible values: basic, full, nocolor]
  -h, --help             Print help
  -V, --version          Print version
`;

const ARGPARSE = `usage: fetch [-h] [--mode {fast,safe}] url

positional arguments:
  url                the address

options:
  -h, --help         show this help message and exit
  --mode {fast,safe}  how to fetch (default: safe)
`;

const COBRA = `Serve files

Usage:
  srv [flags]
  srv [command]

Available Commands:
  stop        Stop the server

Flags:
  -h, --help          help for srv
      --port int      port to listen on (default 8080)

Use "srv [command] --help" for more information about a command.
`;

const GO_FLAG = `Usage of gen:
  -lang string
    \tlanguage to emit (default "go")
  -v\tverbose output
`;

function option(spec: ReturnType<typeof parseHelp>, long: string): CliOption {
  const found = spec.options.find((candidate) => candidate.long === long);
  if (found === undefined) throw new Error(`no --${long}`);
  return found;
}

describe('framework fingerprint', () => {
  it.each([
    ['clap', CLAP],
    ['argparse', ARGPARSE],
    ['cobra', COBRA],
    ['goflag', GO_FLAG],
    ['click', 'Usage: tidy [OPTIONS] SRC\n\nOptions:\n  -q, --quiet  Say less.\n  -h, --help   Show this message and exit.\n'],
    ['yargs', 'Options:\n  -h, --help     Show help                [boolean]\n  -v, --version  Show version number      [boolean]\n'],
    ['urfave', 'GLOBAL OPTIONS:\n   --debug     debug mode (default: false)\n   --help, -h  show help (default: false)\n'],
    ['docopt', 'Usage:\n  ship new <name>\n  ship (-h | --help)\n\nOptions:\n  -h --help     Show this screen.\n'],
  ])('names %s from its own marks', (framework, text) => {
    expect(fingerprintHelp(text.split('\n')).framework).toBe(framework);
  });

  it('names no framework for a help without any mark (generic), and none on a tie', () => {
    expect(fingerprintHelp(['Usage: thing [-x] FILE', '', '  -x   do it']).framework).toBe('generic');
    // a clap mark and an argparse mark of equal weight: no framework wins
    expect(fingerprintHelp(['  -h, --help   Print help', 'positional arguments:']).framework).toBe('generic');
  });

  it('stays linear on a crafted line (no catastrophic backtracking)', () => {
    const line = `  --x=<${'a'.repeat(40)}>  ${'[default: '.repeat(2000)}`;
    expect(fingerprintHelp([line, line]).framework).toBe('generic');
  });
});

describe('field sources', () => {
  it('names the dialect and the rule behind each field (clap default bracket, possible values)', () => {
    const spec = parseHelp(CLAP);
    expect(option(spec, 'jobs').sources).toMatchObject({ default: 'help:clap.default-bracket', takes_value: 'help:clap.placeholder' });
    expect(option(spec, 'style').sources).toMatchObject({ choices: 'help:clap.choices-possible-values' });
    // the name and shape from the usage line, the description from the arguments section's entry
    expect(spec.positionals[0]?.sources).toMatchObject({ name: 'help:generic.usage-line', variadic: 'help:generic.usage-line', description: 'help:generic.positional-entry' });
    expect(spec.sources).toMatchObject({ name: 'help:generic.usage-line', framework: 'help:fingerprint.clap' });
  });

  it('argparse: choices from the placeholder braces, the default from its parenthesis', () => {
    const spec = parseHelp(ARGPARSE);
    expect(option(spec, 'mode')).toMatchObject({ choices: ['fast', 'safe'], default: 'safe' });
    expect(option(spec, 'mode').sources).toMatchObject({ choices: 'help:argparse.choices-placeholder', default: 'help:argparse.default-paren' });
  });

  it('cobra: persistent flags, the pflag default; Go flag: the flag line reader', () => {
    const cobra = parseHelp(COBRA);
    expect(option(cobra, 'port').sources).toMatchObject({ default: 'help:cobra.default-paren' });
    expect(cobra.sources).toMatchObject({ options_after_command: 'help:cobra.persistent-flags', subcommands: 'help:generic.command-entry' });
    const go = parseHelp(GO_FLAG);
    expect(option(go, 'lang')).toMatchObject({ takes_value: true, default: 'go' });
    expect(option(go, 'lang').sources).toMatchObject({ takes_value: 'help:goflag.flag-line', default: 'help:goflag.flag-line' });
    expect(go.sources).toMatchObject({ name: 'help:goflag.usage-of' });
  });

  it('item-level claims: an option only the usage or an example names, and a collapsed numbered run, are their reader\'s', () => {
    const spec = parseHelp(['Usage: cwebp [-o <file>] [options] file1 file2 fileN', '', 'Options:', '  -q <float>   quality factor', '', 'Examples:', '  $ cwebp -install', '  Install the local encoder.', ''].join('\n'));
    expect(spec.options.find((one) => one.short === 'o')).toMatchObject({ takes_value: true, value_name: 'file', sources: { short: 'help:generic.usage-line', takes_value: 'help:generic.usage-line', value_name: 'help:generic.usage-line' } });
    expect(option(spec, 'install')).toMatchObject({ takes_value: false, sources: { long: 'help:generic.example-line', description: 'help:generic.example-line' } });
    const numbered = parseHelp(['Usage: pbzip2 [options] file1 file2 fileN', '', 'Options:', '  -q <float>   quality factor', ''].join('\n'));
    expect(numbered.positionals).toEqual([{ name: 'file', required: true, variadic: true }]);
    expect(numbered.positionals[0]?.sources).toEqual({ name: 'help:generic.positional-prose', required: 'help:generic.positional-prose', variadic: 'help:generic.positional-prose' });
  });

  it('a field left unset carries no source, and the program name falls back to the file name', () => {
    const spec = parseHelp('  -q   quiet\n', { fileName: 'quietly.wasm' });
    expect(spec.name).toBe('quietly');
    expect(spec.sources?.name).toBe('file-name');
    expect(spec.options[0]?.sources?.default).toBeUndefined();
    expect(spec.options[0]?.sources?.choices).toBeUndefined();
  });

  it('inspect --json shows the sources in the spec, per option and positional, as it does for probes and sidecars', () => {
    const spec = parseHelp(CLAP);
    const report = buildInspectReport(spec, {});
    expect(Object.keys(report)).toEqual(['name', 'description', 'spec', 'schema', 'argv_example']);
    expect(report.spec.sources?.['framework']).toBe('help:fingerprint.clap');
    expect(report.spec.options.find((option) => option.long === 'jobs')?.sources?.['default']).toBe('help:clap.default-bracket');
    expect(report.spec.positionals[0]).toMatchObject({ name: 'COMMAND', sources: { variadic: 'help:generic.usage-line' } });
  });

  it('sources are metadata: no part of the spec value (equality, JSON)', () => {
    const spec = parseHelp(ARGPARSE);
    const mode = option(spec, 'mode');
    expect(mode.sources?.choices).toBe('help:argparse.choices-placeholder');
    expect(Object.keys(mode)).not.toContain('sources');
    expect(JSON.stringify(spec)).not.toContain('help:');
    expect(spec.positionals).toEqual([{ name: 'url', required: true, variadic: false, description: 'the address' }]);
  });

  it('.tool.json overrides keep the help sources and record `override` for what they set', () => {
    const spec = applyToolOverrides(parseHelp(CLAP), { description: 'Runs things', options: { jobs: { default: 8 } }, positionals: [{ name: 'COMMAND', required: false }] });
    expect(option(spec, 'jobs').sources).toMatchObject({ default: 'override', takes_value: 'help:clap.placeholder' });
    expect(option(spec, 'style').sources).toMatchObject({ choices: 'help:clap.choices-possible-values' });
    expect(spec.positionals[0]?.sources).toMatchObject({ required: 'override', name: 'help:generic.usage-line' });
    expect(spec.sources).toMatchObject({ description: 'override', name: 'help:generic.usage-line' });
  });

  it('a spec without any recorded source (from --help-json) shows no sources', () => {
    const report = buildInspectReport({ name: 'x', description: '', options: [], positionals: [], subcommands: [] }, {});
    expect(report.spec).not.toHaveProperty('sources');
  });
});

describe('claims resolver', () => {
  const blank = (): CliOption => ({ long: 'x', short: null, aliases: [], takes_value: false, value_name: null, type: 'string', default: null, choices: null, repeatable: false, required: false, negation: null, description: null });

  it('a fallback claim fills an unset field but never overrides a stronger one', () => {
    const ledger = new ClaimLedger();
    const target = blank();
    expect(ledger.claim({ field: 'default', option: target, value: 'a', source: 'help:generic.x', weight: WEIGHT.generic })).toBe(true);
    expect(ledger.claim({ field: 'default', option: target, value: 'b', source: 'help:generic.evidence', weight: WEIGHT.fallback })).toBe(false);
    expect(target.default).toBe('a');
    // a later reader of the same weight corrects the earlier one (readers run in table order)
    expect(ledger.claim({ field: 'default', option: target, value: null, source: 'help:generic.drop', weight: WEIGHT.generic })).toBe(true);
    expect(ledger.claim({ field: 'default', option: target, value: 'c', source: 'help:generic.evidence', weight: WEIGHT.fallback })).toBe(true);
    ledger.finish([target]);
    expect(target).toMatchObject({ default: 'c', sources: { default: 'help:generic.evidence' } });
  });

  it('an item-level claim: a new item\'s set fields are its reader\'s; a replacement keeps the old claims and claims what it changes', () => {
    const ledger = new ClaimLedger();
    const first = ledger.exists({ ...blank(), long: 'sort', takes_value: true, type: 'string' as const }, 'help:clap.option-entry');
    ledger.claimer('help:clap.possible-values', WEIGHT.dialect)(first, 'choices', ['none', 'path']);
    // a reader splitting or renaming the option builds a new object where the old one stood
    const second = ledger.replaces(first, { ...first, choices: ['none', 'path'], short: 's' }, 'help:generic.split');
    // the weaker reader's changed choices on the replacement do not stand against the dialect's
    const third = ledger.replaces(second, { ...second, choices: ['x'] }, 'help:generic.guess', WEIGHT.fallback);
    ledger.finish([third]);
    expect(third.choices).toEqual(['none', 'path']);
    expect(third.sources).toEqual({ long: 'help:clap.option-entry', takes_value: 'help:clap.option-entry', type: 'help:clap.option-entry', choices: 'help:clap.possible-values', short: 'help:generic.split' });
  });

  it('a reader\'s field claims: each field it changes is claimed under its source; a weaker change is refused', () => {
    const ledger = new ClaimLedger();
    const target = blank();
    ledger.claimer('help:clap.entry', WEIGHT.dialect)(target, 'choices', ['a', 'b']);
    const guess = ledger.claimer('help:generic.guess', WEIGHT.fallback);
    guess(target, 'choices', ['z']);
    guess(target, 'default', 'a');
    ledger.finish([target]);
    expect(target.choices).toEqual(['a', 'b']);
    expect(target.sources).toEqual({ choices: 'help:clap.entry', default: 'help:generic.guess' });
  });

  it('a list reader\'s item-level claims: a new item exists, one of the same name replaces the old and keeps its claims', () => {
    const ledger = new ClaimLedger();
    const before = [ledger.exists({ name: 'FILE', required: true, variadic: false }, 'help:generic.usage-line', WEIGHT.generic, ['name', 'required', 'variadic'])];
    const after = ledger.list('help:generic.positional-entry', before, [{ name: 'FILE', required: false, variadic: false }, { name: 'DEST', required: true, variadic: false }], (item) => item.name);
    ledger.finish(after);
    expect(after.map((item) => (item as { sources?: unknown }).sources)).toEqual([
      { name: 'help:generic.usage-line', required: 'help:generic.positional-entry' },
      { name: 'help:generic.positional-entry', required: 'help:generic.positional-entry' },
    ]);
  });
});
