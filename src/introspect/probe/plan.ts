/**
 * The probes each fingerprinted framework gets, and what they claim. Only the framework the
 * fingerprint chose is probed, with the protocols and error wordings of that library:
 *
 * | framework | probes                                                                              |
 * |-----------|-------------------------------------------------------------------------------------|
 * | cobra     | `__complete ""` (subcommands); `--opt=<sentinel> --<unknown>` (pflag type of string-read options); `__complete [sub] --opt ""` (values); `__complete [sub] -` (flags) |
 * | click     | `_<PROG>_COMPLETE=zsh_complete` (subcommands, values); `--opt <sentinel>`; no-argument run |
 * | yargs     | `--get-yargs-completions` (commands, values); `--opt <sentinel>`                    |
 * | urfave    | `--generate-bash-completion` (subcommands, when the app enabled it); Go flag type probes |
 * | goflag    | `-opt=<sentinel> -<unknown>`: boolean / value-taking / numeric type                  |
 * | kong      | `--opt <sentinel>` (enum); no-argument run (required positionals and flags)         |
 * | clap, argparse, commander | `--opt <sentinel> --<unknown>`; argparse: no-argument run          |
 * | argmatch  | `--opt=<sentinel> --<unknown>`                                                      |
 *
 * A bad-value probe is the sentinel followed by an unknown flag, so a parser that accepts the value
 * still stops before main — except where the library checks every flag name before any value (kong,
 * click, yargs): there the sentinel goes alone. Either way probes run with no grants (sandbox.ts).
 * Options are probed in order of need (value-taking ones without a value list first) until the
 * budget is spent.
 */
import type { CliOption, CliSpec } from '../spec.ts';
import type { ProbeClaim } from './claims.ts';
import { readClickZsh, readCobraComplete, readUrfaveCompletions, readYargsCompletions, type CompletionItem } from './read-completion.ts';
import { errorLines, PROBE_SENTINEL, PROBE_UNKNOWN_FLAG, readChoicesError, readGoFlagError, readMissingArguments, readTypeError } from './read-errors.ts';
import type { BudgetedRunner, ProbeOutput } from './sandbox.ts';
import type { ProbeFramework } from './signatures.ts';

/** At most this many subcommands are probed (each costs runs). */
export const MAX_PROBED_COMMANDS = 16;

interface Scope {
  command: string | null;
  /** argv words naming the command (`["remote", "add"]` for `remote add`). */
  words: string[];
  options: CliOption[];
}

/** The root and each subcommand (its own options), capped. */
function scopesOf(spec: CliSpec): Scope[] {
  const scopes: Scope[] = [{ command: null, words: [], options: spec.options }];
  for (const command of spec.subcommands.slice(0, MAX_PROBED_COMMANDS)) {
    scopes.push({ command: command.name, words: command.name.split(/\s+/).filter(Boolean), options: command.options ?? [] });
  }
  return scopes;
}

/** How the option is written on the command line (`--long`, `-long`, `-s`). */
export function optionSpelling(option: Pick<CliOption, 'long' | 'short' | 'prefix'>): string {
  if (option.long !== null) return `${option.prefix ?? '--'}${option.long}`;
  return `-${option.short ?? ''}`;
}

/** Value-taking single-value options that are worth a value probe, most needed first. */
function valueOptions(options: readonly CliOption[]): CliOption[] {
  const candidates = options.filter((option) => option.takes_value && (option.value_count ?? 1) === 1 && option.type !== 'path' && option.type !== 'boolean');
  const rank = (option: CliOption) => (option.choices === null ? 0 : 1) + (option.type === 'string' ? 0 : 2);
  return candidates.sort((a, b) => rank(a) - rank(b));
}

function words(...parts: (string | readonly string[])[]): string[] {
  return parts.flatMap((part) => (typeof part === 'string' ? [part] : [...part]));
}

type Run = BudgetedRunner['run'];

