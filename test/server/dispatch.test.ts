import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectProvider } from '../../src/server/dispatch/dispatch.ts';
import { postJson, readJson, slowCompletions, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

async function dispatch(body: unknown, provider?: string): Promise<{ status: number; body: any }> {
  const response = await postJson(`${t.url}/v1/dispatch${provider ? `?provider=${provider}` : ''}`, body);
  return { status: response.status, body: await readJson(response) };
}

const slowArgs = (label: string, ms = 300) => ({ ms, label });

describe('POST /v1/dispatch: Anthropic', () => {
  it('answers an assistant message with one user message of tool_result blocks, in call order', async () => {
    const { status, body } = await dispatch({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { text: 'one' } },
        { type: 'tool_use', id: 'toolu_2', name: 'fail', input: {} },
      ],
    });
    expect(status).toBe(200);
    expect(body.provider).toBe('anthropic');
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'one', is_error: false },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'it failed on purpose', is_error: true },
        ],
      },
    ]);
    expect(body.results[0]).toEqual({ id: 'toolu_1', name: 'echo', result: { content: 'one', is_error: false, metadata: { length: 3 } } });
  });

  it('accepts a whole Messages API response', async () => {
    const { body } = await dispatch({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: 'toolu_9', name: 'echo', input: { text: 'r' } }],
    });
    expect(body.provider).toBe('anthropic');
    expect(body.messages[0].content[0]).toMatchObject({ tool_use_id: 'toolu_9', content: 'r' });
  });

  it('reports an unknown tool as an is_error result the model can read', async () => {
    const { status, body } = await dispatch({ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'nope', input: {} }] });
    expect(status).toBe(200);
    expect(body.messages[0].content[0]).toMatchObject({ is_error: true, content: expect.stringContaining('Unknown tool "nope"') });
  });

  it('returns no messages when there are no tool calls', async () => {
    const { status, body } = await dispatch({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
    expect(status).toBe(200);
    expect(body).toEqual({ provider: 'anthropic', messages: [], results: [] });
  });

  it('runs independent calls concurrently and keeps their order and ids', async () => {
    slowCompletions.length = 0;
    const { body } = await dispatch({
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'first', name: 'slow', input: slowArgs('a', 400) },
        { type: 'tool_use', id: 'second', name: 'slow', input: slowArgs('b', 20) },
      ],
    });
    expect(body.messages[0].content.map((block: { tool_use_id: string; content: string }) => [block.tool_use_id, block.content])).toEqual([
      ['first', 'done a'],
      ['second', 'done b'],
    ]);
    // Run one after the other, "a" would finish first; run together, the short call finishes first.
    expect(slowCompletions).toEqual(['b', 'a']);
  });
});

describe('POST /v1/dispatch: OpenAI', () => {
  it('answers an assistant message with one tool message per call', async () => {
    const { status, body } = await dispatch({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'echo', arguments: '{"text":"hi"}' } },
        { id: 'call_2', type: 'function', function: { name: 'fail', arguments: '{}' } },
      ],
    });
    expect(status).toBe(200);
    expect(body.provider).toBe('openai');
    expect(body.messages).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'hi' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: it failed on purpose' },
    ]);
  });

  it('accepts a chat completion and uses the first choice', async () => {
    const { body } = await dispatch({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'echo', arguments: '{"text":"x"}' } }] } }],
    });
    expect(body.messages).toEqual([{ role: 'tool', tool_call_id: 'c', content: 'x' }]);
  });

  it('reports arguments that are not valid JSON as an error result', async () => {
    const { body } = await dispatch({ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'echo', arguments: '{"text":' } }] });
    expect(body.results[0].result.is_error).toBe(true);
    expect(body.messages[0].content).toMatch(/^Error: .*not valid JSON/);
  });

  it('runs calls concurrently, answers in call order', async () => {
    slowCompletions.length = 0;
    const { body } = await dispatch({
      role: 'assistant',
      tool_calls: [
        { id: 'slow_a', type: 'function', function: { name: 'slow', arguments: JSON.stringify(slowArgs('a', 200)) } },
        { id: 'slow_b', type: 'function', function: { name: 'slow', arguments: JSON.stringify(slowArgs('b', 10)) } },
      ],
    });
    expect(body.messages.map((message: { tool_call_id: string }) => message.tool_call_id)).toEqual(['slow_a', 'slow_b']);
    expect(body.messages[1].content).toBe('done b');
    expect(slowCompletions).toEqual(['b', 'a']);
  });
});

