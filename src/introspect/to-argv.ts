/**
 * JSON input → argv (without argv[0]), from the same spec and property names as the schema.
 * Values are passed as separate array elements and are never shell-interpreted.
 *
 * Send what the caller sent: every property present in the input goes on the argv, a value equal to
 * the option's documented default included (the schema fills nothing in, see `optionSchema`), so a
 * misread default can never swallow an explicit value; a property left out is never sent.
 *
 * A value is written the way the help shows it: its own argument after the flag (`--width 80`), or in
 * the flag's argument when the spec says `attached` or `value_optional` (`-B4`, `--fast=3`,
 * `-lang=go1.22`), and always so when it starts with `-` (so the program cannot read it as a flag).
 */
import { COMMAND_PROPERTY, propertyNamesOf } from './property-name.ts';
import type { CliOption, CliPositional, CliSpec } from './spec.ts';
import { formatArgValue } from './value-format.ts';
import { hasSeveralValues, isChoiceList, MAX_FLAG_COUNT } from './to-zod.ts';

/** How the option is spelled: `--long`, `-long` (Go flag style), or `-s`. */
export function flagSpellingOf(option: CliOption): string {
  if (option.long !== null) return `${option.prefix ?? '--'}${option.long}`;
  return `-${option.short ?? ''}`;
}

/** True when the value goes in the flag's own argument (`-B4`, `--fast=3`) rather than after it. */
export function writesValueAttached(option: Pick<CliOption, 'attached' | 'value_optional'>, text: string): boolean {
  return option.attached === true || option.value_optional === true || text.startsWith('-');
}

function valueArguments(option: CliOption, text: string): string[] {
  // zstd, brotli `-#  compression level`: the number is the flag itself (`-9`)
  if (option.short === '#' && option.long === null) return [`-${text}`];
  const flag = flagSpellingOf(option);
  if (!writesValueAttached(option, text)) return [flag, text];
  if (option.long !== null) return [`${flag}=${text}`];
  // an empty value glued to a short would leave the flag bare (`-B`), and getopt would take the next
  // argument as its value: its own empty argument is what getopt reads as an empty value (a bare flag
  // is what an empty optional value means: `-l[LEVEL]`)
  if (text === '' && option.value_optional !== true) return [flag, text];
  return [`${flag}${text}`];
}

function optionArguments(option: CliOption, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!option.takes_value) {
    if (option.repeatable && typeof value === 'number') {
      const count = Math.max(0, Math.min(MAX_FLAG_COUNT, Math.trunc(value)));
      return Array.from({ length: count }, () => flagSpellingOf(option));
    }
    if (value === true) return [flagSpellingOf(option)];
    // false is the negation whenever there is one (`--no-color`, pflag's `--color=false`); without one
    // the flag is just left off
    if (value === false && option.negation !== null) return [option.negation];
    return [];
  }
  if (hasSeveralValues(option)) {
    // `--arg name value`, argparse `--ignore a b`: the flag, then each value of one use as its own argument
    const uses = option.repeatable && Array.isArray(value) && value.every(Array.isArray) ? (value as unknown[][]) : [value];
    return uses.flatMap((use) => (Array.isArray(use) && use.length > 0 ? [flagSpellingOf(option), ...use.map((item) => formatArgValue(item))] : []));
  }
  if (isChoiceList(option) && Array.isArray(value)) {
    const joined = value.filter((item) => item !== undefined && item !== null).map((item) => formatArgValue(item));
    return joined.length > 0 ? valueArguments(option, joined.join(option.value_separator)) : [];
  }
  const values = Array.isArray(value) ? value : [value];
  return values.flatMap((item) => (item === undefined || item === null ? [] : valueArguments(option, formatArgValue(item))));
}

/** The values of positionals, in spec order, each variadic item its own argument. */
function positionalArguments(positionals: readonly CliPositional[], properties: readonly string[], input: Record<string, unknown>): string[] {
  const values: string[] = [];
  positionals.forEach((_positional, index) => {
    const value = input[properties[index] ?? ''];
    if (value === undefined || value === null) return;
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined && item !== null) values.push(formatArgValue(item));
  });
  return values;
}

/**
 * The argv (without argv[0]) for an input that satisfies `cliSpecToZod(spec)`: root options, the
 * subcommand, its own options, its own positionals, then the root's positionals; root options follow
 * the subcommand instead when the spec says `options_after_command` (cobra). One `--` precedes the
 * positionals when any of them starts with `-`.
 */
export function cliSpecToArgv(spec: CliSpec, input: Record<string, unknown>): string[] {
  const names = propertyNamesOf(spec);
  const rootArguments: string[] = [];
  spec.options.forEach((option, index) => {
    rootArguments.push(...optionArguments(option, input[names.options[index] ?? '']));
  });
  const command = input[COMMAND_PROPERTY];
  const commandIndex = typeof command === 'string' ? spec.subcommands.findIndex((candidate) => candidate.name === command) : -1;
  const argv: string[] = [];
  const positionalValues: string[] = [];
  if (commandIndex === -1) {
    argv.push(...rootArguments);
  } else {
    const commandArguments: string[] = [];
    (spec.subcommands[commandIndex]?.options ?? []).forEach((option, index) => {
      commandArguments.push(...optionArguments(option, input[names.subcommandOptions[commandIndex]?.[index] ?? '']));
    });
    // A nested command (`boot enable`) is written as its words.
    const words = spec.subcommands[commandIndex]?.path ?? [command as string];
    if (spec.options_after_command === true) argv.push(...words, ...rootArguments, ...commandArguments);
    else argv.push(...rootArguments, ...words, ...commandArguments);
    positionalValues.push(...positionalArguments(spec.subcommands[commandIndex]?.positionals ?? [], names.subcommandPositionals[commandIndex] ?? [], input));
  }
  positionalValues.push(...positionalArguments(spec.positionals, names.positionals, input));
  // argparse reads `--ignore a b file` as three values of --ignore: after an option taking one or
  // more values, `--` ends them, so the positionals stay positionals (a fixed count needs none)
  const openValuesGiven = [...spec.options, ...(spec.subcommands[commandIndex]?.options ?? [])].some(
    (option) => option.takes_value && option.variadic_values === true && argv.includes(flagSpellingOf(option)),
  );
  if (positionalValues.length > 0 && (openValuesGiven || positionalValues.some((value) => value.startsWith('-')))) argv.push('--');
  argv.push(...positionalValues);
  return argv;
}
