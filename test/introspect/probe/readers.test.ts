/**
 * The probe output readers, on the wording each library prints (copied from real runs: cobra, kong,
 * Go flag, pflag and urfave from the go-* fixtures; clap, argparse, click, commander, yargs and GNU
 * argmatch from their own error templates), and on hostile output: huge, line-less, pathological.
 */
import { describe, expect, it } from 'vitest';
import { readClickZsh, readCobraComplete, readYargsCompletions } from '../../../src/introspect/probe/read-completion.ts';
import { errorLines, PROBE_SENTINEL, readChoicesError, readGoFlagError, readMissingArguments, readTypeError } from '../../../src/introspect/probe/read-errors.ts';
import { MAX_PROBE_VALUES } from '../../../src/introspect/probe/text.ts';

const S = PROBE_SENTINEL;
const choicesOf = (stderr: string) => readChoicesError(errorLines('', stderr));

describe('closed lists from a parser\'s own error', () => {
  it.each([
    [`error: invalid value '${S}' for '--color <WHEN>'\n  [possible values: always, auto, never]\n\nFor more information, try '--help'.`, ['always', 'auto', 'never'], 'probe:clap.possible-values'],
    [`usage: pip [-h] [--upgrade-strategy {eager,only-if-needed}]\npip: error: argument --upgrade-strategy: invalid choice: '${S}' (choose from 'eager', 'only-if-needed')`, ['eager', 'only-if-needed'], 'probe:argparse.choose-from'],
    [`Usage: app [OPTIONS]\nTry 'app --help' for help.\n\nError: Invalid value for '--color': '${S}' is not one of 'always', 'never', 'auto'.`, ['always', 'never', 'auto'], 'probe:click.not-one-of'],
    [`go-chroma: error: --formatter must be one of "html","json","tokens","terminal256","noop" but got "${S}"`, ['html', 'json', 'tokens', 'terminal256', 'noop'], 'probe:kong.must-be-one-of'],
    [`error: option '--color <when>' argument '${S}' is invalid. Allowed choices are always, never.`, ['always', 'never'], 'probe:commander.allowed-choices'],
    [`Invalid values:\n  Argument: color, Given: "${S}", Choices: "always", "never"`, ['always', 'never'], 'probe:yargs.choices'],
    [`ls: invalid argument '${S}' for '--color'\nValid arguments are:\n  - 'always', 'yes', 'force'\n  - 'never', 'no', 'none'\n  - 'auto', 'tty', 'if-tty'\nUsage: ls [OPTION]... [FILE]...`, ['always', 'yes', 'force', 'never', 'no', 'none', 'auto', 'tty', 'if-tty'], 'probe:argmatch.valid-arguments'],
  ])('%#: reads the list and names its rule', (stderr, choices, source) => {
    expect(choicesOf(stderr)).toEqual({ choices, source });
  });

  it('takes no list from an error that is not about the sentinel', () => {
    expect(choicesOf(`error: --mode must be one of "a","b" but got "x"`)).toBeUndefined();
    expect(choicesOf(`argument --x: invalid choice: 'other' (choose from 'a', 'b')`)).toBeUndefined();
  });

  it('takes nothing from an unknown-flag answer (the value was accepted)', () => {
    expect(choicesOf('go-chroma: error: unknown flag --toolhost-probe-unknown')).toBeUndefined();
  });
});

