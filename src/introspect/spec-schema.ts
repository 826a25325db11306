/** zod schema of a `CliSpec`, for `--help-json` output and `.tool.json` whole-spec overrides. */
import { z } from 'zod';
import { TOOL_EFFECTS } from '../permission.ts';
import type { CliSpec } from './spec.ts';
import { OUTPUT_MEDIA_TYPES } from '../results/media-types.ts';
import { outputSchemaSchema } from '../results/output-schema.ts';
import { outputFilesSchema } from '../results/written-files.ts';

export { outputFilesSchema, outputSchemaSchema };

/** `effect` of a command or option: read, write or destructive (src/permission.ts). */
export const toolEffectSchema = z.enum(TOOL_EFFECTS);

/** `output` of a spec or `.tool.json`: whether stdout is toolhost's envelope, an MCP content envelope, or the content as is. */
export const cliOutputFormatSchema = z.enum(['envelope', 'text', 'mcp-content']);

/** `output_media_type` of a spec or `.tool.json`: stdout is one image or audio of this type. */
export const outputMediaTypeSchema = z.enum(OUTPUT_MEDIA_TYPES);

/**
 * `success_exit_codes` of a spec or `.tool.json`: the exit codes that end a call with a result rather
 * than an error (grep's 1, "no match"). Integers 0-255, each once, 0 among them (the list replaces the
 * default `[0]`).
 */
export const successExitCodesSchema = z
  .array(z.number().int('must be an integer').min(0, 'must be 0-255').max(255, 'must be 0-255'))
  .min(1, 'must list at least one exit code')
  .max(256)
  .refine((codes) => new Set(codes).size === codes.length, 'must not list an exit code twice')
  .refine((codes) => codes.includes(0), 'must include 0 (the list replaces the default [0])');

export const cliValueTypeSchema = z.enum(['integer', 'number', 'boolean', 'string', 'path']);

const flagName = z.string().min(1).max(100).regex(/^[A-Za-z0-9?#@][\w.?#@:-]*$/, 'must be a flag name without dashes');

const cliOptionShape = {
  long: flagName.nullable().default(null),
  short: z.string().length(1).nullable().default(null),
  aliases: z.array(z.string()).default([]),
  takes_value: z.boolean().default(false),
  value_name: z.string().nullable().default(null),
  type: cliValueTypeSchema.default('string'),
  default: z.union([z.string(), z.number(), z.boolean()]).nullable().default(null),
  choices: z.array(z.string()).min(1).nullable().default(null),
  repeatable: z.boolean().default(false),
  required: z.boolean().default(false),
  negation: z.string().nullable().default(null),
  description: z.string().nullable().default(null),
  prefix: z.enum(['--', '-']).optional(),
  value_optional: z.boolean().optional(),
  attached: z.boolean().optional(),
  value_count: z.number().int().min(2).max(16).optional(),
  variadic_values: z.boolean().optional(),
  value_separator: z.literal(',').optional(),
  effect: toolEffectSchema.optional(),
};

const optionIsNamed = [(option: { long: string | null; short: string | null }) => option.long !== null || option.short !== null, { message: 'an option needs a long or a short name' }] as const;

export const cliOptionSchema = z.object(cliOptionShape).strict().refine(...optionIsNamed);

/** An option as toolhost stores it (the spec cache): also the fields only toolhost writes (the probes' `suggestions`). */
const storedCliOptionSchema = z
  .object({ ...cliOptionShape, suggestions: z.array(z.string()).optional() })
  .strict()
  .refine(...optionIsNamed);

export const cliPositionalSchema = z
  .object({
    name: z.string().min(1).max(100),
    required: z.boolean().default(true),
    variadic: z.boolean().default(false),
    description: z.string().nullable().optional(),
    type: cliValueTypeSchema.optional(),
  })
  .strict();

function subcommandSchemaOf(option: typeof cliOptionSchema | typeof storedCliOptionSchema) {
  return z
    .object({
      name: z.string().min(1).max(100),
      description: z.string().nullable().default(null),
      options: z.array(option).optional(),
      positionals: z.array(cliPositionalSchema).optional(),
      path: z.array(z.string().min(1).max(100)).min(1).max(8).optional(),
      effect: toolEffectSchema.optional(),
    })
    .strict();
}

export const cliSubcommandSchema = subcommandSchemaOf(cliOptionSchema);

/** Most examples a spec or `.tool.json` may give (the first MAX_INPUT_EXAMPLES valid ones are offered). */
export const MAX_SPEC_EXAMPLES = 64;

/**
 * One `examples` entry of `--help-json` or `.tool.json`: `{"description": "…", "argv": ["--flag", "x"]}`
 * (the program's arguments, without its name) or `{"description": "…", "input": {"flag": "x"}}` (the
 * tool's argument object); exactly one of `argv` and `input`.
 */
export const cliExampleSchema = z
  .object({
    description: z.string().max(1000).nullable().optional(),
    argv: z.array(z.string().max(4096)).max(256).optional(),
    input: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine((example) => (example.argv === undefined) !== (example.input === undefined), { message: 'an example gives exactly one of argv and input' });

export const cliExamplesSchema = z.array(cliExampleSchema).max(MAX_SPEC_EXAMPLES);

function specSchemaOf(option: typeof cliOptionSchema | typeof storedCliOptionSchema) {
  return z
    .object({
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must match ^[a-zA-Z0-9_-]{1,64}$'),
      description: z.string().default(''),
      options: z.array(option).default([]),
      positionals: z.array(cliPositionalSchema).default([]),
      subcommands: z.array(subcommandSchemaOf(option)).default([]),
      stdin: z.boolean().optional(),
      output: cliOutputFormatSchema.optional(),
      output_schema: outputSchemaSchema.optional(),
      output_media_type: outputMediaTypeSchema.optional(),
      output_files: outputFilesSchema.optional(),
      success_exit_codes: successExitCodesSchema.optional(),
      options_after_command: z.boolean().optional(),
      command_required: z.boolean().optional(),
      effect: toolEffectSchema.optional(),
      examples: cliExamplesSchema.optional(),
    })
    .strict();
}

export const cliSpecSchema = specSchemaOf(cliOptionSchema);

/**
 * A spec as toolhost itself stores it (the wasm spec cache, src/extensions/wasm-spec-cache.ts): the
 * public schema plus the fields only toolhost writes (an option's probed `suggestions`).
 */
export const storedCliSpecSchema = specSchemaOf(storedCliOptionSchema);

/** Formats zod issues as `path.to.field: message; …`. */
export function formatZodIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('; ');
}

export function parseCliSpec(value: unknown): { ok: true; spec: CliSpec } | { ok: false; message: string } {
  const parsed = cliSpecSchema.safeParse(value);
  if (!parsed.success) return { ok: false, message: formatZodIssues(parsed.error) };
  return { ok: true, spec: parsed.data as CliSpec };
}

/** A spec read back from toolhost's own store (storedCliSpecSchema); anything else is not one. */
export function parseStoredCliSpec(value: unknown): { ok: true; spec: CliSpec } | { ok: false; message: string } {
  const parsed = storedCliSpecSchema.safeParse(value);
  if (!parsed.success) return { ok: false, message: formatZodIssues(parsed.error) };
  return { ok: true, spec: parsed.data as CliSpec };
}
