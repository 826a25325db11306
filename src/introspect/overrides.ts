/**
 * `.tool.json` overrides: an optional sidecar `extensions/tools/<name>.tool.json` that corrects
 * what help parsing got wrong.
 *
 * ```json
 * {
 *   "name": "imgconv",
 *   "description": "Convert images",
 *   "options": { "quality": { "type": "integer", "required": true }, "--debug": { "hidden": true } },
 *   "hide": ["-j"],
 *   "secret_params": ["token"],
 *   "stdin": true,
 *   "output": "envelope",
 *   "spec": { "name": "…", "options": [], "positionals": [], "subcommands": [] }
 * }
 * ```
 *
 * Option keys may be the long name (`dry-run`), a spelling with dashes (`--dry-run`, `-n`), the
 * short name, or the property name (`dry_run`). `spec` replaces the parsed spec entirely; the other
 * fields are then applied on top of it. `output` says how stdout is read: `"envelope"` for a tool that
 * prints toolhost's `{content, error | is_error, metadata}` object, `"text"` (the default) for stdout
 * taken as the content as it is.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ToolHostError } from '../errors.ts';
import { propertyNamesOf } from './property-name.ts';
import type { CliOption, CliOutputFormat, CliSpec } from './spec.ts';
import { cliOutputFormatSchema, cliSpecSchema, cliValueTypeSchema, formatZodIssues } from './spec-schema.ts';

const optionOverrideSchema = z
  .object({
    type: cliValueTypeSchema.optional(),
    description: z.string().optional(),
    required: z.boolean().optional(),
    hidden: z.boolean().optional(),
  })
  .strict();

export const toolOverridesSchema = z
  .object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must match ^[a-zA-Z0-9_-]{1,64}$').optional(),
    description: z.string().optional(),
    options: z.record(z.string(), optionOverrideSchema).optional(),
    hide: z.array(z.string()).optional(),
    secret_params: z.array(z.string()).optional(),
    stdin: z.boolean().optional(),
    output: cliOutputFormatSchema.optional(),
    spec: cliSpecSchema.optional(),
  })
  .strict();

export interface OptionOverride {
  type?: CliOption['type'];
  description?: string;
  required?: boolean;
  hidden?: boolean;
}

export interface ToolOverrides {
  name?: string;
  description?: string;
  options?: Record<string, OptionOverride>;
  hide?: string[];
  secret_params?: string[];
  /** The tool reads stdin: it gets a `stdin` string parameter piped to it. */
  stdin?: boolean;
  /** How stdout is read: toolhost's envelope, or the content as it is (the default). */
  output?: CliOutputFormat;
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

/** Merges overrides over a parsed spec (or replaces it with `overrides.spec`). Returns a new spec. */
export function applyToolOverrides(spec: CliSpec, overrides: ToolOverrides): CliSpec {
  const base: CliSpec = structuredClone(overrides.spec ?? spec);
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
    if (change.type !== undefined) {
      option.type = change.type;
    }
    if (change.description !== undefined) option.description = change.description;
    if (change.required !== undefined) option.required = change.required;
    if (change.hidden === true) hidden.add(index);
  }
  (overrides.hide ?? []).forEach((key, position) => hidden.add(find(key, `hide.${position}`)));
  return {
    ...base,
    name: overrides.name ?? base.name,
    description: overrides.description ?? base.description,
    options: base.options.filter((_, index) => !hidden.has(index)),
    ...(overrides.stdin !== undefined ? { stdin: overrides.stdin } : {}),
    ...(overrides.output !== undefined ? { output: overrides.output } : {}),
  };
}
