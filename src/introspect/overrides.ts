/**
 * `.tool.json` overrides: an optional sidecar `extensions/tools/<name>.tool.json` that corrects
 * what help parsing got wrong.
 *
 * ```json
 * {
 *   "name": "imgconv",
 *   "description": "Convert images",
 *   "options": { "quality": { "type": "integer", "required": true }, "--debug": { "hidden": true },
 *                "--format": { "takes_value": true, "choices": ["png", "jpeg"], "default": "png" } },
 *   "positionals": [{ "name": "filter", "required": true }, { "name": "files", "variadic": true }],
 *   "hide": ["-j"],
 *   "secret_params": ["token"],
 *   "stdin": true,
 *   "output": "envelope",
 *   "output_schema": { "type": "object", "properties": { "count": { "type": "integer" } } },
 *   "output_media_type": "image/png",
 *   "success_exit_codes": [0, 1],
 *   "probes": false,
 *   "examples": [{ "description": "Convert to PNG", "argv": ["--format", "png", "in.jpg"] }],
 *   "spec": { "name": "…", "options": [], "positionals": [], "subcommands": [] }
 * }
 * ```
 *
 * Option keys may be the long name (`dry-run`), a spelling with dashes (`--dry-run`, `-n`), the
 * short name, or the property name (`dry_run`); an option override may correct `type`, `description`,
 * `required`, `takes_value`, `choices`, `default`, `repeatable`, `value_count`, `value_separator`
 * (`","` or null), `value_optional` (the value may be left off: `--fast[=N]`) and `attached` (the value
 * goes in the flag's own argument: `-B4`, `--fast=3`), or hide it. `value_optional` and `attached`
 * apply to value-taking options only (they make a value-taking option of a flag, as `takes_value` does).
 *
 * `positionals` corrects or adds positionals without restating the rest of the spec (help is sometimes
 * silent about them: `Usage: gojq [OPTIONS]`). An entry whose `name` matches a parsed positional
 * (case and punctuation ignored) changes the fields it gives; any other entry is appended, in the
 * order given, and is optional and single unless it says `required` / `variadic`. `hidden: true`
 * removes a parsed one.
 *
 * `spec` replaces the parsed spec entirely; the other
 * fields are then applied on top of it. `output` says how stdout is read: `"envelope"` for a tool that
 * prints toolhost's `{content, error | is_error, metadata}` object, `"text"` (the default) for stdout
 * taken as the content as it is. `probes: false` stops toolhost from asking the program (completion and
 * bad-value probes, src/introspect/probe/): the help alone is read. `examples` replaces the example
 * calls read from the help (`{description, argv}` or `{description, input}`, src/introspect/examples/).
 * `success_exit_codes` lists the exit codes that end a call with a result
 * rather than an error (default `[0]`; integers 0-255, 0 among them). `output` may also be
 * `"mcp-content"`: stdout is an MCP CallToolResult-shaped object (src/results/mcp-content.ts).
 * `output_schema` is the JSON Schema of stdout as a JSON object (the MCP `outputSchema`;
 * src/results/output-schema.ts); `output_media_type` says stdout is one image or audio of that type
 * (src/results/media-types.ts); `output_files` lists globs (relative to the workspace) of files a call
 * returns as resource links when it created or changed them (src/results/written-files.ts).
 */
import { carrySources, markSources, setSources } from './reader/claims.ts';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ToolHostError } from '../errors.ts';
import { propertyNamesOf } from './property-name.ts';
import type { CliExample, CliOption, CliOutputFormat, CliPositional, CliSpec, CliValueType } from './spec.ts';
import { cliExamplesSchema, cliOutputFormatSchema, cliSpecSchema, cliValueTypeSchema, formatZodIssues, outputFilesSchema, outputMediaTypeSchema, outputSchemaSchema, successExitCodesSchema } from './spec-schema.ts';

const optionOverrideSchema = z
  .object({
    type: cliValueTypeSchema.optional(),
    description: z.string().optional(),
    required: z.boolean().optional(),
    hidden: z.boolean().optional(),
    takes_value: z.boolean().optional(),
    choices: z.array(z.string().min(1)).min(1).nullable().optional(),
    default: z.union([z.string(), z.number(), z.boolean()]).nullable().optional(),
    repeatable: z.boolean().optional(),
    value_count: z.number().int().min(1).max(16).optional(),
    value_separator: z.literal(',').nullable().optional(),
    value_optional: z.boolean().optional(),
    attached: z.boolean().optional(),
  })
  .strict();

const positionalOverrideSchema = z
  .object({
    name: z.string().min(1).max(100),
    required: z.boolean().optional(),
    variadic: z.boolean().optional(),
    description: z.string().optional(),
    type: cliValueTypeSchema.optional(),
    hidden: z.boolean().optional(),
  })
  .strict();

