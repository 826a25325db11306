import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callTool, validateArguments } from '../../src/bridge/call-tool.ts';
import { emptyStringIsAValue } from '../../src/bridge/coerce.ts';
import { textResult } from '../../src/result.ts';
import { createSecretsResolver } from '../../src/secrets.ts';
import { defineTool } from '../../src/tool.ts';
import { testContext } from '../helpers/context.ts';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its input as JSON.',
  permission: 'none',
  input: z.object({
    text: z.string().describe('Text to echo'),
    note: z.string().optional(),
    count: z.number().int().optional(),
    ratio: z.number().optional(),
    loud: z.boolean().optional(),
    mode: z.enum(['a', 'b']).optional(),
    tags: z.array(z.number().int()).optional(),
    nested: z.object({ depth: z.number().int(), label: z.string().optional() }).optional(),
  }),
  secretParams: [],
  async execute(input) {
    return textResult(JSON.stringify(input));
  },
});

async function run(raw: unknown) {
  const result = await callTool(echo, raw, testContext());
  return { result, value: result.is_error ? undefined : JSON.parse(result.content) };
}

describe('bridge: parsing raw arguments', () => {
  it('accepts an object and a JSON string of one', async () => {
    expect((await run({ text: 'hi' })).value).toEqual({ text: 'hi' });
    expect((await run('{"text":"hi"}')).value).toEqual({ text: 'hi' });
  });

  it('rejects malformed JSON and non-objects with a clear message', async () => {
    const malformed = await run('{"text":');
    expect(malformed.result.is_error).toBe(true);
    expect(malformed.result.content).toMatch(/not valid JSON/);
    const array = await run([1, 2]);
    expect(array.result.content).toMatch(/expected a JSON object.*received an array/);
    const number = await run(42);
    expect(number.result.content).toMatch(/received a number/);
  });

  it('lists every bad field with what was expected', async () => {
    const { result } = await run({ count: 'many', mode: 'c', loud: 'yes' });
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('text: required string is missing');
    expect(result.content).toContain('count: expected integer, received string');
    expect(result.content).toContain('mode: expected one of "a", "b", received "c"');
    expect(result.content).toContain('loud: expected boolean, received string');
  });

  it('names an integer field as integer, also inside arrays and nested objects, and a number field as number', async () => {
    const { result } = await run({ text: 'x', ratio: 'half', tags: ['one'], nested: { depth: 'deep' } });
    expect(result.content).toContain('ratio: expected number, received string');
    expect(result.content).toContain('tags.0: expected integer, received string');
    expect(result.content).toContain('nested.depth: expected integer, received string');
    expect((await run({ text: 'x', nested: {} })).result.content).toContain('nested.depth: required integer is missing');
  });

  it('reports unknown parameters instead of silently dropping them', async () => {
    const { result } = await run({ text: 'x', colour: 'red' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/colour: unknown parameter \(known parameters: text, note/);
  });

  it('reports an unknown parameter once, also for a strict schema (as wasm tools have)', async () => {
    const strict = defineTool({
      name: 'strict',
      description: 'A strict object schema.',
      permission: 'none',
      input: z.object({ text: z.string() }).strict(),
      secretParams: [],
      async execute() {
        return textResult('ok');
      },
    });
    const result = await callTool(strict, { text: 'x', bogus: 1 }, testContext());
    expect(result.content).toBe('Invalid arguments for tool "strict":\n- bogus: unknown parameter (known parameters: text)');
  });
});

describe('bridge: empty optional asymmetry', () => {
  it('drops "" from optional fields', async () => {
    expect((await run({ text: 'x', note: '', count: '' })).value).toEqual({ text: 'x' });
  });

  it('keeps "" on required fields', async () => {
    expect((await run({ text: '' })).value).toEqual({ text: '' });
  });

  it('drops null on optional fields that do not accept null', async () => {
    expect((await run({ text: 'x', count: null })).value).toEqual({ text: 'x' });
  });

  it('keeps "" on an optional field marked emptyStringIsAValue (a CLI positional), and still drops its null', () => {
    const input = z.object({ pattern: emptyStringIsAValue(z.string().optional()), other: z.string().optional() });
    const tool = defineTool({ name: 'marked', description: 'Marked field.', permission: 'none', input, secretParams: [], execute: async () => textResult('') });
    expect(validateArguments(tool, { pattern: '', other: '' })).toEqual({ ok: true, value: { pattern: '' } });
    expect(validateArguments(tool, { pattern: null })).toEqual({ ok: true, value: {} });
  });
});

describe('bridge: lossless coercion', () => {
  it('coerces numeric strings, boolean strings and numbers for strings', async () => {
    expect((await run({ text: 5, count: '7', ratio: ' 2.5 ', loud: 'TRUE' })).value).toEqual({ text: '5', count: 7, ratio: 2.5, loud: true });
    expect((await run({ text: true, loud: 'false' })).value).toEqual({ text: 'true', loud: false });
  });

  it('coerces inside arrays and nested objects', async () => {
    expect((await run({ text: 'x', tags: ['1', 2], nested: { depth: '3', label: '' } })).value).toEqual({ text: 'x', tags: [1, 2], nested: { depth: 3 } });
  });

  it('does not coerce lossy values', async () => {
    expect((await run({ text: 'x', count: '2.5' })).result.content).toMatch(/count: expected integer/);
    expect((await run({ text: 'x', count: '0x10' })).result.is_error).toBe(true);
    expect((await run({ text: 'x', loud: 'yes' })).result.is_error).toBe(true);
    expect((await run({ text: { a: 1 } })).result.is_error).toBe(true);
  });
});

describe('bridge: precheck and failures', () => {
  it('lets precheck veto before execute', async () => {
    let executed = false;
    const guarded = defineTool({
      name: 'guarded',
      description: 'd',
      permission: 'none',
      input: z.object({ path: z.string() }),
      secretParams: [],
      precheck: (input) => (input.path.startsWith('/') ? 'Use a relative path.' : undefined),
      async execute() {
        executed = true;
        return textResult('ran');
      },
    });
    const vetoed = await callTool(guarded, { path: '/etc' }, testContext());
    expect(vetoed).toEqual({ content: 'Use a relative path.', is_error: true });
    expect(executed).toBe(false);
    expect((await callTool(guarded, { path: 'a' }, testContext())).content).toBe('ran');
  });

  it('turns an exception inside a tool into an is_error result', async () => {
    const thrower = defineTool({
      name: 'thrower',
      description: 'd',
      permission: 'none',
      input: z.object({}),
      secretParams: [],
      async execute() {
        throw new Error('disk on fire');
      },
    });
    expect(await callTool(thrower, {}, testContext())).toEqual({ content: 'Tool "thrower" failed: disk on fire', is_error: true });
  });

  it('exposes the parsed input type for validateArguments', () => {
    const outcome = validateArguments(echo, { text: 'a', count: '1' });
    expect(outcome).toEqual({ ok: true, value: { text: 'a', count: 1 } });
  });
});

describe('bridge: secrets', () => {
  const fetcher = defineTool({
    name: 'fetcher',
    description: 'd',
    permission: 'read_only',
    network: true,
    input: z.object({ url: z.string(), token: z.string() }),
    secretParams: ['token'],
    async execute(input) {
      return textResult(`called ${input.url} with ${input.token}`, { echoed: { deep: [input.token] } });
    },
  });
  const secrets = createSecretsResolver({ env: { TOOLHOST_SECRET_API_KEY: 's3cr3t-value' } });

  it('substitutes a declared secret parameter and redacts the echo', async () => {
    const result = await callTool(fetcher, { url: 'u', token: 'Bearer <secret_ref:API_KEY>' }, testContext({ secrets }));
    expect(result.is_error).toBe(false);
    expect(result.content).toBe('called u with Bearer [REDACTED:API_KEY]');
    expect(JSON.stringify(result)).not.toContain('s3cr3t-value');
    expect(result.metadata).toEqual({ echoed: { deep: ['Bearer [REDACTED:API_KEY]'] } });
  });

  it('refuses a placeholder in a parameter not declared secret', async () => {
    const result = await callTool(fetcher, { url: '<secret_ref:API_KEY>', token: 't' }, testContext({ secrets }));
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/not allowed in parameter\(s\) "url"/);
  });

  it('reports unknown secrets without running the tool', async () => {
    const result = await callTool(fetcher, { url: 'u', token: '<secret_ref:NOPE>' }, testContext({ secrets }));
    expect(result).toEqual({ content: expect.stringMatching(/Unknown secret\(s\) "NOPE"/), is_error: true });
  });

  it('redacts secrets from thrown errors', async () => {
    const leaky = defineTool({
      name: 'leaky',
      description: 'd',
      permission: 'none',
      input: z.object({ key: z.string() }),
      secretParams: ['key'],
      async execute(input) {
        throw new Error(`bad key ${input.key}`);
      },
    });
    const result = await callTool(leaky, { key: '<secret_ref:API_KEY>' }, testContext({ secrets }));
    expect(result.content).toBe('Tool "leaky" failed: bad key [REDACTED:API_KEY]');
  });

  it('rejects a secret parameter that is not in the schema at definition time', () => {
    expect(() =>
      defineTool({
        name: 'bad',
        description: 'd',
        permission: 'none',
        input: z.object({ a: z.string() }),
        secretParams: ['b' as 'a'],
        execute: async () => textResult(''),
      }),
    ).toThrow(/secret parameter "b"/);
  });
});
