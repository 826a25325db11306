/**
 * Conversion of a normalized JSON Schema into the OpenAPI-3.0 subset Gemini's function calling
 * accepts (the `Schema` object of a `FunctionDeclaration`). Gemini answers HTTP 400 to any
 * unknown field ("Unknown name \"additionalProperties\"", "$schema", ...), so the output is built
 * from an allow-list, never by deleting known-bad keys:
 *
 *   type, format, description, nullable, enum, items, properties, required,
 *   minItems, maxItems, minimum, maximum, anyOf
 *
 * Rules:
 * - `format` is kept only where Gemini defines it: enum / date-time for strings, int32 / int64
 *   for integers, float / double for numbers.
 * - `type: ["x", "null"]`, an `anyOf`/`oneOf` branch `{type: "null"}` and a `null` enum value
 *   become `nullable: true`; several non-null types become an `anyOf` of single-type schemas.
 * - Enums are string-only: non-string values are stringified and the type becomes "string";
 *   `const` becomes a one-value enum.
 * - `allOf` is merged into one schema (properties and required united, first value wins for
 *   other keywords); `oneOf` becomes `anyOf`; tuple `items` become an `anyOf` of the members.
 * - `exclusiveMinimum` / `exclusiveMaximum` (numbers) become the inclusive bound when no
 *   inclusive one is given: looser, and the host's zod parser still enforces the exact bound.
 * - Every schema gets a `type` (Gemini: "type must be specified when not using any_of"); a
 *   schema with none (`{}`, z.unknown()) becomes `type: "string"`, which such parsers accept.
 * - Arrays always get `items` (string when unspecified).
 * - Objects keep `properties` only when non-empty (free-form objects are `{type: "object"}`), and
 *   `required` is filtered to the names actually in `properties`.
 *   Dropped: $ref, $schema, additionalProperties, default, examples, const, pattern, title,
 *   minLength/maxLength, multipleOf, uniqueItems, not, if/then/else, patternProperties, ...
 */
import type { JsonSchema } from './normalize.ts';
import { declaresObjectType, isPlainObject } from './schema-keywords.ts';

export type GeminiType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';

export interface GeminiSchema {
  type?: GeminiType;
  format?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: GeminiSchema[];
}

/** Every keyword a converted schema may contain. */
export const GEMINI_SCHEMA_KEYWORDS: readonly (keyof GeminiSchema)[] = [
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
];

const GEMINI_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

const FORMATS_BY_TYPE: Readonly<Partial<Record<GeminiType, ReadonlySet<string>>>> = {
  string: new Set(['enum', 'date-time']),
  integer: new Set(['int32', 'int64']),
  number: new Set(['float', 'double']),
};

/** Converts a normalized (ref-free) JSON Schema into Gemini's schema subset. */
export function toGeminiSchema(schema: JsonSchema): GeminiSchema {
  return convertNode(schema);
}

function convertNode(node: unknown): GeminiSchema {
  // Boolean schemas carry no structure Gemini can express.
  if (!isPlainObject(node)) return { type: 'string' };
  const schema = Array.isArray(node['allOf']) ? mergeAllOf(node) : node;
  const branches = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(branches)) return convertUnion(schema, branches);
  return convertTyped(schema);
}

function convertUnion(schema: Record<string, unknown>, branches: unknown[]): GeminiSchema {
  const { anyOf: _anyOf, oneOf: _oneOf, ...outer } = schema;
  const nonNullBranches = branches.filter((branch) => !isNullSchema(branch));
  const nullable = nonNullBranches.length < branches.length || outer['nullable'] === true;
  if (nonNullBranches.length === 0) {
    return withNullable(convertTyped(outer), nullable);
  }
  const [onlyBranch] = nonNullBranches;
  if (nonNullBranches.length === 1 && isPlainObject(onlyBranch)) {
    // `X | null`: the outer keywords (usually a description) refine the one real branch.
    return withNullable(convertNode({ ...onlyBranch, ...outer }), nullable);
  }
  const result: GeminiSchema = { anyOf: nonNullBranches.map((branch) => withNullable(convertNode(branch), nullable)) };
  const description = outer['description'];
  if (typeof description === 'string') result.description = description;
  return result;
}

