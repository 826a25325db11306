/**
 * What the spec readers (usage KDL, oclif manifest, carapace YAML) share: the result shape, the caps,
 * the last step that turns a reader's draft into a valid `CliSpec` stamped with its provenance, and the
 * small conversions every format needs (a value type from a value name, a default as text).
 *
 * Contract: a reader returns `{ ok: true, spec }` or `{ ok: false, message }` and never throws for bad
 * input (the caller turns a failure into a load warning and falls back to the help parse). The spec
 * passes the same zod schema as a `--help-json` answer (src/introspect/spec-schema.ts), so a sidecar can
 * never produce a spec the schema and argv mapper were not built for; every field a reader set is
 * recorded as coming from `sidecar:<format>` in the `sources` maps.
 */
import { sanitizeToolName } from '../../tool-name.ts';
import { parseCliSpec } from '../spec-schema.ts';
import type { CliOption, CliPositional, CliSpec, CliSubcommand, CliValueType, FieldSources } from '../spec.ts';
import { typeFromValueName } from '../value-type.ts';

/** The spec formats an author may ship, in the order they rank when several are present. */
export const SIDECAR_FORMATS = ['usage', 'oclif', 'carapace'] as const;
export type SidecarFormat = (typeof SIDECAR_FORMATS)[number];

/** Largest spec sidecar (file or custom section) read: jdx/usage's own largest real spec (mise) is 256 KB. */
export const MAX_SPEC_SIDECAR_BYTES = 1024 * 1024;
/** Most options across the whole spec (root and every subcommand); the rest are left out with a note. */
export const MAX_SIDECAR_OPTIONS = 5000;
/** Most subcommands (nested ones count, flattened to `parent child`). */
export const MAX_SIDECAR_SUBCOMMANDS = 500;
/** Deepest command nesting read (`a b c d`); deeper commands are left out. */
export const MAX_SIDECAR_DEPTH = 4;
/** Most positionals of one command. */
export const MAX_SIDECAR_POSITIONALS = 50;
/** Longest description kept (characters). */
export const MAX_SIDECAR_DESCRIPTION = 4000;

export type SidecarSpecResult = { ok: true; spec: CliSpec; notes: string[] } | { ok: false; message: string };

export interface SidecarReadOptions {
  /** The tool's file stem: the program name when the spec names none (or none that is valid). */
  fallbackName: string;
}

/** `sidecar:<format>`: the provenance of every field a sidecar decided. */
export function sidecarSource(format: SidecarFormat): string {
  return `sidecar:${format}`;
}

/** A typed failure inside a reader; `readSidecarSafely` turns it into `{ ok: false, message }`. */
export class SidecarSpecError extends Error {}

/** Counts what a reader keeps against the caps, and collects notes on what it left out. */
export class SidecarBudget {
  options = 0;
  subcommands = 0;
  readonly notes: string[] = [];
  private readonly noted = new Set<string>();

  /** True when one more option fits; notes the first refusal. */
  takeOption(): boolean {
    if (this.options >= MAX_SIDECAR_OPTIONS) return this.refuse(`more than ${MAX_SIDECAR_OPTIONS} options: the rest are left out`);
    this.options += 1;
    return true;
  }

  /** True when one more subcommand fits; notes the first refusal. */
  takeSubcommand(): boolean {
    if (this.subcommands >= MAX_SIDECAR_SUBCOMMANDS) return this.refuse(`more than ${MAX_SIDECAR_SUBCOMMANDS} subcommands: the rest are left out`);
    this.subcommands += 1;
    return true;
  }

  note(message: string): void {
    if (this.noted.has(message)) return;
    this.noted.add(message);
    this.notes.push(message);
  }

  private refuse(message: string): false {
    this.note(message);
    return false;
  }
}

/** Runs a reader, turning any exception (a parser's, a typed one, a stack overflow) into a failure. */
export function readSidecarSafely(read: () => SidecarSpecResult): SidecarSpecResult {
  try {
    return read();
  } catch (error) {
    const message = error instanceof AggregateError ? error.errors.map((inner: unknown) => (inner instanceof Error ? inner.message : String(inner))).join('; ') : error instanceof Error ? error.message : String(error);
    return { ok: false, message: message.slice(0, 500) };
  }
}

