/** The `toolhost inspect --json` report of a wasm tool: the spec (public fields only), schema and an example argv. */
import { argvExample } from './argv-example.ts';
import type { CliSpec, CliValueType } from './spec.ts';

export interface InspectOption {
  long: string | null;
  short: string | null;
  aliases: string[];
  takes_value: boolean;
  value_name: string | null;
  type: CliValueType;
  default: string | number | boolean | null;
  choices: string[] | null;
  repeatable: boolean;
  required: boolean;
  negation: string | null;
  description: string | null;
}

export interface InspectReport {
  name: string;
  description: string;
  spec: {
    options: InspectOption[];
    positionals: { name: string; required: boolean; variadic: boolean }[];
    subcommands: { name: string; description: string | null }[];
  };
  schema: Record<string, unknown>;
  argv_example: string[];
}

export function buildInspectReport(spec: CliSpec, schema: Record<string, unknown>): InspectReport {
  return {
    name: spec.name,
    description: spec.description,
    spec: {
      options: spec.options.map((option) => ({
        long: option.long ?? null,
        short: option.short ?? null,
        aliases: [...(option.aliases ?? [])],
        takes_value: option.takes_value,
        value_name: option.value_name ?? null,
        type: option.type,
        default: option.default ?? null,
        choices: option.choices ? [...option.choices] : null,
        repeatable: option.repeatable,
        required: option.required,
        negation: option.negation ?? null,
        description: option.description ?? null,
      })),
      positionals: spec.positionals.map((positional) => ({ name: positional.name, required: positional.required, variadic: positional.variadic })),
      subcommands: spec.subcommands.map((command) => ({ name: command.name, description: command.description ?? null })),
    },
    schema,
    argv_example: argvExample(spec),
  };
}
