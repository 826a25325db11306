/**
 * Output schemas: the JSON Schema of what a tool prints, when its output is a JSON object (MCP
 * `outputSchema`). A wasm tool declares one in its `--help-json` spec or `.tool.json` as
 * `"output_schema"`; a built-in gives a zod object (`ToolDefinition.output`).
 *
 * A declared schema is a tool's data, so it is held to what can be checked in linear time before it is
 * used: a JSON object of `"type": "object"` at its root (MCP's rule: structured content is an object),
 * at most MAX_OUTPUT_SCHEMA_NODES values and MAX_OUTPUT_SCHEMA_DEPTH levels, self-contained (no `$ref`,
 * so nothing expands), and without `pattern` / `patternProperties` (a backtracking regex a tool wrote
 * would run on every result). It is normalized like input schemas (src/schema/normalize.ts).
 *
 * `outputValidator` compiles a schema once (cached by object identity) with the validator the MCP
 * server uses, and answers whether a value matches, with the first problems in words. That validator
 * (ajv, ~60 modules) is loaded on the first compile, not with this module: a process that never meets
 * an output schema (a one-shot `toolhost call` of most tools) does not pay for loading it.
 */
import { createRequire } from 'node:module';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { z } from 'zod';
import { findJsonShapeViolation } from '../json-limits.ts';
import { isPlainObject } from '../json-value.ts';
import { normalizeSchema, type JsonSchema } from '../schema/normalize.ts';
import { SCHEMA_ARRAY_KEYWORDS, SCHEMA_MAP_KEYWORDS, SINGLE_SCHEMA_KEYWORDS } from '../schema/schema-keywords.ts';

export const MAX_OUTPUT_SCHEMA_NODES = 5_000;
export const MAX_OUTPUT_SCHEMA_DEPTH = 32;

/** Schema keywords an output schema may not use (see the module comment). */
const REFUSED_KEYWORDS: readonly string[] = ['$ref', '$dynamicRef', '$recursiveRef', 'pattern', 'patternProperties'];

/** The first refused keyword in a schema, walking schema positions only (property names are data). */
function findRefusedKeyword(schema: unknown): string | undefined {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const current = stack.pop();
    if (!isPlainObject(current)) continue;
    for (const [key, value] of Object.entries(current)) {
      if (REFUSED_KEYWORDS.includes(key)) return key;
      if (SINGLE_SCHEMA_KEYWORDS.has(key)) {
        if (Array.isArray(value)) stack.push(...value);
        else stack.push(value);
      } else if (SCHEMA_ARRAY_KEYWORDS.has(key) && Array.isArray(value)) {
        stack.push(...value);
      } else if (SCHEMA_MAP_KEYWORDS.has(key) && isPlainObject(value)) {
        stack.push(...Object.values(value));
      }
    }
  }
  return undefined;
}

/** `output_schema` of a spec or `.tool.json`. */
export const outputSchemaSchema = z.record(z.string(), z.unknown()).superRefine((schema, context) => {
  const violation = findJsonShapeViolation(schema, { maxDepth: MAX_OUTPUT_SCHEMA_DEPTH, maxNodes: MAX_OUTPUT_SCHEMA_NODES, maxKeyLength: 1_024 });
  if (violation !== undefined) {
    context.addIssue({ code: z.ZodIssueCode.custom, message: `is ${violation.message}` });
    return;
  }
  if (schema['type'] !== 'object') {
    context.addIssue({ code: z.ZodIssueCode.custom, message: 'must have "type": "object" at its root (structured content is a JSON object)' });
    return;
  }
  const refused = findRefusedKeyword(schema);
  if (refused !== undefined) {
    context.addIssue({ code: z.ZodIssueCode.custom, message: `must not use "${refused}" (output schemas are self-contained and free of regular expressions)` });
    return;
  }
  try {
    compile(prepareOutputSchema(schema));
  } catch (error) {
    context.addIssue({ code: z.ZodIssueCode.custom, message: `is not a valid JSON Schema (${(error as Error).message})` });
  }
});

/** A declared output schema as tools/list shows it: normalized like input schemas. */
export function prepareOutputSchema(schema: JsonSchema): JsonSchema {
  const normalized = normalizeSchema(schema);
  // An `$id` would make the shared validator hand one tool's compiled schema to another with the same id.
  delete normalized['$id'];
  return normalized;
}

export type OutputCheck = { valid: true } | { valid: false; message: string };
export type OutputValidator = (value: unknown) => OutputCheck;

let validatorProvider: AjvJsonSchemaValidator | undefined;
const compiled = new WeakMap<JsonSchema, OutputValidator>();

/**
 * The shared validator, loaded on first use. Compiling is synchronous (zod refinements call it), so the
 * package's CommonJS entry is required rather than imported; it shares the one ajv the ESM entry uses.
 */
function provider(): AjvJsonSchemaValidator {
  if (validatorProvider === undefined) {
    const loaded = createRequire(import.meta.url)('@modelcontextprotocol/sdk/validation/ajv-provider.js') as { AjvJsonSchemaValidator: new () => AjvJsonSchemaValidator };
    validatorProvider = new loaded.AjvJsonSchemaValidator();
  }
  return validatorProvider;
}

function compile(schema: JsonSchema): OutputValidator {
  const check = provider().getValidator(schema);
  return (value) => {
    const result = check(value);
    return result.valid ? { valid: true } : { valid: false, message: result.errorMessage ?? 'it does not match' };
  };
}

/** The validator of a (prepared) output schema, compiled on first use. */
export function outputValidator(schema: JsonSchema): OutputValidator {
  let validator = compiled.get(schema);
  if (validator === undefined) {
    validator = compile(schema);
    compiled.set(schema, validator);
  }
  return validator;
}
