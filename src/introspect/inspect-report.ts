/** The `toolhost inspect --json` report of a wasm tool: the spec (public fields only), schema and an example argv. */
import { argvExample } from './argv-example.ts';
import type { UnparsedLine } from './help-scan.ts';
import type { CliOption, CliPositional, CliSpec, CliValueType, FieldSources } from './spec.ts';

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
  /** Values per use, when more than one (`--arg name value`). */
  value_count?: number;
  variadic_values?: boolean;
  /** One use takes a list of values joined by it (`--style header,grid`). */
  value_separator?: ',';
}

export interface InspectPositional {
  name: string;
  required: boolean;
  variadic: boolean;
}

/** One option's or positional's field sources, named as the spec names it (`--times`, `-n`, `TEXT`). */
export interface InspectFieldSources {
  name: string;
  fields: FieldSources;
}

/**
 * Where each field of the spec came from, beside the spec (whose shape stays as it is): spec-level
 * fields (`name`, `description`, …, and `framework`, the help's fingerprint), then per option and
 * positional in spec order. A source is `<kind>:<detail>`: `help:clap.default-bracket`,
 * `help:generic.usage-line`, `probe:…`, `sidecar:…`, `help-json`, `override`.
 */
export interface InspectSources {
  spec: FieldSources;
  options: InspectFieldSources[];
  positionals: InspectFieldSources[];
  subcommands?: { name: string; options: InspectFieldSources[]; positionals: InspectFieldSources[] }[];
}

export interface InspectReport {
  name: string;
  description: string;
  spec: {
    options: InspectOption[];
    positionals: InspectPositional[];
    subcommands: { name: string; description: string | null; options?: InspectOption[]; positionals?: InspectPositional[] }[];
    /** Root options go after the subcommand on the argv (cobra). */
    options_after_command?: boolean;
  };
  schema: Record<string, unknown>;
  argv_example: string[];
  /** Lines of the help's options sections the parser could not read (present when the help was parsed). */
  not_understood?: { count: number; lines: UnparsedLine[] };
}

const MAX_REPORTED_LINES = 10;

/** `3 lines in the options sections were not parsed: …` for `check` and the text `inspect`. */
export function describeUnparsed(unparsed: readonly UnparsedLine[]): string | null {
  if (unparsed.length === 0) return null;
  const shown = unparsed.slice(0, 3).map((entry) => `line ${entry.line}: ${entry.text}`).join('; ');
  return `${unparsed.length} line${unparsed.length === 1 ? '' : 's'} in the options sections ${unparsed.length === 1 ? 'was' : 'were'} not parsed (${shown}${unparsed.length > 3 ? '; …' : ''})`;
}

function inspectOption(option: CliOption): InspectOption {
  return {
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
    ...(option.value_count !== undefined ? { value_count: option.value_count } : {}),
    ...(option.variadic_values === true ? { variadic_values: true } : {}),
    ...(option.value_separator !== undefined ? { value_separator: option.value_separator } : {}),
  };
}

function inspectPositional(positional: CliPositional): InspectPositional {
  return { name: positional.name, required: positional.required, variadic: positional.variadic };
}

function optionName(option: CliOption): string {
  return option.long !== null ? `${option.prefix ?? '--'}${option.long}` : `-${option.short ?? ''}`;
}

function fieldSourcesOf(spec: Pick<CliSpec, 'options' | 'positionals'>): { options: InspectFieldSources[]; positionals: InspectFieldSources[] } {
  return {
    options: spec.options.map((option) => ({ name: optionName(option), fields: { ...(option.sources ?? {}) } })),
    positionals: spec.positionals.map((positional) => ({ name: positional.name, fields: { ...(positional.sources ?? {}) } })),
  };
}

/**
 * Where each field of the spec came from (`inspect --json` shows it as `sources`, a load fact after the
 * report's keys), or undefined when the spec records none (a `--help-json` spec, say).
 */
export function inspectSources(spec: CliSpec): InspectSources | undefined {
  const known = spec.sources !== undefined || [...spec.options, ...spec.positionals].some((item) => item.sources !== undefined);
  if (!known) return undefined;
  const commands = spec.subcommands.filter((command) => (command.options ?? []).length > 0 || (command.positionals ?? []).length > 0);
  return {
    spec: { ...(spec.sources ?? {}) },
    ...fieldSourcesOf(spec),
    ...(commands.length > 0 ? { subcommands: commands.map((command) => ({ name: command.name, ...fieldSourcesOf({ options: command.options ?? [], positionals: command.positionals ?? [] }) })) } : {}),
  };
}

export function buildInspectReport(spec: CliSpec, schema: Record<string, unknown>, unparsed?: readonly UnparsedLine[]): InspectReport {
  const report: InspectReport = {
    name: spec.name,
    description: spec.description,
    spec: {
      options: spec.options.map(inspectOption),
      positionals: spec.positionals.map(inspectPositional),
      subcommands: spec.subcommands.map((command) => ({
        name: command.name,
        description: command.description ?? null,
        ...(command.options !== undefined && command.options.length > 0 ? { options: command.options.map(inspectOption) } : {}),
        ...(command.positionals !== undefined && command.positionals.length > 0 ? { positionals: command.positionals.map(inspectPositional) } : {}),
      })),
      ...(spec.options_after_command === true ? { options_after_command: true } : {}),
    },
    schema,
    argv_example: argvExample(spec),
  };
  if (unparsed !== undefined) report.not_understood = { count: unparsed.length, lines: unparsed.slice(0, MAX_REPORTED_LINES).map((entry) => ({ ...entry })) };
  return report;
}