/** Runs the fingerprinted framework's probes against the spec read from the help. */
export async function runProbes(framework: ProbeFramework, spec: CliSpec, runner: BudgetedRunner): Promise<ProbeClaim[]> {
  const claims: ProbeClaim[] = [];
  const run = runner.run;
  switch (framework) {
    case 'cobra':
      await probeCobra(spec, run, claims);
      break;
    case 'click':
      await probeClick(spec, run, claims);
      break;
    case 'yargs':
      await probeYargs(spec, run, claims);
      break;
    case 'urfave':
      await probeUrfaveCompletion(spec, run, claims);
      await probeGoFlagTypes(spec, run, claims, { booleans: false });
      break;
    case 'goflag':
      await probeGoFlagTypes(spec, run, claims, { booleans: true });
      break;
    case 'kong':
      await probeMissing(run, claims);
      await probeBadValues(spec, run, claims, (option) => [optionSpelling(option), PROBE_SENTINEL]);
      break;
    case 'argparse':
      await probeMissing(run, claims);
      await probeBadValues(spec, run, claims, (option) => [optionSpelling(option), PROBE_SENTINEL, `--${PROBE_UNKNOWN_FLAG}`]);
      break;
    case 'clap':
    case 'commander':
      await probeBadValues(spec, run, claims, (option) => [optionSpelling(option), PROBE_SENTINEL, `--${PROBE_UNKNOWN_FLAG}`]);
      break;
    case 'argmatch':
      await probeBadValues(spec, run, claims, (option) =>
        option.long !== null ? [`${optionSpelling(option)}=${PROBE_SENTINEL}`, `--${PROBE_UNKNOWN_FLAG}`] : [optionSpelling(option), PROBE_SENTINEL, `--${PROBE_UNKNOWN_FLAG}`],
      );
      break;
  }
  return claims;
}

/** Subcommands offered by a completion answer, added only when the help found subcommands too. */
function subcommandClaims(spec: CliSpec, items: readonly CompletionItem[], source: string, skip: ReadonlySet<string>, claims: ProbeClaim[]): void {
  if (spec.subcommands.length === 0) return;
  const known = new Set(spec.subcommands.flatMap((command) => [command.name, ...command.name.split(/\s+/)]));
  for (const item of items) {
    if (item.value.startsWith('-') || known.has(item.value) || skip.has(item.value) || !/^[A-Za-z0-9][\w.:-]{0,63}$/.test(item.value)) continue;
    claims.push({ field: 'subcommand', command: null, name: item.value, description: item.description, source });
  }
}

/** cobra's own commands, never useful to an agent. */
const COBRA_BUILTINS: ReadonlySet<string> = new Set(['help', 'completion', '__complete', '__completeNoDesc']);

async function probeCobra(spec: CliSpec, run: Run, claims: ProbeClaim[]): Promise<void> {
  const root = await run(['__complete', '']);
  const answer = root === undefined ? undefined : readCobraComplete(root.stdout);
  // a program that does not answer the protocol gets no more of it
  if (answer === undefined) return;
  subcommandClaims(spec, answer.items, 'probe:cobra.complete', COBRA_BUILTINS, claims);
  const scopes = scopesOf(spec);
  // pflag converts `--opt=<sentinel>` before it reaches the unknown flag: a boolean, integer or float
  // flag says so (strconv.ParseBool / ParseInt / ParseFloat); a string flag accepts it
  const booleans = new Set<CliOption>();
  for (const scope of scopes) {
    for (const option of scope.options) {
      if (!option.takes_value || option.type !== 'string' || option.choices !== null || (option.value_count ?? 1) !== 1) continue;
      const output = await run([...scope.words, `${optionSpelling(option)}=${PROBE_SENTINEL}`, `--${PROBE_UNKNOWN_FLAG}`]);
      if (output === undefined) return;
      const type = readTypeError(errorLines(output.stdout, output.stderr));
      if (type?.type === 'boolean') {
        booleans.add(option);
        claims.push({ field: 'takes_value', command: scope.command, option: optionSpelling(option), value: false, source: type.source });
      } else if (type !== undefined) {
        claims.push({ field: 'type', command: scope.command, option: optionSpelling(option), value: type.type, source: type.source });
      }
    }
  }
  // what the program completes for a value: when it is what it completes with no flag at all, the
  // flag took no value (the completion went on to the next word), and nothing is claimed
  const sameAsRoot = (values: readonly string[]) => values.length === answer.items.length && values.every((value, index) => answer.items[index]?.value === value);
  for (const scope of scopes) {
    for (const option of valueOptions(scope.options)) {
      if (option.choices !== null || booleans.has(option)) continue;
      const output = await run(words('__complete', scope.words, optionSpelling(option), ''));
      if (output === undefined) return;
      const values = readCobraComplete(output.stdout)?.items.map((item) => item.value) ?? [];
      if (values.length > 0 && !(scope.command === null && sameAsRoot(values))) claims.push({ field: 'suggestions', command: scope.command, option: optionSpelling(option), value: values, source: 'probe:cobra.complete' });
    }
  }
  for (const scope of scopes) {
    const output = await run(words('__complete', scope.words, '-'));
    if (output === undefined) return;
    const known = new Set(scope.options.flatMap((option) => [option.long === null ? '' : `--${option.long}`, option.short === null ? '' : `-${option.short}`, ...option.aliases]));
    const rootKnown = new Set(spec.options.flatMap((option) => [option.long === null ? '' : `--${option.long}`, option.short === null ? '' : `-${option.short}`, ...option.aliases]));
    for (const item of readCobraComplete(output.stdout)?.items ?? []) {
      if (!/^--?[A-Za-z0-9][\w.-]{0,63}$/.test(item.value) || item.value === '--help' || item.value === '-h') continue;
      const option = scope.options.find((entry) => `--${entry.long ?? ''}` === item.value || `-${entry.short ?? ''}` === item.value);
      if (option !== undefined && option.description === null && item.description !== null) {
        claims.push({ field: 'description', command: scope.command, option: item.value, value: item.description, source: 'probe:cobra.complete' });
      } else if (!known.has(item.value) && !rootKnown.has(item.value)) {
        claims.push({ field: 'unlisted_flag', command: scope.command, option: item.value, description: item.description, source: 'probe:cobra.complete' });
      }
    }
  }
}

