/**
 * Subcommands' own options and positionals in ONE flat input object. Providers refuse `oneOf`/`anyOf`
 * at the top of a tool's parameters (OpenAI and Anthropic want a plain object), so the schema cannot
 * tie a parameter to its command; instead:
 *
 * - each subcommand option or positional is an optional property whose description says which
 *   commands take it (`Only with command: build, test.`); the same spelling (name) and shape in
 *   several commands is one property;
 * - `commandOptionProblem` refuses, before the tool runs, a property given with a command that does not
 *   take it (or without a command), and a command's required option or positional left out;
 * - argv puts these options right after the subcommand, then its positionals (see to-argv.ts).
 */
import { COMMAND_PROPERTY, propertyNamesOf } from './property-name.ts';
import type { CliOption, CliPositional, CliSpec, CliSubcommand } from './spec.ts';

export interface CommandOptionProperty {
  property: string;
  /** The option as the first command that has it spells it. */
  option: CliOption;
  /** The commands that take it, in spec order. */
  commands: string[];
  /** Commands for which it is required. */
  requiredFor: string[];
}

/** The properties of subcommands' own options, one per distinct property name. */
export function commandOptionProperties(spec: CliSpec): CommandOptionProperty[] {
  const names = propertyNamesOf(spec);
  return groupByProperty(
    spec,
    (command) => command.options ?? [],
    (commandIndex, optionIndex) => names.subcommandOptions[commandIndex]?.[optionIndex],
    (property, option) => ({ property, option, commands: [], requiredFor: [] }),
  );
}

export interface CommandPositionalProperty {
  property: string;
  /** The positional as the first command that has it writes it. */
  positional: CliPositional;
  /** The commands that take it, in spec order. */
  commands: string[];
  /** Commands for which it is required. */
  requiredFor: string[];
}

/** The properties of subcommands' own positionals, one per distinct property name. */
export function commandPositionalProperties(spec: CliSpec): CommandPositionalProperty[] {
  const names = propertyNamesOf(spec);
  return groupByProperty(
    spec,
    (command) => command.positionals ?? [],
    (commandIndex, positionalIndex) => names.subcommandPositionals[commandIndex]?.[positionalIndex],
    (property, positional) => ({ property, positional, commands: [], requiredFor: [] }),
  );
}

/**
 * One kind of subcommand part (options or positionals) grouped by property name: the entry made for
 * the first command that has the property, then every command that takes it and those that require it.
 */
function groupByProperty<Part extends { required: boolean }, Entry extends { commands: string[]; requiredFor: string[] }>(
  spec: CliSpec,
  partsOf: (command: CliSubcommand) => readonly Part[],
  propertyOf: (commandIndex: number, partIndex: number) => string | undefined,
  entryFor: (property: string, part: Part) => Entry,
): Entry[] {
  const byProperty = new Map<string, Entry>();
  spec.subcommands.forEach((command, commandIndex) => {
    partsOf(command).forEach((part, partIndex) => {
      const property = propertyOf(commandIndex, partIndex);
      if (property === undefined) return;
      let entry = byProperty.get(property);
      if (entry === undefined) {
        entry = entryFor(property, part);
        byProperty.set(property, entry);
      }
      if (!entry.commands.includes(command.name)) entry.commands.push(command.name);
      if (part.required && !entry.requiredFor.includes(command.name)) entry.requiredFor.push(command.name);
    });
  });
  return [...byProperty.values()];
}

function spellingOf(option: CliOption): string {
  return option.long !== null ? `${option.prefix ?? '--'}${option.long}` : `-${option.short ?? ''}`;
}

function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A positional's empty list puts nothing on the argv: a required one is then missing. */
function isGivenPositional(value: unknown): boolean {
  return isGiven(value) && !(Array.isArray(value) && value.length === 0);
}

/**
 * Why an input is refused (a subcommand option or positional given with another command or none,
 * or a command's required option or positional missing), or undefined when it is acceptable.
 */
export function commandOptionProblem(spec: CliSpec, input: Record<string, unknown>): string | undefined {
  const command = typeof input[COMMAND_PROPERTY] === 'string' ? (input[COMMAND_PROPERTY] as string) : undefined;
  const entries = [
    ...commandOptionProperties(spec).map((entry) => ({ ...entry, shown: spellingOf(entry.option), given: isGiven })),
    ...commandPositionalProperties(spec).map((entry) => ({ ...entry, shown: `<${entry.positional.name}>`, given: isGivenPositional })),
  ];
  for (const entry of entries) {
    const given = entry.given(input[entry.property]);
    const list = entry.commands.join(', ');
    if (given && (command === undefined || !entry.commands.includes(command))) {
      const chosen = command === undefined ? 'no command was given' : `the command is "${command}"`;
      return `Parameter "${entry.property}" (${entry.shown}) is only valid with command ${list}; ${chosen}.`;
    }
    if (!given && command !== undefined && entry.requiredFor.includes(command)) {
      return `Command "${command}" requires parameter "${entry.property}" (${entry.shown}).`;
    }
  }
  return undefined;
}
