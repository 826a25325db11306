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
import type { CliOption, CliPositional, CliSpec } from './spec.ts';

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
  const byProperty = new Map<string, CommandOptionProperty>();
  spec.subcommands.forEach((command, commandIndex) => {
    (command.options ?? []).forEach((option, optionIndex) => {
      const property = names.subcommandOptions[commandIndex]?.[optionIndex];
      if (property === undefined) return;
      let entry = byProperty.get(property);
      if (entry === undefined) {
        entry = { property, option, commands: [], requiredFor: [] };
        byProperty.set(property, entry);
      }
      if (!entry.commands.includes(command.name)) entry.commands.push(command.name);
      if (option.required && !entry.requiredFor.includes(command.name)) entry.requiredFor.push(command.name);
    });
  });
  return [...byProperty.values()];
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
  const byProperty = new Map<string, CommandPositionalProperty>();
  spec.subcommands.forEach((command, commandIndex) => {
    (command.positionals ?? []).forEach((positional, positionalIndex) => {
      const property = names.subcommandPositionals[commandIndex]?.[positionalIndex];
      if (property === undefined) return;
      let entry = byProperty.get(property);
      if (entry === undefined) {
        entry = { property, positional, commands: [], requiredFor: [] };
        byProperty.set(property, entry);
      }
      if (!entry.commands.includes(command.name)) entry.commands.push(command.name);
      if (positional.required && !entry.requiredFor.includes(command.name)) entry.requiredFor.push(command.name);
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
