/**
 * Readers of parsers' own error text for a bad value, a missing value or a missing argument. Each
 * reader names the library whose wording it reads and the claim's source (`probe:<dialect>.<rule>`).
 * A closed list is read only from an error that quotes the probe's own sentinel value, so an error
 * about something else is never taken for the option's values. Bounded and linear (text.ts): every
 * regex runs on one capped line and has no nested quantifier.
 */
import type { CliValueType } from '../spec.ts';
import { probeLines, splitValueList } from './text.ts';

/** The value a bad-value probe sends: no parser takes it for an enum member, a number or a path it can open. */
export const PROBE_SENTINEL = 'toolhost-probe-value';
/** The unknown flag sent after the sentinel so that a parser that accepts the value still stops. */
export const PROBE_UNKNOWN_FLAG = 'toolhost-probe-unknown';

export interface ChoicesClaim {
  choices: string[];
  source: string;
}

export interface TypeClaim {
  type: CliValueType;
  source: string;
}

/** The text of both streams (stderr first: parsers write errors there), as capped lines. */
export function errorLines(stdout: string, stderr: string): string[] {
  return probeLines(`${stderr}\n${stdout}`);
}

const mentionsSentinel = (line: string): boolean => line.includes(PROBE_SENTINEL);

/**
 * A closed value list from a parser's error about the sentinel: clap `[possible values: a, b]`,
 * argparse/optparse `invalid choice: '…' (choose from 'a', 'b')`, click `'…' is not one of 'a', 'b'.`,
 * kong `must be one of "a","b" but got "…"`, commander `Allowed choices are a, b.`, yargs
 * `Given: "…", Choices: "a", "b"`, GNU argmatch `Valid arguments are:` followed by `  - 'a', 'b'` lines.
 */
export function readChoicesError(lines: readonly string[]): ChoicesClaim | undefined {
  const sentinelSeen = lines.some(mentionsSentinel);
  if (!sentinelSeen) return undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    let match = /\[possible values: ([^\]]{1,1900})\]/.exec(line);
    if (match?.[1] !== undefined) return claim(splitValueList(match[1]), 'probe:clap.possible-values');
    match = /invalid choice: .{0,300}?\(choose from ([^)]{1,1900})\)/.exec(line);
    if (match?.[1] !== undefined && mentionsSentinel(line)) return claim(splitValueList(match[1]), 'probe:argparse.choose-from');
    match = / is not one of (.{1,1900})$/.exec(line);
    if (match?.[1] !== undefined && mentionsSentinel(line)) return claim(splitValueList(match[1].replace(/\.$/, '')), 'probe:click.not-one-of');
    match = / must be one of (.{1,1900}?) but got /.exec(line);
    if (match?.[1] !== undefined && mentionsSentinel(line)) return claim(splitValueList(match[1]), 'probe:kong.must-be-one-of');
    match = /Allowed choices are (.{1,1900})$/.exec(line);
    if (match?.[1] !== undefined) return claim(splitValueList(match[1].replace(/\.$/, '')), 'probe:commander.allowed-choices');
    match = /Given: .{0,300}?, Choices: (.{1,1900})$/.exec(line);
    if (match?.[1] !== undefined && mentionsSentinel(line)) return claim(splitValueList(match[1]), 'probe:yargs.choices');
    if (/^Valid arguments are:\s*$/.test(line)) {
      const values: string[] = [];
      for (let next = index + 1; next < lines.length; next += 1) {
        const item = /^\s+- (.{1,1900})$/.exec(lines[next] ?? '');
        if (item?.[1] === undefined) break;
        for (const value of splitValueList(item[1])) if (!values.includes(value)) values.push(value);
      }
      return claim(values, 'probe:argmatch.valid-arguments');
    }
  }
  return undefined;
}

function claim(choices: string[], source: string): ChoicesClaim | undefined {
  return choices.length > 0 && !choices.includes(PROBE_SENTINEL) ? { choices, source } : undefined;
}

/**
 * A value type from a parser's conversion error about the sentinel: pflag `strconv.ParseInt` /
 * `ParseFloat` / `ParseBool`, argparse `invalid int value` / `invalid float value`, clap
 * `invalid digit found in string` / `invalid float literal`, click `is not a valid integer` /
 * `is not a valid float`.
 */