describe('POST /v1/dispatch: OpenAI Responses', () => {
  it('answers function_call items with function_call_output items', async () => {
    const { status, body } = await dispatch({
      id: 'resp_1',
      object: 'response',
      output: [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_a', name: 'echo', arguments: '{"text":"r"}' },
      ],
    });
    expect(status).toBe(200);
    expect(body.provider).toBe('openai-responses');
    expect(body.messages).toEqual([{ type: 'function_call_output', call_id: 'call_a', output: 'r' }]);
  });

  it('accepts an array of output items and ?provider=openai', async () => {
    const { body } = await dispatch([{ type: 'function_call', call_id: 'call_b', name: 'echo', arguments: '{"text":"s"}' }], 'openai');
    expect(body.provider).toBe('openai-responses');
    expect(body.messages).toEqual([{ type: 'function_call_output', call_id: 'call_b', output: 's' }]);
  });
});

describe('POST /v1/dispatch: Gemini', () => {
  it('answers a model content with one user content of functionResponse parts', async () => {
    const { status, body } = await dispatch({
      role: 'model',
      parts: [{ functionCall: { name: 'echo', args: { text: 'g' } } }, { functionCall: { id: 'fc-2', name: 'fail', args: {} } }],
    });
    expect(status).toBe(200);
    expect(body.provider).toBe('gemini');
    expect(body.messages).toEqual([
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'echo', response: { output: 'g' } } },
          { functionResponse: { id: 'fc-2', name: 'fail', response: { error: 'it failed on purpose' } } },
        ],
      },
    ]);
  });

  it('accepts a GenerateContentResponse and uses the first candidate', async () => {
    const { body } = await dispatch({
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'slow', args: slowArgs('g', 5) } }] }, finishReason: 'STOP' }],
    });
    expect(body.messages[0].parts[0].functionResponse).toEqual({ name: 'slow', response: { output: 'done g' } });
  });
});

describe('POST /v1/dispatch: errors and detection', () => {
  it('rejects an unknown provider naming the allowed values', async () => {
    const { status, body } = await dispatch({}, 'cohere');
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_query');
    expect(body.error.message).toContain('anthropic, openai, openai-responses, gemini');
  });

  it('rejects an unrecognized shape', async () => {
    const { status, body } = await dispatch({ hello: 'world' });
    expect(status).toBe(400);
    expect(body.error.code).toBe('unrecognized_message');
    expect(body.error.message).toContain('?provider=');
  });

  it('rejects a shape that does not match the given provider, naming the field', async () => {
    const { status, body } = await dispatch({ role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'echo' } }] }, 'openai');
    expect(status).toBe(400);
    expect(body.error.message).toContain('tool_calls[0].id');
  });

  it('rejects malformed JSON', async () => {
    const response = await postJson(`${t.url}/v1/dispatch`, '{"role":');
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.code).toBe('invalid_json');
  });

  it('detects each provider from its shape', () => {
    expect(detectProvider({ role: 'assistant', content: [] })).toBe('anthropic');
    expect(detectProvider({ role: 'assistant', content: [{ type: 'text', text: 'x' }], tool_calls: [] })).toBe('openai');
    expect(detectProvider({ choices: [] })).toBe('openai');
    expect(detectProvider({ object: 'response', output: [] })).toBe('openai-responses');
    expect(detectProvider({ role: 'model', parts: [] })).toBe('gemini');
    expect(detectProvider({ content: { role: 'model', parts: [] } })).toBe('gemini');
    expect(detectProvider({ candidates: [] })).toBe('gemini');
    expect(detectProvider('text')).toBeUndefined();
  });
});