/** click's environment variable: `_<PROG>_COMPLETE`, the program name upper-cased, `-` and `.` as `_`. */
export function clickCompleteVariable(program: string): string {
  return `_${program.replace(/[-.]/g, '_').toUpperCase()}_COMPLETE`;
}

async function probeClick(spec: CliSpec, run: Run, claims: ProbeClaim[]): Promise<void> {
  const variable = clickCompleteVariable(spec.name);
  const complete = (argv: readonly string[]) => {
    // COMP_WORDS holds the words typed so far plus the (empty) one being completed
    const typed = [spec.name, ...argv];
    return run([], { [variable]: 'zsh_complete', COMP_WORDS: `${typed.join(' ')} `, COMP_CWORD: String(typed.length) });
  };
  const root = await complete([]);
  const items = root === undefined ? undefined : readClickZsh(root.stdout);
  if (items !== undefined) {
    subcommandClaims(spec, items, 'probe:click.complete', new Set(), claims);
    for (const scope of scopesOf(spec)) {
      for (const option of valueOptions(scope.options)) {
        const output = await complete(words(scope.words, optionSpelling(option)));
        if (output === undefined) return;
        const values = readClickZsh(output.stdout)?.map((item) => item.value) ?? [];
        if (values.length > 0) claims.push({ field: 'suggestions', command: scope.command, option: optionSpelling(option), value: values, source: 'probe:click.complete' });
      }
    }
  }
  await probeMissing(run, claims);
  // click converts values after it has checked every flag name: the sentinel goes alone
  await probeBadValues(spec, run, claims, (option) => [optionSpelling(option), PROBE_SENTINEL]);
}

async function probeYargs(spec: CliSpec, run: Run, claims: ProbeClaim[]): Promise<void> {
  const root = await run(['--get-yargs-completions', '']);
  if (root === undefined || root.exitCode !== 0) return;
  subcommandClaims(spec, readYargsCompletions(root.stdout), 'probe:yargs.complete', new Set(['completion']), claims);
  for (const option of valueOptions(spec.options)) {
    const output = await run(['--get-yargs-completions', optionSpelling(option), '']);
    if (output === undefined) return;
    const values = readYargsCompletions(output.stdout).map((item) => item.value).filter((value) => !value.startsWith('-'));
    if (values.length > 0) claims.push({ field: 'suggestions', command: null, option: optionSpelling(option), value: values, source: 'probe:yargs.complete' });
  }
  // yargs' strict mode reports unknown flags before it checks choices: the sentinel goes alone
  await probeBadValues(spec, run, claims, (option) => [optionSpelling(option), PROBE_SENTINEL]);
}

