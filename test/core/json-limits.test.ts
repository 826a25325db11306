import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateArguments } from '../../src/bridge/call-tool.ts';
import { createHost } from '../../src/host.ts';
import { DEFAULT_ARGUMENT_LIMITS, findJsonShapeViolation } from '../../src/json-limits.ts';
import { textResult } from '../../src/result.ts';
import { defineTool } from '../../src/tool.ts';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

describe('findJsonShapeViolation', () => {
  it('accepts values at the limits and names the limit just past them', () => {
    expect(findJsonShapeViolation(nested(DEFAULT_ARGUMENT_LIMITS.maxDepth))).toBeUndefined();
    expect(findJsonShapeViolation(nested(DEFAULT_ARGUMENT_LIMITS.maxDepth + 1))).toMatchObject({ limit: 'maxDepth', value: 64 });
    expect(findJsonShapeViolation({ list: new Array(1000).fill(0) })).toBeUndefined();
    expect(findJsonShapeViolation({ list: new Array(DEFAULT_ARGUMENT_LIMITS.maxNodes).fill(0) })).toMatchObject({ limit: 'maxNodes' });
    expect(findJsonShapeViolation({ ['k'.repeat(1024)]: 1 })).toBeUndefined();
    expect(findJsonShapeViolation({ ['k'.repeat(1025)]: 1 })).toMatchObject({ limit: 'maxKeyLength' });
  });

  it('walks a million levels without a stack overflow', () => {
    expect(findJsonShapeViolation(nested(1_000_000))).toMatchObject({ limit: 'maxDepth' });
  });

  it('counts wide objects without materialising them twice', () => {
    const wide = Object.fromEntries(Array.from({ length: 150_000 }, (_, index) => [`k${index}`, index]));
    expect(findJsonShapeViolation(wide)).toMatchObject({ limit: 'maxNodes' });
  });
});

const anyTool = defineTool({
  name: 'anything',
  description: 'Takes any value.',
  permission: 'none',
  input: z.object({ value: z.unknown() }),
  secretParams: [],
  async execute() {
    return textResult('ok');
  },
});

describe('the bridge enforces shape limits before any recursive walk', () => {
  it('refuses 10,000 levels with an error naming the limit (the secrets walker used to overflow here)', () => {
    const outcome = validateArguments(anyTool, { value: nested(10_000) });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.result).toMatchObject({ is_error: true, metadata: { limit: 'maxDepth', limit_value: 64 } });
    expect(outcome.result.content).toContain('nested too deep (limit 64 levels');
  });

  it('refuses arguments given as a JSON string the same way', () => {
    const outcome = validateArguments(anyTool, `{"value":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(outcome.ok).toBe(false);
  });
});

describe('host.callTool never rejects', () => {
  it('turns a throw that escapes the bridge into an internal-error result', async () => {
    const throwing = defineTool({
      name: 'throws_in_validation',
      description: 'Its schema throws while parsing.',
      permission: 'none',
      input: z.object({ value: z.string() }).superRefine(() => {
        throw new Error('schema exploded');
      }) as unknown as z.ZodObject<{ value: z.ZodString }>,
      secretParams: [],
      async execute() {
        return textResult('unreachable');
      },
    });
    const host = await createHost({ workspaceRoot: process.cwd() }, { builtinTools: [throwing] });
    const result = await host.callTool('throws_in_validation', { value: 'x' });
    expect(result).toMatchObject({ is_error: true, metadata: { reason: 'internal_error' } });
    expect(host.inFlightCalls()).toBe(0);
    await host.close();
  });
});