export function readTypeError(lines: readonly string[]): TypeClaim | undefined {
  for (const line of lines) {
    if (!mentionsSentinel(line)) continue;
    if (/strconv\.Parse(Int|Uint)\b/.test(line)) return { type: 'integer', source: 'probe:pflag.parse-error' };
    if (/strconv\.ParseFloat\b/.test(line)) return { type: 'number', source: 'probe:pflag.parse-error' };
    if (/strconv\.ParseBool\b/.test(line)) return { type: 'boolean', source: 'probe:pflag.parse-error' };
    if (/\binvalid int value\b/.test(line)) return { type: 'integer', source: 'probe:argparse.invalid-type' };
    if (/\binvalid float value\b/.test(line)) return { type: 'number', source: 'probe:argparse.invalid-type' };
    if (/\bis not a valid integer\b/.test(line)) return { type: 'integer', source: 'probe:click.invalid-type' };
    if (/\bis not a valid float\b/.test(line)) return { type: 'number', source: 'probe:click.invalid-type' };
    if (/\binvalid digit found in string\b/.test(line)) return { type: 'integer', source: 'probe:clap.invalid-value' };
    if (/\binvalid float literal\b/.test(line)) return { type: 'number', source: 'probe:clap.invalid-value' };
  }
  return undefined;
}

/** What Go's flag package (and urfave/cli on it) said about `-name=<value>` followed by an unknown flag. */
export type GoFlagAnswer = 'boolean' | 'parse-error' | 'accepted' | 'needs-argument' | 'unknown';

/**
 * Go flag: `invalid boolean value "…" for -name` (a boolean flag), `invalid value "…" for flag -name:
 * parse error` (a value it could not convert), `flag provided but not defined: -<unknown>` (the value
 * was accepted and parsing went on to the unknown flag), `flag needs an argument: -name`.
 */
export function readGoFlagError(lines: readonly string[], flagName: string): GoFlagAnswer {
  for (const line of lines) {
    if (line.includes('invalid boolean value') && line.includes(`-${flagName}`)) return 'boolean';
    if (line.includes('invalid value') && line.includes(`flag -${flagName}:`)) return 'parse-error';
    if (line.includes(`flag needs an argument: -${flagName}`) || line.includes(`flag needs an argument: --${flagName}`)) return 'needs-argument';
    if (line.includes(`flag provided but not defined: -${PROBE_UNKNOWN_FLAG}`)) return 'accepted';
  }
  return 'unknown';
}

export interface MissingArguments {
  /** Positional names the parser said are required (as printed, `<files> ...` → `files`). */
  positionals: string[];
  /** Option spellings the parser said are required (`--name`). */
  options: string[];
  source: string;
}

/**
 * A no-argument run's complaint: argparse `the following arguments are required: a, --b`, click
 * `Missing argument 'NAME'.` / `Missing option '--name'.`, kong `expected "<files> ..."` /
 * `missing flags: --name=STRING`.
 */
export function readMissingArguments(lines: readonly string[]): MissingArguments | undefined {
  for (const line of lines) {
    let match = /the following arguments are required: (.{1,1900})$/.exec(line);
    if (match?.[1] !== undefined) return split(splitValueList(match[1]), 'probe:argparse.required');
    match = /Missing (argument|option) '([^']{1,200})'/.exec(line);
    if (match?.[2] !== undefined) return split([match[2]], 'probe:click.missing');
    match = /: error: expected "([^"]{1,200})"/.exec(line);
    if (match?.[1] !== undefined) return split([match[1]], 'probe:kong.expected');
    match = /: error: missing flags: (.{1,1900})$/.exec(line);
    if (match?.[1] !== undefined) return split(splitValueList(match[1]).map((flag) => flag.replace(/=.*$/, '')), 'probe:kong.missing-flags');
  }
  return undefined;
}

function split(names: readonly string[], source: string): MissingArguments {
  const positionals: string[] = [];
  const options: string[] = [];
  for (const name of names) {
    for (const part of name.split('/')) {
      const trimmed = part.trim();
      if (trimmed.startsWith('-')) options.push(trimmed.split(/\s/)[0] ?? trimmed);
      else {
        const bare = trimmed.replace(/\s*\.\.\.$/, '').replace(/^<|>$/g, '').replace(/^\[|\]$/g, '');
        if (bare.length > 0) positionals.push(bare);
      }
      break;
    }
  }
  return { positionals, options, source };
}