export const toolOverridesSchema = z
  .object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must match ^[a-zA-Z0-9_-]{1,64}$').optional(),
    description: z.string().optional(),
    options: z.record(z.string(), optionOverrideSchema).optional(),
    positionals: z.array(positionalOverrideSchema).max(50).optional(),
    hide: z.array(z.string()).optional(),
    secret_params: z.array(z.string()).optional(),
    stdin: z.boolean().optional(),
    output: cliOutputFormatSchema.optional(),
    output_schema: outputSchemaSchema.optional(),
    output_media_type: outputMediaTypeSchema.optional(),
    output_files: outputFilesSchema.optional(),
    success_exit_codes: successExitCodesSchema.optional(),
    probes: z.boolean().optional(),
    examples: cliExamplesSchema.optional(),
    spec: cliSpecSchema.optional(),
  })
  .strict();

export interface OptionOverride {
  type?: CliOption['type'];
  description?: string;
  required?: boolean;
  hidden?: boolean;
  takes_value?: boolean;
  choices?: string[] | null;
  default?: string | number | boolean | null;
  repeatable?: boolean;
  value_count?: number;
  /** `","`: one use takes a comma-joined list; null: one value per use. */
  value_separator?: ',' | null;
  /** The value may be left off (`--fast[=N]`); a value given is attached (`--fast=3`). */
  value_optional?: boolean;
  /** The value goes in the flag's own argument: `-B4`, `--long=VALUE`. */
  attached?: boolean;
}

export interface PositionalOverride {
  name: string;
  required?: boolean;
  variadic?: boolean;
  description?: string;
  type?: CliValueType;
  hidden?: boolean;
}

export interface ToolOverrides {
  name?: string;
  description?: string;
  options?: Record<string, OptionOverride>;
  positionals?: PositionalOverride[];
  hide?: string[];
  secret_params?: string[];
  /** The tool reads stdin: it gets a `stdin` string parameter piped to it. */
  stdin?: boolean;
  /** How stdout is read: toolhost's envelope, or the content as it is (the default). */
  output?: CliOutputFormat;
  /** JSON Schema of stdout as a JSON object (the MCP `outputSchema`). */
  output_schema?: Record<string, unknown>;
  /** stdout is one image or audio of this media type. */
  output_media_type?: string;
  /** Globs of written files returned as resource links. */
  output_files?: string[];
  /** Exit codes that end a call with a result, not an error (default `[0]`). */
  success_exit_codes?: number[];
  /** `false`: never ask the program (no completion or bad-value probes); the help alone is read. Default true. */
  probes?: boolean;
  /** Example calls; they replace the ones read from the help. */
  examples?: CliExample[];
  spec?: CliSpec;
}

/** Validates parsed JSON as overrides; errors name the bad field path. */
export function parseToolOverrides(value: unknown, source = '.tool.json'): ToolOverrides {
  const parsed = toolOverridesSchema.safeParse(value);
  if (!parsed.success) {
    throw new ToolHostError('TOOL_OVERRIDES_INVALID', `Invalid tool overrides in ${source}: ${formatZodIssues(parsed.error)}`);
  }
  return parsed.data as ToolOverrides;
}

