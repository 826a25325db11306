/** Normalization of real zod-to-json-schema output, through the same path `defineTool` uses. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { ToolHostError } from '../../src/errors.ts';
import { normalizeSchema } from '../../src/schema/normalize.ts';
import { jsonSchemaOf } from '../../src/tool.ts';
import { collectAllKeys } from './schema-walk.ts';

const point = z.object({ x: z.number(), y: z.number() });
const expandedPoint = {
  type: 'object',
  properties: { x: { type: 'number' }, y: { type: 'number' } },
  required: ['x', 'y'],
  additionalProperties: false,
};

describe('normalization of zod-to-json-schema output', () => {
  const shape = z.object({
    origin: point,
    path: z.array(point),
    rows: z.array(z.array(z.object({ title: z.string(), at: point }))),
    target: point.optional().describe('Where to go'),
  });

  it('the raw output really uses pointer refs for the reused sub-schema', () => {
    const raw = zodToJsonSchema(shape, { target: 'jsonSchema7', $refStrategy: 'root' });
    expect(JSON.stringify(raw)).toContain('"$ref":"#/properties/origin"');
    expect(collectAllKeys(raw).has('$schema')).toBe(true);
  });

  it('inlines every reused sub-schema, including inside nested arrays of objects', () => {
    const schema = jsonSchemaOf(shape);
    expect(collectAllKeys(schema).has('$ref')).toBe(false);
    expect(collectAllKeys(schema).has('$schema')).toBe(false);
    const properties = schema['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['origin']).toEqual(expandedPoint);
    expect(properties['path']).toEqual({ type: 'array', items: expandedPoint });
    expect(properties['rows']).toEqual({
      type: 'array',
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: { title: { type: 'string' }, at: expandedPoint },
          required: ['title', 'at'],
          additionalProperties: false,
        },
      },
    });
    expect(properties['target']).toEqual({ ...expandedPoint, description: 'Where to go' });
    expect(schema['required']).toEqual(['origin', 'path', 'rows']);
  });

  it('named definitions under $defs are inlined and removed', () => {
    const raw = zodToJsonSchema(shape, { target: 'jsonSchema7', $refStrategy: 'root', definitions: { point }, definitionPath: '$defs' });
    expect(JSON.stringify(raw)).toContain('#/$defs/point');
    const schema = normalizeSchema(raw as Record<string, unknown>);
    expect(collectAllKeys(schema).has('$defs')).toBe(false);
    expect((schema['properties'] as Record<string, unknown>)['origin']).toEqual(expandedPoint);
  });

  it('a z.lazy recursive schema is reported as SCHEMA_REF_CYCLE, not expanded forever', () => {
    type TreeNode = { name: string; children: TreeNode[] };
    const treeNode: z.ZodType<TreeNode> = z.lazy(() => z.object({ name: z.string(), children: z.array(treeNode) }));
    const input = z.object({ root: treeNode });
    let caught: unknown;
    try {
      jsonSchemaOf(input);
    } catch (error) {
      caught = error;
    }
    expect(ToolHostError.is(caught, 'SCHEMA_REF_CYCLE')).toBe(true);
    expect((caught as Error).message).toContain('#/properties/root -> #/properties/root');
  });
});
