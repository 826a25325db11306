/**
 * `?format=union`: ONE JSON Schema for a whole assistant turn, for guided decoding of self-hosted
 * models (vLLM / SGLang `guided_json`, xgrammar's `compile_json_schema`, llguidance):
 *
 *     {"content": string, "tool_calls": [{"name": <const>, "arguments": <that tool's schema>}, ...]}
 *
 * Each `tool_calls` item is an `anyOf` with one branch per tool, so a constrained decoder can only
 * emit a known tool name followed by arguments of that tool's shape. `POST /v1/dispatch?provider=union`
 * runs such a turn (src/server/dispatch/union.ts).
 *
 * The schema uses only the keywords xgrammar documents as supported, and no `$ref`:
 *
 * | kind      | keywords kept                                                                     |
 * |-----------|-----------------------------------------------------------------------------------|
 * | any       | `type` (one type; a type list becomes an `anyOf` of one branch per type), `enum`, `const`, `anyOf` (`oneOf` is rewritten to `anyOf`, which is how xgrammar reads it), `allOf` with exactly one schema, `description` (an annotation, ignored by the grammar) |
 * | string    | `minLength`, `maxLength`, `pattern`, `format` (date, time, date-time, duration, email, ipv4, ipv6, hostname, uuid, uri, uri-reference, uri-template, json-pointer, relative-json-pointer) |
 * | number    | `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (numeric form; draft-04 booleans are converted) |
 * | array     | `items` (a tuple `items` list becomes `prefixItems`), `prefixItems`, `minItems`, `maxItems` |
 * | object    | `properties`, `required`, `additionalProperties`, `minProperties`, `maxProperties` |
 *
 * Everything else is dropped: `$ref`/`$defs` are inlined first (../normalize.ts), and keywords the
 * grammar cannot enforce (`not`, `if`/`then`/`else`, `uniqueItems`, `multipleOf`, `contains`,
 * `dependencies`, `patternProperties`, `propertyNames`, `allOf` of several schemas, unknown formats)
 * and annotations (`default`, `examples`, `title`) are removed. Dropping a constraint only widens
 * what the decoder may emit; it never forbids a valid call. The host still validates every call's
 * arguments against the tool's own schema before running it, so a widened value is refused there
 * with the reason.
 */
import type { AnyTool } from '../../tool.ts';
import { normalizeSchema, type JsonSchema } from '../normalize.ts';
import { isPlainObject } from '../schema-keywords.ts';

/** Every keyword the union schema may contain (the test walks the schema against this list). */
export const XGRAMMAR_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'enum',
  'const',
  'anyOf',
  'allOf',
  'description',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
]);

/** The string formats xgrammar documents; others are dropped rather than rejected by the compiler. */
export const XGRAMMAR_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'time',
  'date-time',
  'duration',
  'email',
  'ipv4',
  'ipv6',
  'hostname',
  'uuid',
  'uri',
  'uri-reference',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
]);

