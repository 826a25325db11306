/**
 * `POST /v1/dispatch?provider=text` on a real loopback server: Hermes/Qwen `<tool_call>` blocks and
 * fenced JSON calls inside prose, run concurrently, answered as `<tool_response>` blocks; malformed
 * blocks become is_error results that say what to fix. Plus the scanner on its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTextToolCalls } from '../../src/server/dispatch/text-protocol.ts';
import { postJson, readJson, slowCompletions, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

async function dispatchText(text: unknown): Promise<{ status: number; body: any }> {
  const response = await postJson(`${t.url}/v1/dispatch?provider=text`, typeof text === 'string' ? { text } : text);
  return { status: response.status, body: await readJson(response) };
}

/** The JSON bodies of the `<tool_response>` blocks of an answer, in order. */
function responses(text: string): any[] {
  return [...text.matchAll(/<tool_response>\n(.*)\n<\/tool_response>/g)].map((match) => JSON.parse(match[1] ?? 'null'));
}

describe('parseTextToolCalls', () => {
  it('reads tag blocks and call fences in order, skipping prose and code fences', () => {
    const text = [
      'I will call two tools.',
      '<tool_call>\n{"name": "echo", "arguments": {"text": "a"}}\n</tool_call>',
      'Here is some code, not a call:',
      '```python\nprint("<tool_call>{\\"name\\": \\"echo\\"}</tool_call>")\n```',
      '```json\n{"config": true}\n```',
      '```json\n{"name": "echo", "arguments": {"text": "b"}}\n```',
      '```tool_call\n[{"name": "echo", "parameters": {"text": "c"}}, {"name": "fail", "arguments": "{}"}]\n```',
      'Done.',
    ].join('\n');
    expect(parseTextToolCalls(text)).toEqual([
      { kind: 'call', name: 'echo', arguments: { text: 'a' } },
      { kind: 'call', name: 'echo', arguments: { text: 'b' } },
      { kind: 'call', name: 'echo', arguments: { text: 'c' } },
      { kind: 'call', name: 'fail', arguments: {} },
    ]);
  });

  it('does not end a block at a closing tag or fence inside a JSON string', () => {
    const args = { text: 'a </tool_call> b ``` c' };
    const tagged = `<tool_call>${JSON.stringify({ name: 'echo', arguments: args })}</tool_call>`;
    const fenced = `\`\`\`json\n${JSON.stringify({ name: 'echo', arguments: args })}\n\`\`\``;
    expect(parseTextToolCalls(`${tagged}\n${fenced}`)).toEqual([
      { kind: 'call', name: 'echo', arguments: args },
      { kind: 'call', name: 'echo', arguments: args },
    ]);
  });

  it('reads a last block whose closing tag is missing, and reports one that cannot be read', () => {
    expect(parseTextToolCalls('<tool_call>{"name": "echo", "arguments": {"text": "x"}}')).toEqual([{ kind: 'call', name: 'echo', arguments: { text: 'x' } }]);
    const [broken] = parseTextToolCalls('<tool_call>{"name": "echo", "arguments": {"text": ');
    expect(broken).toMatchObject({ kind: 'malformed', reason: expect.stringContaining('not closed') });
  });

  it('reports bad JSON, a missing name and non-object arguments', () => {
    const calls = parseTextToolCalls(
      [
        '<tool_call>{"name": "echo", "arguments": {text: "unquoted"}}</tool_call>',
        '<tool_call>{"arguments": {}}</tool_call>',
        '<tool_call>{"name": "echo", "arguments": [1]}</tool_call>',
        '```json\n{"name": "echo", "arguments": {"text": "x",}}\n```',
      ].join('\n'),
    );
    expect(calls.map((call) => call.kind)).toEqual(['malformed', 'malformed', 'malformed', 'malformed']);
    expect(calls[0]).toMatchObject({ reason: expect.stringMatching(/<tool_call> block 1 is not valid JSON .*unquoted/) });
    expect(calls[1]).toMatchObject({ reason: expect.stringContaining('has no "name" string') });
    expect(calls[2]).toMatchObject({ name: 'echo', reason: expect.stringContaining('"arguments" of echo must be a JSON object') });
    expect(calls[3]).toMatchObject({ reason: expect.stringContaining('```json block 4 is not valid JSON') });
  });

  it('finds nothing in plain prose', () => {
    expect(parseTextToolCalls('The answer is 42. No tools needed.')).toEqual([]);
  });
});

