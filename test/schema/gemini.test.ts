import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GEMINI_SCHEMA_KEYWORDS, toGeminiSchema } from '../../src/schema/gemini-schema.ts';
import { toGeminiFunctionDeclaration } from '../../src/schema/providers/gemini.ts';
import { collectSchemas } from './schema-walk.ts';
import { makeTool } from './tool-fixtures.ts';

const FORBIDDEN_KEYWORDS = [
  '$ref',
  '$schema',
  '$defs',
  'definitions',
  'additionalProperties',
  'default',
  'examples',
  'const',
  'pattern',
  'title',
  'allOf',
  'oneOf',
  'not',
  'minLength',
  'maxLength',
  'exclusiveMinimum',
  'exclusiveMaximum',
];

const ALLOWED_FORMATS: Record<string, string[]> = {
  string: ['enum', 'date-time'],
  integer: ['int32', 'int64'],
  number: ['float', 'double'],
};

/** A tool whose zod input exercises every construct the conversion has to handle. */
const kitchenSink = makeTool(
  'kitchen_sink',
  z.object({
    name: z.string().min(1).max(20).regex(/^[a-z]+$/).default('x').describe('A name'),
    when: z.string().datetime(),
    site: z.string().url(),
    count: z.number().int().positive().max(9),
    ratio: z.number().gt(0).lt(1),
    level: z.union([z.literal(1), z.literal(2)]),
    flag: z.literal(true),
    mode: z.enum(['fast', 'slow']),
    maybe: z.string().nullable(),
    maybeObject: z.object({ a: z.string() }).nullable().describe('Optional object'),
    either: z.union([z.string(), z.number()]),
    shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), x: z.number() }), z.object({ kind: z.literal('b') })]),
    env: z.record(z.string()),
    pair: z.tuple([z.string(), z.number()]),
    both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    anything: z.unknown(),
    list: z.array(z.any()),
    grid: z.array(z.array(z.object({ title: z.string(), cells: z.array(z.object({ v: z.number().default(0) })) }))),
  }),
);

describe('toGeminiFunctionDeclaration', () => {
  const declaration = toGeminiFunctionDeclaration(kitchenSink);
  const schemas = collectSchemas(declaration.parameters);

  it('keeps name and description', () => {
    expect(declaration.name).toBe('kitchen_sink');
    expect(declaration.description).toBe('The kitchen_sink tool');
  });

  it('leaves no forbidden keyword anywhere in the parameters', () => {
    expect(schemas.length).toBeGreaterThan(30);
    for (const { location, schema } of schemas) {
      for (const keyword of FORBIDDEN_KEYWORDS) {
        expect(keyword in schema, `${keyword} at ${location}`).toBe(false);
      }
    }
  });

  it('uses only allowed keywords, each schema having a type or an anyOf', () => {
    const allowed = new Set<string>(GEMINI_SCHEMA_KEYWORDS);
    for (const { location, schema } of schemas) {
      for (const keyword of Object.keys(schema)) expect(allowed.has(keyword), `${keyword} at ${location}`).toBe(true);
      expect('type' in schema || 'anyOf' in schema, `type or anyOf at ${location}`).toBe(true);
      if (Array.isArray(schema['type'])) throw new Error(`type list at ${location}`);
    }
  });

  it('uses formats only where Gemini defines them, and enums only on strings', () => {
    for (const { location, schema } of schemas) {
      if ('format' in schema) expect(ALLOWED_FORMATS[schema['type'] as string], location).toContain(schema['format']);
      if ('enum' in schema) {
        expect(schema['type'], location).toBe('string');
        for (const value of schema['enum'] as unknown[]) expect(typeof value, location).toBe('string');
      }
    }
  });

  it('keeps object properties non-empty and required within properties; arrays always have items', () => {
    for (const { location, schema } of schemas) {
      const properties = schema['properties'] as Record<string, unknown> | undefined;
      if (properties !== undefined) expect(Object.keys(properties).length, location).toBeGreaterThan(0);
      for (const name of (schema['required'] as string[] | undefined) ?? []) expect(properties, location).toHaveProperty(name);
      if (schema['type'] === 'array') expect(schema['items'], location).toBeDefined();
    }
  });

  it('converts each construct as documented', () => {
    const properties = declaration.parameters?.properties ?? {};
    expect(properties['name']).toEqual({ type: 'string', description: 'A name' });
    expect(properties['when']).toEqual({ type: 'string', format: 'date-time' });
    expect(properties['site']).toEqual({ type: 'string' });
    expect(properties['count']).toEqual({ type: 'integer', minimum: 0, maximum: 9 });
    expect(properties['ratio']).toEqual({ type: 'number', minimum: 0, maximum: 1 });
    expect(properties['env']).toEqual({ type: 'object' });
    expect(properties['pair']).toEqual({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] }, minItems: 2, maxItems: 2 });
    expect(properties['both']).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(properties['anything']).toEqual({ type: 'string' });
    expect(properties['list']).toEqual({ type: 'array', items: { type: 'string' } });
    expect(properties['grid']?.items?.items?.properties?.['title']).toEqual({ type: 'string' });
    expect(properties['grid']?.items?.items?.properties?.['cells']?.items).toEqual({ type: 'object', properties: { v: { type: 'number' } } });
  });

  it('turns enums with non-string values into string enums, and const into a one-value enum', () => {
    const properties = declaration.parameters?.properties ?? {};
    expect(properties['mode']).toEqual({ type: 'string', enum: ['fast', 'slow'] });
    expect(properties['level']).toEqual({ type: 'string', enum: ['1', '2'] });
    expect(properties['flag']).toEqual({ type: 'string', enum: ['true'] });
    expect(properties['shape']?.anyOf?.[1]?.properties?.['kind']).toEqual({ type: 'string', enum: ['b'] });
  });

  it('turns null unions into nullable', () => {
    const properties = declaration.parameters?.properties ?? {};
    expect(properties['maybe']).toEqual({ type: 'string', nullable: true });
    expect(properties['maybeObject']).toEqual({
      type: 'object',
      description: 'Optional object',
      nullable: true,
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
    expect(properties['either']).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
  });

  it('omits parameters for a tool without parameters', () => {
    const declarationWithout = toGeminiFunctionDeclaration(makeTool('list_everything', z.object({})));
    expect(declarationWithout).toEqual({ name: 'list_everything', description: 'The list_everything tool' });
  });

  it('inlines refs of a hand-written schema before converting', () => {
    const declarationWithRefs = toGeminiFunctionDeclaration({
      name: 'hand_written',
      description: 'd',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { p: { $ref: '#/definitions/point' } },
        definitions: { point: { type: 'object', properties: { x: { type: 'number' } }, additionalProperties: false } },
      },
    });
    expect(declarationWithRefs.parameters).toEqual({
      type: 'object',
      properties: { p: { type: 'object', properties: { x: { type: 'number' } } } },
    });
  });
});