const PLAIN_VALUE_KEYWORDS = ['enum', 'const', 'description', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const;

/** A tool's input schema restricted to the xgrammar subset (see the module comment). Pure. */
export function toGuidedSchema(schema: JsonSchema): JsonSchema {
  const converted = convertNode(normalizeSchema(schema));
  return isPlainObject(converted) ? converted : {};
}

function convertNode(node: unknown): JsonSchema {
  // Boolean schemas: `true` is "anything" ({}); `false` cannot be spelt in the subset, and only
  // appears as `additionalProperties: false`, which convertObjectKeywords keeps as it is.
  if (!isPlainObject(node)) return {};
  const type = node['type'];
  if (Array.isArray(type)) {
    // Keywords of other types do not constrain a value, so every branch can carry all of them.
    const types = type.filter((entry): entry is string => typeof entry === 'string');
    if (types.length === 1) return convertNode({ ...node, type: types[0] });
    const branches = types.map((entry) => convertNode({ ...node, type: entry }));
    const description = node['description'];
    return { ...(typeof description === 'string' ? { description } : {}), anyOf: branches };
  }
  const output: JsonSchema = {};
  if (typeof type === 'string') output['type'] = type;
  for (const keyword of PLAIN_VALUE_KEYWORDS) {
    if (node[keyword] !== undefined) output[keyword] = structuredClone(node[keyword]);
  }
  const format = node['format'];
  if (typeof format === 'string' && XGRAMMAR_FORMATS.has(format)) output['format'] = format;
  convertBounds(node, output);
  convertApplicators(node, output);
  convertArrayKeywords(node, output);
  convertObjectKeywords(node, output);
  return output;
}

/** Draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric form xgrammar reads. */
function convertBounds(node: Record<string, unknown>, output: JsonSchema): void {
  for (const [exclusive, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = node[exclusive];
    if (typeof value === 'number') output[exclusive] = value;
    else if (value === true && typeof node[inclusive] === 'number') {
      output[exclusive] = node[inclusive];
      delete output[inclusive];
    }
  }
}

function convertApplicators(node: Record<string, unknown>, output: JsonSchema): void {
  const alternatives = [...(Array.isArray(node['anyOf']) ? node['anyOf'] : []), ...(Array.isArray(node['oneOf']) ? node['oneOf'] : [])];
  if (alternatives.length > 0) output['anyOf'] = alternatives.map(convertNode);
  const allOf = node['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1) output['allOf'] = [convertNode(allOf[0])];
}

function convertArrayKeywords(node: Record<string, unknown>, output: JsonSchema): void {
  const items = node['items'];
  const prefixItems = node['prefixItems'];
  if (Array.isArray(prefixItems)) output['prefixItems'] = prefixItems.map(convertNode);
  if (Array.isArray(items)) {
    output['prefixItems'] = items.map(convertNode);
    const additional = node['additionalItems'];
    if (additional === false) output['items'] = false;
    else if (isPlainObject(additional)) output['items'] = convertNode(additional);
  } else if (items === false) {
    output['items'] = false;
  } else if (items !== undefined) {
    output['items'] = convertNode(items);
  }
}

function convertObjectKeywords(node: Record<string, unknown>, output: JsonSchema): void {
  const properties = node['properties'];
  if (isPlainObject(properties)) {
    output['properties'] = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, convertNode(schema)]));
  }
  const required = node['required'];
  if (Array.isArray(required)) output['required'] = required.filter((name): name is string => typeof name === 'string');
  const additional = node['additionalProperties'];
  if (typeof additional === 'boolean') output['additionalProperties'] = additional;
  else if (additional !== undefined) output['additionalProperties'] = convertNode(additional);
}

/** The `tool_calls` item branch of one tool: `name` is a const, `arguments` is its schema. */
export function toolCallBranch(tool: Pick<AnyTool, 'name' | 'description' | 'inputSchema'>): JsonSchema {
  return {
    type: 'object',
    description: tool.description,
    properties: {
      name: { type: 'string', const: tool.name },
      arguments: toGuidedSchema(tool.inputSchema),
    },
    required: ['name', 'arguments'],
    additionalProperties: false,
  };
}

/**
 * The assistant-turn schema over `tools`. With no tools, `tool_calls` must be empty (an `anyOf`
 * needs at least one branch).
 */
export function toUnionSchema(tools: readonly Pick<AnyTool, 'name' | 'description' | 'inputSchema'>[]): JsonSchema {
  const toolCalls: JsonSchema =
    tools.length === 0
      ? { type: 'array', maxItems: 0 }
      : { type: 'array', description: 'The tools to call, in order; empty when the turn only answers in content.', items: { anyOf: tools.map(toolCallBranch) } };
  return {
    type: 'object',
    description: 'One assistant turn: text for the user, and the tool calls to run.',
    properties: {
      content: { type: 'string', description: 'Text of the turn (may be empty).' },
      tool_calls: toolCalls,
    },
    required: ['content', 'tool_calls'],
    additionalProperties: false,
  };
}
