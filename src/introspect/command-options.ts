/**
 * Subcommands' own options in ONE flat input object. Providers refuse `oneOf`/`anyOf` at the top of
 * a tool's parameters (OpenAI and Anthropic want a plain object), so the schema cannot tie an option
 * to its command; instead:
 *
 * - each subcommand option is an optional property whose description says which commands take it
 *   (`Only with command: build, test.`); the same spelling and shape in several commands is one property;
 * - `commandOptionProblem` refuses, before the tool runs, a property given with a command that does not
 *   take it (or without a command), and a command's required option left out;
 * - argv puts these options right after the subcommand (see to-argv.ts).
 */
import { COMMAND_PROPERTY, propertyNamesOf } from './property-name.ts';
import type { CliOption, CliSpec } from './spec.ts';

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

function spellingOf(option: CliOption): string {
  return option.long !== null ? `${option.prefix ?? '--'}${option.long}` : `-${option.short ?? ''}`;
}

/**
 * Why an input is refused (a subcommand option given with another command or none, or a command's
 * required option missing), or undefined when it is acceptable.
 */
export function commandOptionProblem(spec: CliSpec, input: Record<string, unknown>): string | undefined {
  const command = typeof input[COMMAND_PROPERTY] === 'string' ? (input[COMMAND_PROPERTY] as string) : undefined;
  for (const entry of commandOptionProperties(spec)) {
    const given = input[entry.property] !== undefined && input[entry.property] !== null;
    const list = entry.commands.join(', ');
    if (given && (command === undefined || !entry.commands.includes(command))) {
      const chosen = command === undefined ? 'no command was given' : `the command is "${command}"`;
      return `Parameter "${entry.property}" (${spellingOf(entry.option)}) is only valid with command ${list}; ${chosen}.`;
    }
    if (!given && command !== undefined && entry.requiredFor.includes(command)) {
      return `Command "${command}" requires parameter "${entry.property}" (${spellingOf(entry.option)}).`;
    }
  }
  return undefined;
}
