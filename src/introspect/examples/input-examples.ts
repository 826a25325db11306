/**
 * A tool's example calls as argument objects: each `CliExample` of the spec (from the help's EXAMPLES
 * section, `--help-json` or `.tool.json`) mapped through the spec (`argv` examples, argv-to-input.ts)
 * or taken as given (`input` examples), then kept only when the tool's own input schema accepts it,
 * the subcommand check passes, and (for argv) the object maps back to the same program call. What
 * fails any of these is dropped, never repaired. At most MAX_INPUT_EXAMPLES are kept, each at most
 * MAX_EXAMPLE_INPUT_CHARS of JSON, duplicates once.
 *
 * Offered as the JSON Schema's top-level `examples` (`withInputExamples`, which MCP tools/list
 * carries), Anthropic's `input_examples`, `inspect --json` `examples`, and the console's form.
 */
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { commandOptionProblem } from '../command-options.ts';
import type { CliExample, CliSpec } from '../spec.ts';
import { cliSpecToArgv } from '../to-argv.ts';
import { argvToInput } from './argv-to-input.ts';

/** At most this many examples are offered per tool. */
export const MAX_INPUT_EXAMPLES = 8;
/** An example whose argument object is longer than this (as JSON) is dropped. */
export const MAX_EXAMPLE_INPUT_CHARS = 4096;

/** One example call, ready to offer: the argument object, what it does, and the argv it came from (if it did). */
export interface ToolInputExample {
  description?: string;
  input: Record<string, unknown>;
  argv?: string[];
}

/** The examples of `spec` that `schema` (the tool's zod input) accepts, as argument objects (see the header). */
export function inputExamplesOf(spec: CliSpec, schema: z.ZodTypeAny): ToolInputExample[] {
  const kept: ToolInputExample[] = [];
  const seen = new Set<string>();
  for (const example of spec.examples ?? []) {
    if (kept.length >= MAX_INPUT_EXAMPLES) break;
    const input = inputOf(spec, example);
    if (input === null) continue;
    const json = JSON.stringify(input);
    if (json.length > MAX_EXAMPLE_INPUT_CHARS || seen.has(json)) continue;
    if (!schema.safeParse(input).success || commandOptionProblem(spec, input) !== undefined) continue;
    seen.add(json);
    const description = typeof example.description === 'string' && example.description.trim() !== '' ? example.description.trim() : undefined;
    kept.push({ ...(description !== undefined ? { description } : {}), input, ...(example.argv !== undefined ? { argv: [...example.argv] } : {}) });
  }
  return kept;
}

function inputOf(spec: CliSpec, example: CliExample): Record<string, unknown> | null {
  if (example.input !== undefined) return structuredClone(example.input);
  if (example.argv === undefined) return null;
  const input = argvToInput(spec, example.argv);
  if (input === null) return null;
  // exact: the object must stand for the same call when written back out
  const again = argvToInput(spec, cliSpecToArgv(spec, input));
  return again !== null && isDeepStrictEqual(again, input) ? input : null;
}

/** The JSON Schema with the examples' argument objects as its top-level `examples`; the same schema when there are none. */
export function withInputExamples<Schema extends Record<string, unknown>>(schema: Schema, examples: readonly ToolInputExample[]): Schema {
  if (examples.length === 0) return schema;
  return { ...schema, examples: examples.map((example) => structuredClone(example.input)) };
}