describe('POST /v1/dispatch?provider=text', () => {
  it('runs every call in the text and answers in <tool_response> blocks, in call order', async () => {
    const { status, body } = await dispatchText(
      'Let me echo twice.\n<tool_call>\n{"name": "echo", "arguments": {"text": "one"}}\n</tool_call>\nand\n<tool_call>{"name": "fail", "arguments": {}}</tool_call>\nThanks.',
    );
    expect(status).toBe(200);
    expect(body.provider).toBe('text');
    expect(body.results.map((entry: any) => [entry.name, entry.result.content, entry.result.is_error])).toEqual([
      ['echo', 'one', false],
      ['fail', 'it failed on purpose', true],
    ]);
    expect(responses(body.text)).toEqual([
      { name: 'echo', content: 'one', is_error: false },
      { name: 'fail', content: 'it failed on purpose', is_error: true },
    ]);
    expect(body.messages).toEqual([
      { role: 'tool', name: 'echo', content: 'one' },
      { role: 'tool', name: 'fail', content: 'Error: it failed on purpose' },
    ]);
  });

  it('runs the calls concurrently', async () => {
    slowCompletions.length = 0;
    const call = (label: string, ms: number) => `<tool_call>${JSON.stringify({ name: 'slow', arguments: { ms, label } })}</tool_call>`;
    const { body } = await dispatchText(`${call('first', 600)}\n${call('second', 50)}`);
    expect(body.results.map((entry: any) => entry.result.content)).toEqual(['done first', 'done second']);
    // Sequential execution would finish "first" before "second" started.
    expect(slowCompletions).toEqual(['second', 'first']);
  });

  it('answers a malformed block with an error result for the model and still runs the others', async () => {
    const { status, body } = await dispatchText('<tool_call>{"name": "echo", "arguments": {"text": "ok"}}</tool_call>\n<tool_call>{"name": "echo", "arguments": {"text": }}</tool_call>');
    expect(status).toBe(200);
    expect(body.results[0].result).toMatchObject({ content: 'ok', is_error: false });
    expect(body.results[1].result).toMatchObject({ is_error: true, metadata: { reason: 'malformed_tool_call' }, content: expect.stringContaining('<tool_call> block 2 is not valid JSON') });
    const [, second] = responses(body.text);
    expect(second).toMatchObject({ name: null, is_error: true, content: expect.stringContaining('Write {"name": "<tool>", "arguments": {...}} as strict JSON') });
  });

  it('reports unknown tools and bad arguments through the usual call path', async () => {
    const { body } = await dispatchText('```json\n{"name": "nope", "arguments": {}}\n```\n```json\n{"name": "echo", "arguments": {"text": {"nested": true}}}\n```');
    expect(body.results[0].result).toMatchObject({ is_error: true, content: expect.stringContaining('Unknown tool "nope"') });
    expect(body.results[1].result).toMatchObject({ is_error: true, content: expect.stringContaining('Invalid arguments for tool "echo"') });
  });

  it('answers text without calls with no results', async () => {
    const { status, body } = await dispatchText('Just prose.');
    expect(status).toBe(200);
    expect(body).toMatchObject({ provider: 'text', results: [], messages: [], text: '' });
  });

  it('refuses a body without "text", or with other fields', async () => {
    for (const bad of [{ content: 'x' }, { text: 5 }, { text: 'x', extra: 1 }]) {
      const { status, body } = await dispatchText(bad);
      expect(status).toBe(400);
      expect(body.error.code).toBe('unrecognized_message');
    }
  });

  it('is never guessed from the shape: a {"text"} body without ?provider= is refused', async () => {
    const response = await postJson(`${t.url}/v1/dispatch`, { text: '<tool_call>{"name": "echo", "arguments": {"text": "x"}}</tool_call>' });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain('union|text');
  });
});
