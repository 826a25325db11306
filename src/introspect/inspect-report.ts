/** The `toolhost inspect --json` report of a wasm tool: the spec (public fields only), schema and an example argv. */
import { argvExample } from './argv-example.ts';
import type { UnparsedLine } from './help-scan.ts';
import type { ToolEffect } from '../permission.ts';
import type { CliExample, CliOption, CliPositional, CliSpec, CliValueType, FieldSources } from './spec.ts';

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
  /** What giving the option does, as the author's spec declares it. */
  effect?: ToolEffect;
  /** Which reader, probe, sidecar or override decided each field (`sidecar:usage`, …). */
  sources?: FieldSources;
  /** Values the program offers (its completion protocol): the schema's `examples`, not an enum. */
  suggestions?: string[];
}

export interface InspectPositional {
  name: string;
  required: boolean;
  variadic: boolean;
  sources?: FieldSources;
}

export interface InspectReport {
  name: string;
  description: string;
  spec: {
    options: InspectOption[];
    positionals: InspectPositional[];
    subcommands: { name: string; description: string | null; options?: InspectOption[]; positionals?: InspectPositional[]; path?: string[]; effect?: ToolEffect }[];
    /** What running the program without a subcommand does, as the author's spec declares it. */
    effect?: ToolEffect;
    /** Which reader, probe, sidecar or override decided each spec-level field. */
    sources?: FieldSources;
    /** Root options go after the subcommand on the argv (cobra). */
    options_after_command?: boolean;
    /** Every example call read or given, mapped or not (the report's `examples` are the ones kept). */
    examples?: CliExample[];
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
    ...(option.effect !== undefined ? { effect: option.effect } : {}),
    ...(option.suggestions !== undefined ? { suggestions: [...option.suggestions] } : {}),
    ...(option.sources !== undefined ? { sources: { ...option.sources } } : {}),
  };
}

function inspectPositional(positional: CliPositional): InspectPositional {
  return { name: positional.name, required: positional.required, variadic: positional.variadic, ...(positional.sources !== undefined ? { sources: { ...positional.sources } } : {}) };
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
        ...(command.path !== undefined ? { path: [...command.path] } : {}),
        ...(command.effect !== undefined ? { effect: command.effect } : {}),
      })),
      ...(spec.options_after_command === true ? { options_after_command: true } : {}),
      ...(spec.effect !== undefined ? { effect: spec.effect } : {}),
      ...(spec.examples !== undefined && spec.examples.length > 0 ? { examples: structuredClone(spec.examples) } : {}),
      ...(spec.sources !== undefined ? { sources: { ...spec.sources } } : {}),
    },
    schema,
    argv_example: argvExample(spec),
  };
  if (unparsed !== undefined) report.not_understood = { count: unparsed.length, lines: unparsed.slice(0, MAX_REPORTED_LINES).map((entry) => ({ ...entry })) };
  return report;
}
