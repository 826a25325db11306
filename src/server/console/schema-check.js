// Checks a JSON value against the subset of JSON Schema toolhost serves as a tool's inputSchema
// (what src/schema emits from zod and from CLI specs): type (with null), enum, const, string lengths
// and pattern, number ranges and multipleOf, array items / counts / uniqueness, object properties /
// required / additionalProperties, anyOf / oneOf / allOf. It is the raw-JSON mode's check before a
// call; the per-field messages are the form's own (stringProblems, numberProblems). Keywords outside
// the subset are ignored: the daemon validates every call again, so this check only saves a round trip.

import { numberProblems, stringProblems } from './schema-form.js';

/** Deepest nesting checked; deeper values are left to the daemon. */
const MAX_DEPTH = 64;

/** The JSON type name of a value, as JSON Schema says it. */
export function jsonType(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(value, type) {
  const actual = jsonType(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The problems of `value` under `schema`, each `{ path, message }`; `path` like `limits.max` or
 * `tags[2]` ('' for the value itself).
 * @returns {{ path: string, message: string }[]}
 */
export function checkValue(value, schema, path = '', depth = 0) {
  if (schema === true || schema === undefined || schema === null || typeof schema !== 'object' || depth > MAX_DEPTH) return [];
  if (schema === false) return [{ path, message: 'No value is allowed here.' }];
  const problems = [];
  const add = (message) => problems.push({ path, message });
  for (const key of ['anyOf', 'oneOf']) {
    if (!Array.isArray(schema[key])) continue;
    const fits = schema[key].filter((option) => checkValue(value, option, path, depth + 1).length === 0).length;
    if (fits === 0) add(schema[key].length === 2 && schema[key].some((option) => option?.type === 'null') ? 'Must be null or match the schema.' : 'Matches none of the allowed forms.');
    else if (key === 'oneOf' && fits > 1) add('Matches more than one of the allowed forms.');
  }
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) problems.push(...checkValue(value, part, path, depth + 1));
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => same(allowed, value))) {
    add(`Must be one of ${schema.enum.map((allowed) => JSON.stringify(allowed)).join(', ')}.`);
    return problems;
  }
  if ('const' in schema && !same(schema.const, value)) {
    add(`Must be ${JSON.stringify(schema.const)}.`);
    return problems;
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length > 0 && !types.some((type) => typeMatches(value, type))) {
    const expected = types.map((type) => (type === 'integer' ? 'a whole number' : type === 'array' ? 'an array' : type === 'object' ? 'an object' : `a ${type}`));
    add(`Must be ${expected.join(' or ')}, not ${jsonType(value) === 'integer' ? 'a number' : jsonType(value) === 'array' ? 'an array' : jsonType(value) === 'object' ? 'an object' : jsonType(value)}.`);
    return problems;
  }
  if (typeof value === 'string') for (const message of stringProblems(value, schema)) add(message);
  if (typeof value === 'number') for (const message of numberProblems(String(value), { ...schema, type: types.includes('integer') && !types.includes('number') ? 'integer' : 'number' })) add(message);
  if (Array.isArray(value)) problems.push(...arrayProblems(value, schema, path, depth));
  if (jsonType(value) === 'object') problems.push(...objectProblems(value, schema, path, depth));
  return problems;
}

function arrayProblems(value, schema, path, depth) {
  const problems = [];
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) problems.push({ path, message: `Needs at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}.` });
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) problems.push({ path, message: `Takes at most ${schema.maxItems} items.` });
  if (schema.uniqueItems === true && new Set(value.map((item) => JSON.stringify(item))).size < value.length) problems.push({ path, message: 'Items must be different from each other.' });
  if (schema.items !== undefined && !Array.isArray(schema.items)) value.forEach((item, index) => problems.push(...checkValue(item, schema.items, `${path}[${index}]`, depth + 1)));
  return problems;
}

function objectProblems(value, schema, path, depth) {
  const problems = [];
  const properties = schema.properties ?? {};
  const at = (key) => (path === '' ? key : `${path}.${key}`);
  for (const key of Array.isArray(schema.required) ? schema.required : []) {
    if (!Object.hasOwn(value, key)) problems.push({ path: at(key), message: 'Required.' });
  }
  for (const [key, item] of Object.entries(value)) {
    if (Object.hasOwn(properties, key)) problems.push(...checkValue(item, properties[key], at(key), depth + 1));
    else if (schema.additionalProperties === false) problems.push({ path: at(key), message: `Unknown parameter (known: ${Object.keys(properties).join(', ') || 'none'}).` });
    else if (typeof schema.additionalProperties === 'object') problems.push(...checkValue(item, schema.additionalProperties, at(key), depth + 1));
  }
  return problems;
}
