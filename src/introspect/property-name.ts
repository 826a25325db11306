/**
 * One naming function shared by the schema side (to-zod) and the argv side (to-argv), so a
 * property always maps back to the option or positional it came from.
 */
import type { CliOption, CliPositional, CliSpec } from './spec.ts';

/** snake_case of a flag or positional name: `dry-run` → `dry_run`, `INPUTS` → `inputs`. */
export function snakeCase(raw: string): string {
  const snake = raw
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (snake.length === 0) return 'value';
  return /^[0-9]/.test(snake) ? `_${snake}` : snake;
}

/** The base property name of an option: snake_case of its long name, else of its short name. */
export function propertyNameOf(option: Pick<CliOption, 'long' | 'short'>): string {
  if (option.long !== null && option.long.length > 0) return snakeCase(option.long);
  if (option.short !== null && option.short.length > 0) {
    // `-V` and `-v` must not collide: upper-case shorts are spelled `v_upper`.
    return /^[A-Z]$/.test(option.short) ? `${option.short.toLowerCase()}_upper` : snakeCase(option.short);
  }
  return 'option';
}

export function positionalPropertyNameOf(positional: Pick<CliPositional, 'name'>): string {
  return snakeCase(positional.name);
}

/** The property name when a spec has subcommands (see subcommand.ts). */
export const COMMAND_PROPERTY = 'command';

/** The property whose text is piped to the tool's stdin, when its spec says it reads stdin. */
export const STDIN_PROPERTY = 'stdin';

export interface PropertyNames {
  options: string[];
  positionals: string[];
  /** Per subcommand (in spec order), the property of each of its own options. */
  subcommandOptions: string[][];
  /** Per subcommand (in spec order), the property of each of its own positionals. */
  subcommandPositionals: string[][];
}

/** What makes two subcommands' options the same parameter: spelling and value shape. */
function optionShapeKey(option: CliOption): string {
  const { long, short, prefix, takes_value, type, choices, repeatable, negation, value_count, variadic_values, value_optional, attached, value_separator } = option;
  return JSON.stringify([long, short, prefix ?? '--', takes_value, type, choices, repeatable, negation, value_count ?? 1, variadic_values ?? false, value_optional ?? false, attached ?? false, value_separator ?? null]);
}

/** What makes two subcommands' positionals the same parameter: name and value shape (not `required`). */
function positionalShapeKey(positional: CliPositional): string {
  return JSON.stringify([positional.name, positional.variadic, positional.type ?? 'string']);
}

/**
 * Final property names of every option and positional, collisions resolved deterministically:
 * options first in spec order, then positionals, then the subcommands' own options, then their own
 * positionals; a later duplicate gets `_2`, `_3`, … Subcommands' options with the same spelling and
 * value shape share one property (`--output FILE` of `build` and of `test`), and so do their
 * positionals with the same name and shape (`<name>` of `remote add` and `remote remove`), so adding
 * subcommand parameters never renames the others.
 */
export function propertyNamesOf(spec: Pick<CliSpec, 'options' | 'positionals' | 'subcommands' | 'stdin'>): PropertyNames {
  const taken = new Set<string>();
  if (spec.subcommands.length > 0) taken.add(COMMAND_PROPERTY);
  if (spec.stdin === true) taken.add(STDIN_PROPERTY);
  const claim = (base: string): string => {
    let name = base;
    for (let suffix = 2; taken.has(name); suffix += 1) name = `${base}_${suffix}`;
    taken.add(name);
    return name;
  };
  const options = spec.options.map((option) => claim(propertyNameOf(option)));
  const positionals = spec.positionals.map((positional) => claim(positionalPropertyNameOf(positional)));
  const shared = new Map<string, string>();
  const subcommandOptions = spec.subcommands.map((command) =>
    (command.options ?? []).map((option) => {
      const key = optionShapeKey(option);
      const existing = shared.get(key);
      if (existing !== undefined) return existing;
      const name = claim(propertyNameOf(option));
      shared.set(key, name);
      return name;
    }),
  );
  const sharedPositionals = new Map<string, string>();
  const subcommandPositionals = spec.subcommands.map((command) => {
    const own = new Set<string>();
    return (command.positionals ?? []).map((positional) => {
      const key = positionalShapeKey(positional);
      const existing = sharedPositionals.get(key);
      // shared across commands, never twice in one command (each is its own argument)
      const name = existing !== undefined && !own.has(existing) ? existing : claim(positionalPropertyNameOf(positional));
      if (existing === undefined) sharedPositionals.set(key, name);
      own.add(name);
      return name;
    });
  });
  return { options, positionals, subcommandOptions, subcommandPositionals };
}
