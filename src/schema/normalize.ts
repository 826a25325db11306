/**
 * Normalization of a tool's JSON Schema into one self-contained shape every provider accepts:
 *
 * - `$schema` is dropped;
 * - every same-document `$ref` (`#`, `#/definitions/x`, `#/$defs/x`, and JSON pointers such as
 *   `#/properties/a/items`, which zod-to-json-schema emits for reused sub-schemas) is inlined,
 *   recursively, and `definitions` / `$defs` are removed afterwards;
 * - a ref that leads back into its own expansion throws `SCHEMA_REF_CYCLE`; a ref that does not
 *   resolve throws `SCHEMA_UNRESOLVED_REF`;
 * - the `title` keyword is stripped (a *property* named "title" is kept: property names are data);
 * - every schema whose type is object gets `properties` (`{}` when absent).
 *
 * Pure: the input is never mutated and the output shares no objects with it.
 */
import { ToolHostError } from '../errors.ts';
import { escapePointerToken, resolveLocalPointer } from './json-pointer.ts';
import {
  DEFINITION_KEYWORDS,
  SCHEMA_ARRAY_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  SINGLE_SCHEMA_KEYWORDS,
  declaresObjectType,
  isPlainObject,
} from './schema-keywords.ts';

export type JsonSchema = { [key: string]: unknown };

/** Schema keywords removed from every schema object (not from property names). */
const DROPPED_KEYWORDS: ReadonlySet<string> = new Set(['$schema', 'title', ...DEFINITION_KEYWORDS]);

interface ExpandingRef {
  ref: string;
  /** The raw sub-schema the ref resolved to; cycles are detected by identity, not by spelling. */
  target: unknown;
}

interface NormalizeState {
  root: JsonSchema;
  /** Fully expanded refs, keyed by their raw target. Sound: a successful expansion holds no cycle. */
  expanded: Map<unknown, unknown>;
}

export function normalizeSchema(schema: JsonSchema): JsonSchema {
  const state: NormalizeState = { root: schema, expanded: new Map() };
  const normalized = normalizeNode(schema, '#', [], state);
  if (!isPlainObject(normalized)) {
    throw new ToolHostError('SCHEMA_INVALID', 'A tool input schema must be a JSON object');
  }
  return normalized;
}

function normalizeNode(node: unknown, location: string, chain: readonly ExpandingRef[], state: NormalizeState): unknown {
  // Boolean schemas (`true` / `false`) and malformed values are copied as they are.
  if (!isPlainObject(node)) return structuredClone(node);
  if ('$ref' in node) return inlineRef(node, location, chain, state);
  const output: JsonSchema = {};
  copyKeywords(node, output, location, chain, state);
  return withObjectProperties(output);
}

function inlineRef(node: Record<string, unknown>, location: string, chain: readonly ExpandingRef[], state: NormalizeState): unknown {
  const { $ref: ref, ...siblings } = node;
  if (typeof ref !== 'string') {
    throw new ToolHostError('SCHEMA_INVALID', `Schema $ref at ${location} is not a string`);
  }
  const target = resolveLocalPointer(state.root, ref);
  if (target === undefined) {
    throw new ToolHostError('SCHEMA_UNRESOLVED_REF', `Schema $ref "${ref}" at ${location} does not resolve to a definition or sub-schema`);
  }
  const cycleStart = chain.findIndex((entry) => entry.target === target);
  if (cycleStart !== -1) {
    const path = [...chain.slice(cycleStart).map((entry) => entry.ref), ref].join(' -> ');
    throw new ToolHostError(
      'SCHEMA_REF_CYCLE',
      `Schema $ref cycle at ${location}: ${path}. Recursive schemas cannot be inlined; bound the recursion depth instead`,
    );
  }
  let expanded = state.expanded.get(target);
  if (expanded === undefined) {
    expanded = normalizeNode(target, ref, [...chain, { ref, target }], state);
    state.expanded.set(target, expanded);
  }
  const copy = structuredClone(expanded);
  if (!isPlainObject(copy)) return copy;
  // Keywords written next to a $ref (typically a description) refine the referenced schema.
  copyKeywords(siblings, copy, location, chain, state);
  return withObjectProperties(copy);
}

function copyKeywords(
  source: Record<string, unknown>,
  output: JsonSchema,
  location: string,
  chain: readonly ExpandingRef[],
  state: NormalizeState,
): void {
  for (const [keyword, value] of Object.entries(source)) {
    if (DROPPED_KEYWORDS.has(keyword)) continue;
    output[keyword] = normalizeKeyword(keyword, value, `${location}/${escapePointerToken(keyword)}`, chain, state);
  }
}

function normalizeKeyword(keyword: string, value: unknown, location: string, chain: readonly ExpandingRef[], state: NormalizeState): unknown {
  if (SINGLE_SCHEMA_KEYWORDS.has(keyword)) {
    return Array.isArray(value) ? normalizeSchemaArray(value, location, chain, state) : normalizeNode(value, location, chain, state);
  }
  if (SCHEMA_ARRAY_KEYWORDS.has(keyword) && Array.isArray(value)) {
    return normalizeSchemaArray(value, location, chain, state);
  }
  if (SCHEMA_MAP_KEYWORDS.has(keyword) && isPlainObject(value)) {
    const map: JsonSchema = {};
    for (const [name, subschema] of Object.entries(value)) {
      const subLocation = `${location}/${escapePointerToken(name)}`;
      // `dependencies` may map a name to a list of property names: data, not a schema.
      map[name] = Array.isArray(subschema) ? structuredClone(subschema) : normalizeNode(subschema, subLocation, chain, state);
    }
    return map;
  }
  return structuredClone(value);
}

function normalizeSchemaArray(values: unknown[], location: string, chain: readonly ExpandingRef[], state: NormalizeState): unknown[] {
  return values.map((value, index) => normalizeNode(value, `${location}/${index}`, chain, state));
}

function withObjectProperties(schema: JsonSchema): JsonSchema {
  if (declaresObjectType(schema) && !isPlainObject(schema['properties'])) {
    schema['properties'] = {};
  }
  return schema;
}