/** A description as a spec keeps it: trimmed, capped, null when empty. */
export function descriptionText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;
  return text.length > MAX_SIDECAR_DESCRIPTION ? `${text.slice(0, MAX_SIDECAR_DESCRIPTION - 1)}…` : text;
}

/**
 * The type of a value from its name: `path` for file and directory names (`<file>`, `<dir>`), else
 * `string`. Numbers are left strings on purpose: a spec format without types says `<N>` for `4KiB`
 * as often as for `4`, and a string always reaches the program as written.
 */
export function valueTypeOf(valueName: string | null): CliValueType {
  return typeFromValueName(valueName) === 'path' ? 'path' : 'string';
}

/** A default as the spec keeps it for a value-taking option: its text, or null for none. */
export function defaultText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string' || typeof item === 'number')) return value.join(',');
  return null;
}

function stamp(sources: FieldSources | undefined, fields: readonly string[], source: string): FieldSources {
  const stamped: FieldSources = { ...sources };
  for (const field of fields) stamped[field] = source;
  return stamped;
}

const OPTION_FIELDS = ['long', 'short', 'aliases', 'takes_value', 'value_name', 'type', 'default', 'choices', 'repeatable', 'required', 'negation', 'description'] as const;
const OPTIONAL_OPTION_FIELDS = ['prefix', 'value_optional', 'value_count', 'variadic_values', 'value_separator', 'effect'] as const;
const POSITIONAL_FIELDS = ['name', 'required', 'variadic', 'description', 'type'] as const;

function stampOption(option: CliOption, source: string): CliOption {
  const fields = [...OPTION_FIELDS, ...OPTIONAL_OPTION_FIELDS.filter((field) => option[field] !== undefined)];
  return { ...option, sources: stamp(option.sources, fields, source) };
}

function stampPositional(positional: CliPositional, source: string): CliPositional {
  return { ...positional, sources: stamp(positional.sources, POSITIONAL_FIELDS.filter((field) => field === 'name' || field === 'required' || field === 'variadic' || positional[field] !== undefined), source) };
}

function stampSubcommand(subcommand: CliSubcommand, source: string): CliSubcommand {
  return {
    ...subcommand,
    ...(subcommand.options !== undefined ? { options: subcommand.options.map((option) => stampOption(option, source)) } : {}),
    ...(subcommand.positionals !== undefined ? { positionals: subcommand.positionals.map((positional) => stampPositional(positional, source)) } : {}),
  };
}

/**
 * Validates a reader's draft as a `CliSpec` (the `--help-json` schema) and stamps every field with
 * `sidecar:<format>`. The program name falls back to the file stem when the draft's is not a valid name.
 */
export function finishSidecarSpec(draft: CliSpec, format: SidecarFormat, options: SidecarReadOptions, notes: readonly string[]): SidecarSpecResult {
  const name = /^[a-zA-Z0-9_-]{1,64}$/.test(draft.name) ? draft.name : sanitizeToolName(options.fallbackName);
  const parsed = parseCliSpec({ ...draft, name });
  if (!parsed.ok) return { ok: false, message: `not a spec toolhost can serve: ${parsed.message}` };
  const source = sidecarSource(format);
  const spec = parsed.spec;
  const specFields = ['name', 'description', 'options', 'positionals', 'subcommands', ...(['command_required', 'effect'] as const).filter((field) => spec[field] !== undefined)];
  return {
    ok: true,
    notes: [...notes],
    spec: {
      ...spec,
      options: spec.options.map((option) => stampOption(option, source)),
      positionals: spec.positionals.map((positional) => stampPositional(positional, source)),
      subcommands: spec.subcommands.map((subcommand) => stampSubcommand(subcommand, source)),
      sources: stamp(spec.sources, specFields, source),
    },
  };
}

/** A blank option, for readers to fill. */
export function blankOption(): CliOption {
  return {
    long: null,
    short: null,
    aliases: [],
    takes_value: false,
    value_name: null,
    type: 'boolean',
    default: null,
    choices: null,
    repeatable: false,
    required: false,
    negation: null,
    description: null,
  };
}
