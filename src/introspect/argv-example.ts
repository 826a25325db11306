/** An example argv for `inspect`: every required input, plus up to two optional options. */
import { COMMAND_PROPERTY, propertyNamesOf } from './property-name.ts';
import type { CliOption, CliPositional, CliSpec, CliValueType } from './spec.ts';
import { cliSpecToArgv } from './to-argv.ts';
import { valueCountOf } from './to-zod.ts';

function sampleScalar(type: CliValueType, choices: string[] | null, fallbackName: string | null): unknown {
  if (choices !== null && choices.length > 0) return choices[0];
  switch (type) {
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'path':
      return 'path/to/file';
    case 'string':
      return fallbackName !== null ? fallbackName.toLowerCase().replace(/[^a-z0-9_.-]+/g, '_') || 'value' : 'value';
  }
}

/** A sample value that differs from the option's default (an example that shows something the program would not do anyway). */
function sampleOption(option: CliOption): unknown {
  if (!option.takes_value) return option.repeatable ? 1 : option.default !== true;
  const choices = option.choices === null ? null : [...option.choices.filter((choice) => choice !== option.default), ...option.choices];
  let scalar = sampleScalar(option.type, choices, option.value_name ?? option.long ?? option.short);
  if (scalar === option.default && typeof scalar === 'number') scalar += 1;
  if (scalar === option.default && typeof scalar === 'string') scalar = `${scalar}_2`;
  const count = valueCountOf(option);
  const oneUse = count > 1 ? Array.from({ length: count }, (_, index) => (index === 0 ? scalar : sampleScalar(option.type, null, `value${index + 1}`))) : scalar;
  return option.repeatable ? [oneUse] : oneUse;
}

export function argvExample(spec: CliSpec): string[] {
  const names = propertyNamesOf(spec);
  const input: Record<string, unknown> = {};
  const firstCommand = spec.subcommands[0];
  if (firstCommand !== undefined) input[COMMAND_PROPERTY] = firstCommand.name;
  let optionalBudget = 2;
  spec.options.forEach((option, index) => {
    const name = names.options[index];
    if (name === undefined) return;
    if (option.required) input[name] = sampleOption(option);
    else if (optionalBudget > 0) {
      input[name] = sampleOption(option);
      optionalBudget -= 1;
    }
  });
  // the first command's required options (its others are left out: the example stays short)
  (firstCommand?.options ?? []).forEach((option, index) => {
    const name = names.subcommandOptions[0]?.[index];
    if (name !== undefined && option.required) input[name] = sampleOption(option);
  });
  const addRequired = (positionals: readonly CliPositional[], properties: readonly string[]): void => {
    positionals.forEach((positional, index) => {
      const name = properties[index];
      if (name === undefined || !positional.required) return;
      const scalar = sampleScalar(positional.type ?? 'string', null, positional.name);
      input[name] = positional.variadic ? [scalar] : scalar;
    });
  };
  addRequired(firstCommand?.positionals ?? [], names.subcommandPositionals[0] ?? []);
  addRequired(spec.positionals, names.positionals);
  return cliSpecToArgv(spec, input);
}