/** Reads and validates a `.tool.json` file. */
export async function readToolOverrides(file: string): Promise<ToolOverrides> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ToolHostError('TOOL_OVERRIDES_INVALID', `Cannot read tool overrides ${file}: ${(error as Error).message}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ToolHostError('TOOL_OVERRIDES_INVALID', `Invalid JSON in tool overrides ${file}: ${(error as Error).message}`, { cause: error });
  }
  return parseToolOverrides(json, file);
}

function optionMatches(option: CliOption, propertyName: string, key: string): boolean {
  const bare = key.replace(/^-+/, '');
  if (key.startsWith('--')) return option.long === bare;
  if (key.startsWith('-')) return bare.length === 1 ? option.short === bare || option.long === bare : option.long === bare;
  return option.long === key || option.short === key || propertyName === key;
}

/** Sets an optional boolean field of the spec, or removes it when false (absent means false). */
function setFlag(option: CliOption, field: 'value_optional' | 'attached', value: boolean): void {
  if (value) option[field] = true;
  else delete option[field];
}

/** Corrects one option in place; a value-taking change keeps type and choices consistent with it. */
function applyOptionOverride(option: CliOption, change: OptionOverride): void {
  if (change.takes_value === false) {
    option.takes_value = false;
    option.type = 'boolean';
    option.choices = null;
    option.value_name = null;
    delete option.value_count;
    delete option.variadic_values;
    delete option.value_optional;
    delete option.attached;
    delete option.value_separator;
  } else if ((change.takes_value === true || change.value_optional === true || change.attached === true) && !option.takes_value) {
    option.takes_value = true;
    option.type = 'string';
    option.value_name ??= 'VALUE';
  }
  if (change.type !== undefined) option.type = change.type;
  if (change.choices !== undefined) option.choices = option.takes_value ? change.choices : null;
  if (change.default !== undefined) option.default = change.default;
  if (change.repeatable !== undefined) option.repeatable = change.repeatable;
  if (change.value_count !== undefined && option.takes_value) {
    if (change.value_count > 1) option.value_count = change.value_count;
    else delete option.value_count;
  }
  if (change.value_separator === null) delete option.value_separator;
  else if (change.value_separator !== undefined && option.takes_value) option.value_separator = change.value_separator;
  if (change.value_optional !== undefined && option.takes_value) setFlag(option, 'value_optional', change.value_optional);
  if (change.attached !== undefined && option.takes_value) setFlag(option, 'attached', change.attached);
  if (change.description !== undefined) option.description = change.description;
  if (change.required !== undefined) option.required = change.required;
}

function positionalKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Corrects matching positionals, drops hidden ones, appends new ones (see the module comment). */
function applyPositionalOverrides(parsed: readonly CliPositional[], changes: readonly PositionalOverride[]): CliPositional[] {
  const positionals = parsed.map((positional) => ({ ...positional }));
  const hidden = new Set<CliPositional>();
  for (const change of changes) {
    let target = positionals.find((positional) => positionalKey(positional.name) === positionalKey(change.name));
    if (target === undefined) {
      if (change.hidden === true) continue;
      target = { name: change.name, required: false, variadic: false };
      positionals.push(target);
    }
    if (change.required !== undefined) target.required = change.required;
    if (change.variadic !== undefined) target.variadic = change.variadic;
    if (change.description !== undefined) target.description = change.description;
    if (change.type !== undefined) target.type = change.type;
    if (change.hidden === true) hidden.add(target);
  }
  return positionals.filter((positional) => !hidden.has(positional));
}

/** Merges overrides over a parsed spec (or replaces it with `overrides.spec`). Returns a new spec. */
export function applyToolOverrides(spec: CliSpec, overrides: ToolOverrides): CliSpec {
  const base: CliSpec = structuredClone(overrides.spec ?? spec);
  // (the help readers' per-field sources are metadata the clone drops: carried over, `override` where changed)
  carrySources(overrides.spec ?? spec, base);
  const names = propertyNamesOf(base);
  const find = (key: string, field: string): number => {
    const index = base.options.findIndex((option, position) => optionMatches(option, names.options[position] ?? '', key));
    if (index === -1) throw new ToolHostError('TOOL_OVERRIDES_INVALID', `Invalid tool overrides: ${field}: no option "${key}" in the spec of "${base.name}"`);
    return index;
  };
  const hidden = new Set<number>();
  for (const [key, change] of Object.entries(overrides.options ?? {})) {
    const index = find(key, `options.${key}`);
    const option = base.options[index];
    if (option === undefined) continue;
    applyOptionOverride(option, change);
    markSources(option, Object.keys(change).filter((field) => field !== 'hidden'), 'override');
    if (change.hidden === true) hidden.add(index);
  }
  (overrides.hide ?? []).forEach((key, position) => hidden.add(find(key, `hide.${position}`)));
  const positionals = applyPositionalOverrides(base.positionals, overrides.positionals ?? []);
  carrySources(base, { options: [], positionals });
  for (const change of overrides.positionals ?? []) {
    const target = positionals.find((positional) => positionalKey(positional.name) === positionalKey(change.name));
    if (target !== undefined) markSources(target, Object.keys(change).filter((field) => field !== 'hidden' && field !== 'name'), 'override');
  }
  const result: CliSpec = {
    ...base,
    name: overrides.name ?? base.name,
    description: overrides.description ?? base.description,
    options: base.options.filter((_, index) => !hidden.has(index)),
    positionals,
    ...(overrides.stdin !== undefined ? { stdin: overrides.stdin } : {}),
    ...(overrides.output !== undefined ? { output: overrides.output } : {}),
    ...(overrides.output_schema !== undefined ? { output_schema: structuredClone(overrides.output_schema) } : {}),
    ...(overrides.output_media_type !== undefined ? { output_media_type: overrides.output_media_type } : {}),
    ...(overrides.output_files !== undefined ? { output_files: [...overrides.output_files] } : {}),
    ...(overrides.success_exit_codes !== undefined ? { success_exit_codes: [...overrides.success_exit_codes] } : {}),
    ...(overrides.examples !== undefined ? { examples: structuredClone(overrides.examples) } : {}),
  };
  if (base.sources !== undefined) setSources(result, { ...base.sources });
  markSources(result, (['name', 'description', 'stdin', 'output', 'output_schema', 'output_media_type', 'output_files', 'success_exit_codes', 'examples'] as const).filter((field) => overrides[field] !== undefined), 'override');
  return result;
}
