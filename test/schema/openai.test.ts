import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isOpenAIStrictCompatible, openAIStrictViolations } from '../../src/schema/openai-strict.ts';
import { toOpenAITool } from '../../src/schema/providers/openai.ts';
import { makeTool } from './tool-fixtures.ts';

describe('toOpenAITool', () => {
  it('sets strict: true when every field is required and objects are closed', () => {
    const tool = makeTool(
      'move_point',
      z.object({
        to: z.object({ x: z.number(), y: z.number() }),
        mode: z.enum(['fast', 'slow']),
        note: z.string().nullable(),
        waypoints: z.array(z.object({ x: z.number().int().min(0) })).max(10),
      }),
    );
    const formatted = toOpenAITool(tool);
    expect(formatted).toEqual({
      type: 'function',
      function: { name: 'move_point', description: 'The move_point tool', parameters: tool.inputSchema, strict: true },
    });
  });

  it('omits strict and leaves the schema unchanged when a field is optional', () => {
    const tool = makeTool('read_file', z.object({ path: z.string(), offset: z.number().optional() }));
    const formatted = toOpenAITool(tool);
    expect('strict' in formatted.function).toBe(false);
    expect(formatted.function.parameters).toEqual(tool.inputSchema);
    expect(formatted.function.parameters).not.toBe(tool.inputSchema);
  });

  it.each([
    ['a default value', z.object({ count: z.number().default(3) })],
    ['a nested optional field', z.object({ options: z.object({ verbose: z.boolean().optional() }) })],
    ['a record (open object)', z.object({ env: z.record(z.string()) })],
    ['a string length bound', z.object({ name: z.string().min(1) })],
    ['an unsupported string format', z.object({ site: z.string().url() })],
    ['an untyped value', z.object({ anything: z.unknown() })],
    ['an intersection (allOf)', z.object({ both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })) })],
  ])('is not strict with %s', (_label, input) => {
    const formatted = toOpenAITool(makeTool('sample', input));
    expect(formatted.function.strict).toBeUndefined();
  });
});

describe('openAIStrictViolations', () => {
  const closed = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };

  it('accepts a closed object with everything required', () => {
    expect(openAIStrictViolations(closed)).toEqual([]);
    expect(isOpenAIStrictCompatible(closed)).toBe(true);
  });

  it('names the location and reason of each violation', () => {
    const violations = openAIStrictViolations({
      type: 'object',
      properties: { a: { type: 'string', default: 'x' }, b: { type: 'object', properties: {} } },
      required: ['a'],
      additionalProperties: false,
    });
    expect(violations).toEqual([
      '#/properties/a: keyword "default" is not supported',
      '#: property "b" must be listed in required',
      '#/properties/b: objects must set additionalProperties: false',
    ]);
  });

  it('rejects a root that is not an object, or is anyOf', () => {
    expect(isOpenAIStrictCompatible({ type: 'string' })).toBe(false);
    expect(isOpenAIStrictCompatible({ anyOf: [closed, closed] })).toBe(false);
  });

  it('accepts anyOf below the root and checks its branches', () => {
    const withUnion = (branch: unknown) => ({ ...closed, properties: { a: { anyOf: [{ type: 'string' }, branch] } } });
    expect(isOpenAIStrictCompatible(withUnion({ type: 'null' }))).toBe(true);
    expect(isOpenAIStrictCompatible(withUnion({ type: 'object', properties: {} }))).toBe(false);
  });

  it('rejects required names that are not properties, and tuple items', () => {
    expect(isOpenAIStrictCompatible({ ...closed, required: ['a', 'ghost'] })).toBe(false);
    expect(isOpenAIStrictCompatible({ ...closed, properties: { a: { type: 'array', items: [{ type: 'string' }] } } })).toBe(false);
  });

  it('enforces the nesting limit of 10 object levels', () => {
    const nest = (levels: number): Record<string, unknown> =>
      levels === 1 ? closed : { type: 'object', properties: { inner: nest(levels - 1) }, required: ['inner'], additionalProperties: false };
    expect(isOpenAIStrictCompatible(nest(10))).toBe(true);
    expect(isOpenAIStrictCompatible(nest(11))).toBe(false);
  });

  it('enforces the enum value limit', () => {
    const values = (count: number) => Array.from({ length: count }, (_unused, index) => `v${index}`);
    const withEnum = (count: number) => ({ ...closed, properties: { a: { type: 'string', enum: values(count) } } });
    expect(isOpenAIStrictCompatible(withEnum(1000))).toBe(true);
    expect(isOpenAIStrictCompatible(withEnum(1001))).toBe(false);
  });
});