describe('toGeminiSchema nullability and type lists', () => {
  it.each([
    ['a type list with null', { type: ['integer', 'null'] }, { type: 'integer', nullable: true }],
    ['anyOf with a null branch', { anyOf: [{ type: 'number' }, { type: 'null' }] }, { type: 'number', nullable: true }],
    ['oneOf with a null branch', { oneOf: [{ type: 'null' }, { type: 'boolean' }] }, { type: 'boolean', nullable: true }],
    ['an enum containing null', { type: ['string', 'null'], enum: ['a', null] }, { type: 'string', nullable: true, enum: ['a'] }],
    ['an OpenAPI nullable flag', { type: 'string', nullable: true }, { type: 'string', nullable: true }],
    [
      'a multi-branch anyOf with null',
      { description: 'd', anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
      { description: 'd', anyOf: [{ type: 'string', nullable: true }, { type: 'integer', nullable: true }] },
    ],
    [
      'a multi-type list with null',
      { type: ['string', 'number', 'null'], minimum: 1 },
      { anyOf: [{ type: 'string', nullable: true }, { type: 'number', nullable: true, minimum: 1 }] },
    ],
  ])('converts %s', (_label, input, expected) => {
    expect(toGeminiSchema(input)).toEqual(expected);
  });

  it('keeps formats only for their own type', () => {
    expect(toGeminiSchema({ type: 'integer', format: 'int64' })).toEqual({ type: 'integer', format: 'int64' });
    expect(toGeminiSchema({ type: 'number', format: 'double' })).toEqual({ type: 'number', format: 'double' });
    expect(toGeminiSchema({ type: 'integer', format: 'double' })).toEqual({ type: 'integer' });
    expect(toGeminiSchema({ type: 'string', format: 'email' })).toEqual({ type: 'string' });
  });

  it('infers a missing type from the schema shape', () => {
    expect(toGeminiSchema({ properties: { a: { type: 'string' } } })).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(toGeminiSchema({ items: { type: 'string' } })).toEqual({ type: 'array', items: { type: 'string' } });
  });
});
