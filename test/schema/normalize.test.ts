import { describe, expect, it } from 'vitest';
import { ToolHostError } from '../../src/errors.ts';
import { type JsonSchema, normalizeSchema } from '../../src/schema/normalize.ts';
import { collectAllKeys } from './schema-walk.ts';

function thrownBy(action: () => unknown): ToolHostError {
  try {
    action();
  } catch (error) {
    if (error instanceof ToolHostError) return error;
    throw error;
  }
  throw new Error('expected a ToolHostError, nothing was thrown');
}

const point = {
  type: 'object',
  properties: { x: { type: 'number' }, y: { type: 'number' } },
  required: ['x', 'y'],
};

describe('normalizeSchema', () => {
  it('drops $schema', () => {
    const result = normalizeSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} });
    expect(result).toEqual({ type: 'object', properties: {} });
  });

  it('inlines #/definitions refs and removes the definitions', () => {
    const result = normalizeSchema({
      type: 'object',
      properties: { origin: { $ref: '#/definitions/point' } },
      definitions: { point },
    });
    expect(result).toEqual({ type: 'object', properties: { origin: point } });
  });

  it('inlines #/$defs refs and removes $defs', () => {
    const result = normalizeSchema({
      type: 'object',
      properties: { origin: { $ref: '#/$defs/point' } },
      $defs: { point },
    });
    expect(result).toEqual({ type: 'object', properties: { origin: point } });
  });

  it('fully expands refs inside nested arrays of objects', () => {
    const result = normalizeSchema({
      type: 'object',
      properties: {
        grid: { type: 'array', items: { type: 'array', items: { $ref: '#/definitions/cell' } } },
      },
      definitions: {
        cell: { type: 'object', properties: { at: { $ref: '#/definitions/point' }, tags: { type: 'array', items: { $ref: '#/definitions/tag' } } } },
        point,
        tag: { type: 'object', properties: { label: { type: 'string' } } },
      },
    });
    expect(result).toEqual({
      type: 'object',
      properties: {
        grid: {
          type: 'array',
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                at: point,
                tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } },
              },
            },
          },
        },
      },
    });
    expect(collectAllKeys(result).has('$ref')).toBe(false);
  });

  it('follows refs to refs', () => {
    const result = normalizeSchema({
      type: 'object',
      properties: { a: { $ref: '#/definitions/first' } },
      definitions: { first: { $ref: '#/definitions/second' }, second: { $ref: '#/$defs/third' } },
      $defs: { third: { type: 'string', enum: ['x'] } },
    });
    expect(result).toEqual({ type: 'object', properties: { a: { type: 'string', enum: ['x'] } } });
  });

  it('inlines JSON-pointer refs into sibling properties, as zod-to-json-schema emits them', () => {
    const result = normalizeSchema({
      type: 'object',
      properties: {
        a: { type: 'array', items: point },
        b: { $ref: '#/properties/a/items' },
        c: { type: 'array', items: { $ref: '#/properties/a' } },
      },
    });
    expect(result['properties']).toEqual({
      a: { type: 'array', items: point },
      b: point,
      c: { type: 'array', items: { type: 'array', items: point } },
    });
  });

  it('unescapes ~0, ~1 and percent-encoding in pointer tokens', () => {
    const result = normalizeSchema({
      type: 'object',
      properties: {
        'a/b': { type: 'string' },
        'c~d': { type: 'integer' },
        'e f': { type: 'boolean' },
        one: { $ref: '#/properties/a~1b' },
        two: { $ref: '#/properties/c~0d' },
        three: { $ref: '#/properties/e%20f' },
      },
    });
    const properties = result['properties'] as Record<string, unknown>;
    expect([properties['one'], properties['two'], properties['three']]).toEqual([{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }]);
  });

  it('lets keywords next to a $ref refine the referenced schema', () => {
    const result = normalizeSchema({
      type: 'object',
      properties: { start: { $ref: '#/definitions/point', description: 'Where to start' } },
      definitions: { point },
    });
    expect(result['properties']).toEqual({ start: { ...point, description: 'Where to start' } });
  });

  it('reports a root # recursion as a SCHEMA_REF_CYCLE naming the ref path', () => {
    const error = thrownBy(() =>
      normalizeSchema({ type: 'object', properties: { child: { $ref: '#' } } }),
    );
    expect(error.code).toBe('SCHEMA_REF_CYCLE');
    expect(error.message).toContain('# -> #');
    expect(error.message).toContain('#/properties/child');
  });

  it('reports a cycle through several definitions with the whole ref chain', () => {
    const error = thrownBy(() =>
      normalizeSchema({
        type: 'object',
        properties: { start: { $ref: '#/definitions/a' } },
        definitions: {
          a: { type: 'object', properties: { next: { $ref: '#/definitions/b' } } },
          b: { type: 'array', items: { $ref: '#/definitions/a' } },
        },
      }),
    );
    expect(error.code).toBe('SCHEMA_REF_CYCLE');
    expect(error.message).toContain('#/definitions/a -> #/definitions/b -> #/definitions/a');
  });

  it('detects a cycle through a pointer ref to an ancestor spelled differently', () => {
    const error = thrownBy(() =>
      normalizeSchema({
        type: 'object',
        properties: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/properties/node' } } } } },
      }),
    );
    expect(error.code).toBe('SCHEMA_REF_CYCLE');
    expect(error.message).toContain('#/properties/node -> #/properties/node');
  });

  it('does not mistake a definition used twice for a cycle', () => {
    const result = normalizeSchema({
      type: 'object',
      properties: { from: { $ref: '#/definitions/point' }, to: { $ref: '#/definitions/point' } },
      definitions: { point },
    });
    const properties = result['properties'] as Record<string, unknown>;
    expect(properties['from']).toEqual(point);
    expect(properties['to']).toEqual(point);
    expect(properties['from']).not.toBe(properties['to']);
  });

  it.each([
    ['a missing definition', '#/definitions/missing'],
    ['a missing $defs entry', '#/$defs/missing'],
    ['a pointer past the end', '#/properties/a/items/7'],
    ['an external document', 'other.json#/definitions/point'],
    ['an anchor', '#point'],
  ])('reports %s as SCHEMA_UNRESOLVED_REF', (_label, ref) => {
    const error = thrownBy(() =>
      normalizeSchema({
        type: 'object',
        properties: { a: { type: 'array', items: [{ type: 'string' }] }, b: { $ref: ref } },
        definitions: { point },
      }),
    );
    expect(error.code).toBe('SCHEMA_UNRESOLVED_REF');
    expect(error.message).toContain(ref);
    expect(error.message).toContain('#/properties/b');
  });

  it('strips the title keyword but keeps a property named title', () => {
    const result = normalizeSchema({
      title: 'Input',
      type: 'object',
      properties: {
        title: { title: 'Title', type: 'string' },
        nested: { type: 'object', title: 'Nested', properties: { title: { type: 'integer' } } },
      },
      required: ['title'],
    });
    expect(result).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string' },
        nested: { type: 'object', properties: { title: { type: 'integer' } } },
      },
      required: ['title'],
    });
  });

  it('keeps data keywords as data: a default or enum value is never treated as a schema', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { meta: { type: 'object', properties: {}, additionalProperties: true, default: { title: 'x', $ref: '#/nowhere' } } },
    };
    const result = normalizeSchema(schema);
    expect(result['properties']).toEqual(schema['properties']);
  });

  it('gives every object schema properties, at any depth and in type lists', () => {
    const result = normalizeSchema({
      type: 'object',
      properties: {
        record: { type: 'object', additionalProperties: { type: 'string' } },
        list: { type: 'array', items: { type: 'object' } },
        maybe: { type: ['object', 'null'] },
        text: { type: 'string' },
      },
    });
    expect(result['properties']).toEqual({
      record: { type: 'object', additionalProperties: { type: 'string' }, properties: {} },
      list: { type: 'array', items: { type: 'object', properties: {} } },
      maybe: { type: ['object', 'null'], properties: {} },
      text: { type: 'string' },
    });
    expect(normalizeSchema({ type: 'object' })).toEqual({ type: 'object', properties: {} });
  });

  it('does not mutate its input and shares no objects with it', () => {
    const schema: JsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      title: 'Root',
      type: 'object',
      properties: { a: { $ref: '#/definitions/point' }, b: { type: 'object' }, list: { type: 'array', items: { type: 'string' } } },
      definitions: { point },
    };
    const snapshot = structuredClone(schema);
    const result = normalizeSchema(schema);
    expect(schema).toEqual(snapshot);
    const properties = result['properties'] as Record<string, Record<string, unknown>>;
    const inputDefinitions = schema['definitions'] as Record<string, unknown>;
    const inputProperties = schema['properties'] as Record<string, unknown>;
    expect(properties['a']).not.toBe(inputDefinitions['point']);
    expect(properties['list']).not.toBe(inputProperties['list']);
    properties['list']!['items'] = { type: 'number' };
    expect(schema).toEqual(snapshot);
  });

  it('is idempotent', () => {
    const once = normalizeSchema({
      title: 'x',
      type: 'object',
      properties: { a: { $ref: '#/definitions/point' }, b: { type: 'object' } },
      definitions: { point },
    });
    expect(normalizeSchema(once)).toEqual(once);
  });

  it('rejects a non-string $ref as SCHEMA_INVALID', () => {
    const error = thrownBy(() => normalizeSchema({ type: 'object', properties: { a: { $ref: 42 } } }));
    expect(error.code).toBe('SCHEMA_INVALID');
  });
});
