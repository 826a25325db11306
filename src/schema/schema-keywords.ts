/**
 * Which JSON Schema keywords hold sub-schemas. Everything else (`enum`, `const`, `default`,
 * `examples`, `required`, ...) holds plain data, which must never be treated as a schema:
 * a `default: { title: "x" }` is a value, not a schema with a title.
 */

/** Keywords whose value is one sub-schema. `items` may also be an array (tuple form). */
export const SINGLE_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]);

/** Keywords whose value is an array of sub-schemas. */
export const SCHEMA_ARRAY_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);

/**
 * Keywords whose value maps arbitrary names to sub-schemas. The names are data (a property may
 * be called "title" or "$ref"); only the values are schemas. `dependencies` values may also be
 * arrays of property names, which are kept as data.
 */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
  'definitions',
  '$defs',
]);

/** Keywords that hold schemas only to be referenced; they are dropped once refs are inlined. */
export const DEFINITION_KEYWORDS: ReadonlySet<string> = new Set(['definitions', '$defs']);

export { isPlainObject } from '../json-value.ts';

/** True when a schema's `type` is "object" or a type list containing "object". */
export function declaresObjectType(schema: Record<string, unknown>): boolean {
  const type = schema['type'];
  return type === 'object' || (Array.isArray(type) && type.includes('object'));
}