describe('types and value-taking from conversion errors', () => {
  it('reads pflag, argparse, click and clap conversion errors', () => {
    const typeOf = (stderr: string) => readTypeError(errorLines('', stderr))?.type;
    expect(typeOf(`Error: invalid argument "${S}" for "-I, --indent" flag: strconv.ParseInt: parsing "${S}": invalid syntax`)).toBe('integer');
    expect(typeOf(`Error: invalid argument "${S}" for "-C, --colors" flag: strconv.ParseBool: parsing "${S}": invalid syntax`)).toBe('boolean');
    expect(typeOf(`prog: error: argument --n: invalid float value: '${S}'`)).toBe('number');
    expect(typeOf(`Error: Invalid value for '--count': '${S}' is not a valid integer.`)).toBe('integer');
    expect(typeOf(`error: invalid value '${S}' for '--jobs <N>': invalid digit found in string`)).toBe('integer');
    expect(typeOf('Error: unknown flag: --toolhost-probe-unknown')).toBeUndefined();
  });

  it('tells Go flag\'s answers apart', () => {
    const answer = (stderr: string, flag: string) => readGoFlagError(errorLines('', stderr), flag);
    expect(answer(`invalid boolean value "${S}" for -w: parse error`, 'w')).toBe('boolean');
    expect(answer(`incorrect usage: invalid value "${S}" for flag -limit-recursion: parse error`, 'limit-recursion')).toBe('parse-error');
    expect(answer('incorrect usage: flag provided but not defined: -toolhost-probe-unknown', 'format')).toBe('accepted');
    expect(answer('incorrect usage: flag needs an argument: -format', 'format')).toBe('needs-argument');
    expect(answer('stat toolhost-probe-value: Bad file number', 'w')).toBe('unknown');
  });

  it('reads what a no-argument run says is required', () => {
    expect(readMissingArguments(errorLines('', 'go-chroma: error: expected "<files> ..."'))).toEqual({ positionals: ['files'], options: [], source: 'probe:kong.expected' });
    expect(readMissingArguments(errorLines('', 'prog: error: the following arguments are required: src, --out'))).toEqual({ positionals: ['src'], options: ['--out'], source: 'probe:argparse.required' });
    expect(readMissingArguments(errorLines('', "Error: Missing argument 'NAME'."))).toEqual({ positionals: ['NAME'], options: [], source: 'probe:click.missing' });
  });
});

describe('completion answers', () => {
  it('reads cobra\'s items and directive, and refuses output without a directive line', () => {
    const answer = readCobraComplete('auto\nyaml\n\njson\n:4\n');
    expect(answer).toEqual({ directive: 4, items: [{ value: 'auto', description: null }, { value: 'yaml', description: null }, { value: 'json', description: null }] });
    expect(readCobraComplete('--colors\tforce print with colors\n:4\n')?.items).toEqual([{ value: '--colors', description: 'force print with colors' }]);
    expect(readCobraComplete('Error: unknown command "__complete"\n')).toBeUndefined();
    // an error directive, or file-extension filtering, carries no values
    expect(readCobraComplete('yaml\nyml\n:8\n')?.items).toEqual([]);
    expect(readCobraComplete('x\n:1\n')?.items).toEqual([]);
  });

  it('reads click\'s zsh triples and refuses other shapes', () => {
    expect(readClickZsh('plain\nalways\n_\nplain\nnever\nDo not color\nfile\n\n_\n')).toEqual([
      { value: 'always', description: null },
      { value: 'never', description: 'Do not color' },
    ]);
    expect(readClickZsh('Usage: app [OPTIONS]\nError: No such option\n')).toBeUndefined();
  });

  it('reads yargs\' lines with and without descriptions', () => {
    expect(readYargsCompletions('serve:Start the server\nbuild\n')).toEqual([
      { value: 'serve', description: 'Start the server' },
      { value: 'build', description: null },
    ]);
  });
});

describe('hostile probe output is bounded', () => {
  it('caps a closed list from a huge error at MAX_PROBE_VALUES values', () => {
    const list = Array.from({ length: 100_000 }, (_, index) => `v${index}`).join(', ');
    const claim = choicesOf(`error: invalid value '${S}' for '--x <X>'\n  [possible values: ${list}]`);
    // the line is cut before its closing bracket: nothing is read rather than a truncated list
    expect(claim === undefined || claim.choices.length <= MAX_PROBE_VALUES).toBe(true);
    const shorter = Array.from({ length: 400 }, (_, index) => `v${index}`).join(',');
    expect(choicesOf(`"${S}" is not one of ${shorter}`)?.choices.length).toBe(MAX_PROBE_VALUES);
  });

  it('reads megabytes of completion lines, line-less output and escape soup without failing', () => {
    const many = `${'x\tdesc\n'.repeat(1_000_000)}:4\n`;
    expect(readCobraComplete(many)?.items.length ?? 0).toBeLessThanOrEqual(MAX_PROBE_VALUES);
    expect(readCobraComplete('a'.repeat(5_000_000))).toBeUndefined();
    expect(readClickZsh('plain\n'.repeat(1_000_000))).toBeUndefined();
    expect(readChoicesError(errorLines('\u001b['.repeat(200_000), ` must be one of ${'"a",'.repeat(200_000)}`))).toBeUndefined();
    expect(readYargsCompletions(`${':'.repeat(2_000_000)}\n`.repeat(3)).length).toBeLessThanOrEqual(MAX_PROBE_VALUES);
  });
});