async function probeUrfaveCompletion(spec: CliSpec, run: Run, claims: ProbeClaim[]): Promise<void> {
  const output = await run(['--generate-bash-completion']);
  if (output === undefined || output.exitCode !== 0 || /flag provided but not defined|unknown flag|incorrect usage/i.test(output.stderr)) return;
  subcommandClaims(spec, readUrfaveCompletions(output.stdout), 'probe:urfave.complete', new Set(['help', 'h']), claims);
}

/** A no-argument run: what the parser says is required. */
async function probeMissing(run: Run, claims: ProbeClaim[]): Promise<void> {
  const output = await run([]);
  if (output === undefined) return;
  const missing = readMissingArguments(errorLines(output.stdout, output.stderr));
  if (missing === undefined) return;
  for (const name of missing.positionals) claims.push({ field: 'positional_required', command: null, positional: name, value: true, source: missing.source });
  for (const name of missing.options) claims.push({ field: 'required', command: null, option: name, value: true, source: missing.source });
}

/** One bad-value probe per value-taking option: a closed list or a type from the parser's error. */
async function probeBadValues(spec: CliSpec, run: Run, claims: ProbeClaim[], argvOf: (option: CliOption) => string[]): Promise<void> {
  for (const scope of scopesOf(spec)) {
    for (const option of valueOptions(scope.options)) {
      const output = await run([...scope.words, ...argvOf(option)]);
      if (output === undefined) return;
      const lines = errorLines(output.stdout, output.stderr);
      const choices = readChoicesError(lines);
      if (choices !== undefined) {
        claims.push({ field: 'choices', command: scope.command, option: optionSpelling(option), value: choices.choices, source: choices.source });
        continue;
      }
      const type = readTypeError(lines);
      if (type !== undefined) claims.push({ field: 'type', command: scope.command, option: optionSpelling(option), value: type.type, source: type.source });
    }
  }
}

/**
 * Go flag (and urfave/cli, which parses with it): `-name=<sentinel> -<unknown>` tells a boolean flag
 * (`invalid boolean value`), a value it could not convert (`parse error`: then `1.5` and `7` tell a
 * float from an integer), and a value it accepted (the unknown flag is reached). With `booleans`,
 * flags the help read as boolean are probed too: one that accepts a value takes one.
 */
async function probeGoFlagTypes(spec: CliSpec, run: Run, claims: ProbeClaim[], { booleans }: { booleans: boolean }): Promise<void> {
  const unknown = `-${PROBE_UNKNOWN_FLAG}`;
  const answer = async (scope: Scope, option: CliOption, value: string): Promise<ReturnType<typeof readGoFlagError> | undefined> => {
    const output: ProbeOutput | undefined = await run([...scope.words, `${optionSpelling(option)}=${value}`, unknown]);
    if (output === undefined) return undefined;
    const lines = errorLines(output.stdout, output.stderr);
    return option.long !== null ? readGoFlagError(lines, option.long) : readGoFlagError(lines, option.short ?? '');
  };
  for (const scope of scopesOf(spec)) {
    const strings = scope.options.filter((option) => option.takes_value && (option.value_count ?? 1) === 1 && option.choices === null && (option.type === 'string' || option.type === 'path'));
    const flags = booleans ? scope.options.filter((option) => !option.takes_value) : [];
    for (const option of [...flags, ...strings]) {
      const spelling = optionSpelling(option);
      const first = await answer(scope, option, PROBE_SENTINEL);
      if (first === undefined) return;
      if (first === 'boolean' && option.takes_value) claims.push({ field: 'takes_value', command: scope.command, option: spelling, value: false, source: 'probe:goflag.invalid-boolean' });
      if ((first === 'accepted' || first === 'parse-error') && !option.takes_value) claims.push({ field: 'takes_value', command: scope.command, option: spelling, value: true, source: 'probe:goflag.accepts-value' });
      if (first !== 'parse-error') continue;
      const fraction = await answer(scope, option, '1.5');
      if (fraction === undefined) return;
      if (fraction === 'accepted') {
        claims.push({ field: 'type', command: scope.command, option: spelling, value: 'number', source: 'probe:goflag.parse-error' });
        continue;
      }
      const whole = await answer(scope, option, '7');
      if (whole === undefined) return;
      if (whole === 'accepted') claims.push({ field: 'type', command: scope.command, option: spelling, value: 'integer', source: 'probe:goflag.parse-error' });
    }
  }
}