function convertTyped(schema: Record<string, unknown>): GeminiSchema {
  const declaredTypes = typeNames(schema);
  let nullable = schema['nullable'] === true || declaredTypes.includes('null');
  const types = declaredTypes.filter((type): type is GeminiType => GEMINI_TYPES.has(type));
  let enumValues = enumValuesOf(schema);
  if (enumValues !== undefined && enumValues.includes(null)) {
    nullable = true;
    enumValues = enumValues.filter((value) => value !== null);
  }
  const hasEnum = enumValues !== undefined && enumValues.length > 0;
  if (types.length > 1 && !hasEnum) {
    const result: GeminiSchema = {
      anyOf: types.map((type) => withNullable(convertTyped({ ...schema, type, nullable: false }), nullable)),
    };
    const description = schema['description'];
    if (typeof description === 'string') result.description = description;
    return result;
  }
  const type: GeminiType = hasEnum ? 'string' : (types[0] ?? inferType(schema));
  const result: GeminiSchema = { type };
  const description = schema['description'];
  if (typeof description === 'string') result.description = description;
  if (nullable) result.nullable = true;
  const format = schema['format'];
  if (typeof format === 'string' && FORMATS_BY_TYPE[type]?.has(format)) result.format = format;
  if (hasEnum && enumValues !== undefined) result.enum = enumValues.map(stringifyEnumValue);
  if (type === 'number' || type === 'integer') copyNumberBounds(schema, result);
  if (type === 'array') convertArray(schema, result);
  if (type === 'object') convertObject(schema, result);
  return result;
}

function typeNames(schema: Record<string, unknown>): string[] {
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === 'string');
  return [];
}

/** The type of an untyped schema, from its shape; "string" when nothing tells. */
function inferType(schema: Record<string, unknown>): GeminiType {
  if (isPlainObject(schema['properties']) || declaresObjectType(schema)) return 'object';
  if ('items' in schema || 'prefixItems' in schema) return 'array';
  return 'string';
}

function enumValuesOf(schema: Record<string, unknown>): unknown[] | undefined {
  if (Array.isArray(schema['enum'])) return schema['enum'];
  if ('const' in schema) return [schema['const']];
  return undefined;
}

function stringifyEnumValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function copyNumberBounds(schema: Record<string, unknown>, result: GeminiSchema): void {
  const minimum = firstNumber(schema['minimum'], schema['exclusiveMinimum']);
  const maximum = firstNumber(schema['maximum'], schema['exclusiveMaximum']);
  if (minimum !== undefined) result.minimum = minimum;
  if (maximum !== undefined) result.maximum = maximum;
}

function firstNumber(...values: unknown[]): number | undefined {
  return values.find((value): value is number => typeof value === 'number');
}

function convertArray(schema: Record<string, unknown>, result: GeminiSchema): void {
  const items = schema['items'];
  const tuple = Array.isArray(items) ? items : Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : undefined;
  if (tuple !== undefined) {
    const members = tuple.map(convertNode);
    const [onlyMember] = members;
    result.items = members.length === 1 && onlyMember !== undefined ? onlyMember : members.length === 0 ? { type: 'string' } : { anyOf: members };
  } else {
    result.items = items === undefined ? { type: 'string' } : convertNode(items);
  }
  for (const keyword of ['minItems', 'maxItems'] as const) {
    const value = schema[keyword];
    if (typeof value === 'number') result[keyword] = value;
  }
}

function convertObject(schema: Record<string, unknown>, result: GeminiSchema): void {
  const properties = schema['properties'];
  if (!isPlainObject(properties) || Object.keys(properties).length === 0) return;
  const converted: Record<string, GeminiSchema> = {};
  for (const [name, subschema] of Object.entries(properties)) converted[name] = convertNode(subschema);
  result.properties = converted;
  const required = schema['required'];
  if (Array.isArray(required)) {
    const names = required.filter((name): name is string => typeof name === 'string' && Object.hasOwn(converted, name));
    if (names.length > 0) result.required = names;
  }
}

function isNullSchema(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  const types = typeNames(schema);
  return types.length > 0 && types.every((type) => type === 'null');
}

function withNullable(schema: GeminiSchema, nullable: boolean): GeminiSchema {
  return nullable ? { ...schema, nullable: true } : schema;
}

/** Merges `allOf` members into their parent: properties and required are united; otherwise the first value wins. */
function mergeAllOf(schema: Record<string, unknown>): Record<string, unknown> {
  const { allOf, ...rest } = schema;
  const merged: Record<string, unknown> = { ...rest };
  const members = Array.isArray(allOf) ? allOf.filter(isPlainObject) : [];
  for (const member of members) {
    const flatMember = Array.isArray(member['allOf']) ? mergeAllOf(member) : member;
    for (const [keyword, value] of Object.entries(flatMember)) {
      if (keyword === 'properties' && isPlainObject(value)) {
        merged['properties'] = { ...(isPlainObject(merged['properties']) ? merged['properties'] : {}), ...value };
      } else if (keyword === 'required' && Array.isArray(value)) {
        const existing = Array.isArray(merged['required']) ? merged['required'] : [];
        merged['required'] = [...new Set([...existing, ...value])];
      } else if (!(keyword in merged)) {
        merged[keyword] = value;
      }
    }
  }
  return merged;
}
