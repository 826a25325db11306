/**
 * Whether a JSON Schema may be sent to OpenAI with `strict: true` (Structured Outputs for
 * function calling). Strict mode makes OpenAI constrain decoding to the schema, but it accepts
 * only a subset of JSON Schema and rejects the whole request otherwise. The rule, per OpenAI's
 * "Supported schemas" documentation for Structured Outputs:
 *
 * 1. The root is a schema of `type: "object"` (not `anyOf`).
 * 2. Every object schema sets `additionalProperties: false` and lists every key of its
 *    `properties` in `required` (optional fields must be expressed as a union with null).
 * 3. Every schema has a `type` (string, number, integer, boolean, object, array, null, or a
 *    list of those) or is an `anyOf` whose branches follow the same rules; boolean schemas
 *    (`true` / `false`) and tuple `items` are not allowed.
 * 4. Only these keywords appear: type, description, title, properties, required,
 *    additionalProperties, items, enum, const, anyOf; for strings pattern and format (format
 *    only date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid); for numbers
 *    minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf; for arrays minItems,
 *    maxItems. Anything else (`default`, `allOf`, `oneOf`, `not`, `minLength`, `patternProperties`,
 *    `uniqueItems`, `$ref` left over, ...) disqualifies the schema.
 * 5. Size limits: at most 10 levels of object nesting, 5000 object properties in total and 1000
 *    enum values in total.
 *
 * The check is conservative: a schema that fails it is sent without `strict`, unchanged, so a
 * false negative costs only the decoding guarantee while a false positive would fail the request.
 */
import { escapePointerToken } from './json-pointer.ts';
import { isPlainObject } from './schema-keywords.ts';

const ALLOWED_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

const ALLOWED_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const ALLOWED_STRING_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

export const OPENAI_STRICT_MAX_OBJECT_DEPTH = 10;
export const OPENAI_STRICT_MAX_PROPERTIES = 5000;
export const OPENAI_STRICT_MAX_ENUM_VALUES = 1000;

interface StrictCheckState {
  violations: string[];
  propertyCount: number;
  enumValueCount: number;
}

/** Every reason `schema` cannot be sent in strict mode, each naming its JSON pointer; empty when it can. */
export function openAIStrictViolations(schema: unknown): string[] {
  const state: StrictCheckState = { violations: [], propertyCount: 0, enumValueCount: 0 };
  if (!isPlainObject(schema) || schema['type'] !== 'object') {
    state.violations.push('#: the root must be a schema of type "object"');
  }
  checkNode(schema, '#', 0, state);
  if (state.propertyCount > OPENAI_STRICT_MAX_PROPERTIES) {
    state.violations.push(`#: ${state.propertyCount} object properties exceed the limit of ${OPENAI_STRICT_MAX_PROPERTIES}`);
  }
  if (state.enumValueCount > OPENAI_STRICT_MAX_ENUM_VALUES) {
    state.violations.push(`#: ${state.enumValueCount} enum values exceed the limit of ${OPENAI_STRICT_MAX_ENUM_VALUES}`);
  }
  return state.violations;
}

export function isOpenAIStrictCompatible(schema: unknown): boolean {
  return openAIStrictViolations(schema).length === 0;
}

function checkNode(node: unknown, location: string, objectDepth: number, state: StrictCheckState): void {
  if (!isPlainObject(node)) {
    state.violations.push(`${location}: boolean or non-object schemas are not supported`);
    return;
  }
  for (const keyword of Object.keys(node)) {
    if (!ALLOWED_KEYWORDS.has(keyword)) state.violations.push(`${location}: keyword "${keyword}" is not supported`);
  }
  const types = checkType(node, location, state);
  if (types.includes('object')) checkObject(node, location, objectDepth + 1, state);
  if ('items' in node) {
    if (Array.isArray(node['items'])) state.violations.push(`${location}/items: tuple items are not supported`);
    else checkNode(node['items'], `${location}/items`, objectDepth, state);
  }
  const format = node['format'];
  if (format !== undefined && (typeof format !== 'string' || !ALLOWED_STRING_FORMATS.has(format))) {
    state.violations.push(`${location}: format ${JSON.stringify(format)} is not supported`);
  }
  const enumValues = node['enum'];
  if (enumValues !== undefined) {
    if (Array.isArray(enumValues)) state.enumValueCount += enumValues.length;
    else state.violations.push(`${location}: enum must be an array`);
  }
  const branches = node['anyOf'];
  if (branches !== undefined) {
    if (location === '#') state.violations.push('#: the root must not be anyOf');
    if (!Array.isArray(branches)) state.violations.push(`${location}: anyOf must be an array`);
    else branches.forEach((branch, index) => checkNode(branch, `${location}/anyOf/${index}`, objectDepth, state));
  }
}

/** Validates `type` and returns the declared type names. */
function checkType(node: Record<string, unknown>, location: string, state: StrictCheckState): string[] {
  const type = node['type'];
  if (type === undefined) {
    if (!('anyOf' in node)) state.violations.push(`${location}: every schema needs a "type" (or anyOf)`);
    return [];
  }
  const types = Array.isArray(type) ? type : [type];
  const names: string[] = [];
  for (const entry of types) {
    if (typeof entry === 'string' && ALLOWED_TYPES.has(entry)) names.push(entry);
    else state.violations.push(`${location}: type ${JSON.stringify(entry)} is not supported`);
  }
  if (types.length === 0) state.violations.push(`${location}: type list is empty`);
  return names;
}

function checkObject(node: Record<string, unknown>, location: string, objectDepth: number, state: StrictCheckState): void {
  if (objectDepth > OPENAI_STRICT_MAX_OBJECT_DEPTH) {
    state.violations.push(`${location}: objects nest deeper than ${OPENAI_STRICT_MAX_OBJECT_DEPTH} levels`);
  }
  if (node['additionalProperties'] !== false) {
    state.violations.push(`${location}: objects must set additionalProperties: false`);
  }
  const properties = node['properties'] ?? {};
  if (!isPlainObject(properties)) {
    state.violations.push(`${location}: properties must be an object`);
    return;
  }
  const required = node['required'] ?? [];
  const requiredNames = new Set(Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : []);
  for (const [name, subschema] of Object.entries(properties)) {
    state.propertyCount += 1;
    if (!requiredNames.has(name)) state.violations.push(`${location}: property "${name}" must be listed in required`);
    checkNode(subschema, `${location}/properties/${escapePointerToken(name)}`, objectDepth, state);
  }
  if (!Array.isArray(required)) state.violations.push(`${location}: required must be an array`);
  for (const name of requiredNames) {
    if (!Object.hasOwn(properties, name)) state.violations.push(`${location}: required names "${name}", which is not a property`);
  }
}
