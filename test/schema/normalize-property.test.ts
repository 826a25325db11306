/** Property tests: normalization of generated schemas (with titles, definitions and refs). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonSchema, normalizeSchema } from '../../src/schema/normalize.ts';
import { collectSchemas } from './schema-walk.ts';

const propertyName = fc.constantFrom('title', 'name', '$ref', 'definitions', 'a/b', 'x');

/** Schemas that may reference the definitions "leaf" and "pair" (which never refer back). */
const schemaArbitrary = fc.letrec<{ schema: JsonSchema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ type: fc.constantFrom('string', 'number', 'boolean'), title: fc.string() }, { requiredKeys: ['type'] }),
    fc.constantFrom<JsonSchema>({ $ref: '#/definitions/leaf' }, { $ref: '#/$defs/pair' }, { $ref: '#/$defs/pair', description: 'd' }),
    fc.record({ type: fc.constant('array'), items: tie('schema') }),
    fc.record(
      { type: fc.constant('object'), title: fc.string(), properties: fc.dictionary(propertyName, tie('schema'), { maxKeys: 4 }) },
      { requiredKeys: ['type'] },
    ),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
  ),
}));

const rootArbitrary = fc.dictionary(propertyName, schemaArbitrary.schema, { maxKeys: 5 }).map(
  (properties): JsonSchema => ({
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Root',
    type: 'object',
    properties,
    definitions: { leaf: { type: 'string', title: 'Leaf' } },
    $defs: { pair: { type: 'array', items: { $ref: '#/definitions/leaf' } } },
  }),
);

describe('normalizeSchema properties', () => {
  it('leaves the input untouched, is idempotent, and removes every ref, title, $schema and definition', () => {
    fc.assert(
      fc.property(rootArbitrary, (schema) => {
        const before = structuredClone(schema);
        const normalized = normalizeSchema(schema);
        expect(schema).toEqual(before);
        expect(normalizeSchema(normalized)).toEqual(normalized);
        for (const { location, schema: node } of collectSchemas(normalized)) {
          for (const keyword of ['$ref', 'title', '$schema', 'definitions', '$defs']) {
            expect(keyword in node, `${keyword} at ${location}`).toBe(false);
          }
          if (node['type'] === 'object') expect(node['properties'], location).toBeDefined();
        }
        // Property names are data: every name of the input survives.
        const inputNames = Object.keys(schema['properties'] as object);
        expect(Object.keys(normalized['properties'] as object)).toEqual(inputNames);
      }),
      { numRuns: 300 },
    );
  });
});
