/**
 * `limits.max_dispatch_calls` on a real loopback daemon: one dispatch carrying more tool calls than
 * the cap is refused whole (400 too_many_calls, naming the count, the cap and how to raise it)
 * before any call runs, for every provider; a dispatch at the cap runs every call. An attacker's
 * 10,000-call message is refused the same way instead of freezing the daemon.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { textResult } from '../../src/result.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { defineTool } from '../../src/tool.ts';
import { createTestHost, postJson, readJson, TEST_TOOLS } from './helpers.ts';

/** Every call that ran, by label. */
const ran: string[] = [];

const countTool = defineTool({
  name: 'count',
  description: 'Records that it ran.',
  permission: 'read_only',
  input: z.object({ label: z.string() }),
  secretParams: [],
  async execute(input) {
    ran.push(input.label);
    return textResult(`counted ${input.label}`);
  },
});

/** An assistant message of `n` calls of `count` in each provider's shape. */
const MESSAGES: Record<string, (n: number) => unknown> = {
  anthropic: (n) => ({ role: 'assistant', content: Array.from({ length: n }, (_, i) => ({ type: 'tool_use', id: `toolu_${i}`, name: 'count', input: { label: `a${i}` } })) }),
  openai: (n) => ({ role: 'assistant', tool_calls: Array.from({ length: n }, (_, i) => ({ id: `call_${i}`, type: 'function', function: { name: 'count', arguments: JSON.stringify({ label: `o${i}` }) } })) }),
  'openai-responses': (n) => ({ output: Array.from({ length: n }, (_, i) => ({ type: 'function_call', call_id: `fc_${i}`, name: 'count', arguments: JSON.stringify({ label: `r${i}` }) })) }),
  gemini: (n) => ({ role: 'model', parts: Array.from({ length: n }, (_, i) => ({ functionCall: { name: 'count', args: { label: `g${i}` } } })) }),
  union: (n) => ({ content: '', tool_calls: Array.from({ length: n }, (_, i) => ({ name: 'count', arguments: { label: `u${i}` } })) }),
  text: (n) => ({ text: Array.from({ length: n }, (_, i) => `<tool_call>{"name": "count", "arguments": {"label": "t${i}"}}</tool_call>`).join('\n') }),
};

let server: RunningServer;
let small: RunningServer;

beforeAll(async () => {
  server = await startServer(await createTestHost({}, [...TEST_TOOLS, countTool]), { port: 0, keepAliveMs: 0 });
  small = await startServer(await createTestHost({}, [...TEST_TOOLS, countTool]), { port: 0, keepAliveMs: 0, maxDispatchCalls: 3 });
});
afterAll(async () => {
  await server?.close(2_000);
  await small?.close(2_000);
});

async function dispatch(base: string, provider: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await postJson(`${base}/v1/dispatch?provider=${provider}`, body);
  return { status: response.status, body: await readJson(response) };
}

describe('POST /v1/dispatch: at most limits.max_dispatch_calls calls (default 64)', () => {
  for (const provider of Object.keys(MESSAGES)) {
    it(`${provider}: 65 calls are refused whole before any runs; 64 all run`, async () => {
      ran.length = 0;
      const refused = await dispatch(server.url, provider, MESSAGES[provider]!(65));
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'too_many_calls', details: { calls: 65, max_calls: 64 } });
      expect(refused.body.error.message).toContain('65 tool calls');
      expect(refused.body.error.message).toContain('at most 64');
      expect(refused.body.error.message).toContain('limits.max_dispatch_calls');
      expect(refused.body.error.message).toContain('--max-dispatch-calls');
      expect(ran).toEqual([]);

      const accepted = await dispatch(server.url, provider, MESSAGES[provider]!(64));
      expect(accepted.status).toBe(200);
      expect(accepted.body.results).toHaveLength(64);
      expect(accepted.body.results.every((entry: any) => entry.result.is_error === false)).toBe(true);
      expect(ran).toHaveLength(64);
    }, 30_000);
  }

  it('counts malformed text blocks too: each would get a result', async () => {
    ran.length = 0;
    const text = `${'<tool_call>{"name": </tool_call>\n'.repeat(64)}<tool_call>{"name": "count", "arguments": {"label": "x"}}</tool_call>`;
    const refused = await dispatch(server.url, 'text', { text });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'too_many_calls', details: { calls: 65, max_calls: 64 } });
    expect(ran).toEqual([]);
  });

  it('refuses an attacker\'s 10,000 calls at once, nothing run', async () => {
    ran.length = 0;
    for (const provider of ['anthropic', 'text']) {
      const refused = await dispatch(server.url, provider, MESSAGES[provider]!(10_000));
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual({ calls: 10_000, max_calls: 64 });
    }
    expect(ran).toEqual([]);
  }, 30_000);

  it('follows a configured cap (maxDispatchCalls 3 from limits.max_dispatch_calls)', async () => {
    ran.length = 0;
    const refused = await dispatch(small.url, 'openai', MESSAGES['openai']!(4));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'too_many_calls', details: { calls: 4, max_calls: 3 } });
    expect(ran).toEqual([]);
    const accepted = await dispatch(small.url, 'gemini', MESSAGES['gemini']!(3));
    expect(accepted.status).toBe(200);
    expect(ran).toEqual(['g0', 'g1', 'g2']);
  });
});
