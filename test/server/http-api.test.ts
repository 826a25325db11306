import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, readJson, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ bodyLimitBytes: 64 * 1024 });
});
afterAll(async () => {
  await t.close();
});

async function getJson(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(t.url + path);
  return { status: response.status, body: await readJson(response) };
}

describe('GET /healthz and /openapi.json', () => {
  it('reports ok and the number of visible tools', async () => {
    const { status, body } = await getJson('/healthz');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', tools: 4 });
  });

  it('serves an OpenAPI 3.1 document describing every route', async () => {
    const { status, body } = await getJson('/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/metrics', '/v1/tools', '/v1/tools/{name}', '/v1/tools/{name}/call', '/v1/dispatch', '/v1/events', '/v1/load-failures', '/mcp']),
    );
    expect(body.servers[0].url).toBe(t.url);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const { status, body } = await getJson('/v2/nothing');
    expect(status).toBe(404);
    expect(body.error.code).toBe('not_found');
  });
});

describe('GET /v1/tools', () => {
  it('lists raw tools sorted by name by default', async () => {
    const { status, body } = await getJson('/v1/tools');
    expect(status).toBe(200);
    expect(body.format).toBe('raw');
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo', 'fail', 'slow', 'write_note']);
    expect(body.tools[0]).toMatchObject({ name: 'echo', source: 'builtin', permission: 'read_only', network: false, inputSchema: { type: 'object' } });
  });

  it('lists in the Anthropic format', async () => {
    const { body } = await getJson('/v1/tools?format=anthropic');
    expect(body.tools[0]).toEqual({ name: 'echo', description: 'Echoes its text.', input_schema: expect.objectContaining({ type: 'object', required: ['text'] }) });
  });

  it('lists in the OpenAI format', async () => {
    const { body } = await getJson('/v1/tools?format=openai');
    expect(body.tools[0]).toMatchObject({ type: 'function', function: { name: 'echo', parameters: { type: 'object' } } });
  });

  it('lists in the Gemini format', async () => {
    const { body } = await getJson('/v1/tools?format=gemini');
    const echo = body.tools.find((tool: { name: string }) => tool.name === 'echo');
    expect(echo).toMatchObject({ name: 'echo', parameters: { type: 'object', properties: { text: { type: 'string' } } } });
    const fail = body.tools.find((tool: { name: string }) => tool.name === 'fail');
    expect(fail.parameters).toBeUndefined();
  });

  it('lists in the MCP format with annotations from the permission level', async () => {
    const { body } = await getJson('/v1/tools?format=mcp');
    const write = body.tools.find((tool: { name: string }) => tool.name === 'write_note');
    expect(write).toMatchObject({ name: 'write_note', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true } });
  });

  it('rejects an unknown format naming the allowed values', async () => {
    const { status, body } = await getJson('/v1/tools?format=xml');
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_query');
    expect(body.error.message).toContain('raw, anthropic, openai, gemini, mcp');
  });
});

describe('GET /v1/tools/{name}', () => {
  it('returns the raw description plus every provider form', async () => {
    const { status, body } = await getJson('/v1/tools/echo');
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: 'echo', permission: 'read_only', inputSchema: { type: 'object' } });
    expect(Object.keys(body.formats).sort()).toEqual(['anthropic', 'gemini', 'mcp', 'openai']);
    expect(body.formats.openai.function.name).toBe('echo');
  });

  it('returns one form with ?format=', async () => {
    const { body } = await getJson('/v1/tools/echo?format=anthropic');
    expect(body).toEqual({ name: 'echo', description: 'Echoes its text.', input_schema: expect.any(Object) });
  });

  it('answers 404 for an unknown tool', async () => {
    const { status, body } = await getJson('/v1/tools/nope');
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: 'unknown_tool', details: { reason: 'unknown' } });
    expect(body.error.message).toContain('Unknown tool "nope"');
  });
});

describe('POST /v1/tools/{name}/call', () => {
  it('looks the tool up once per call: the route\'s lookup (for its 404) is the one the call uses', async () => {
    const lookup = t.host.registry.lookup.bind(t.host.registry);
    let lookups = 0;
    t.host.registry.lookup = (name: string) => {
      lookups += 1;
      return lookup(name);
    };
    try {
      const response = await postJson(`${t.url}/v1/tools/echo/call`, { arguments: { text: 'once' } });
      expect((await readJson(response)).content).toBe('once');
      expect(lookups).toBe(1);
    } finally {
      t.host.registry.lookup = lookup;
    }
  });

  it('returns the ToolResult', async () => {
    const response = await postJson(`${t.url}/v1/tools/echo/call`, { arguments: { text: 'hello' } });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ content: 'hello', is_error: false, metadata: { length: 5 } });
  });

  it('returns a tool failure as a 200 with is_error', async () => {
    const response = await postJson(`${t.url}/v1/tools/fail/call`, { arguments: {} });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ content: 'it failed on purpose', is_error: true });
  });

  it('returns invalid arguments as a 200 with is_error naming the field', async () => {
    const response = await postJson(`${t.url}/v1/tools/echo/call`, { arguments: { text: { nested: true } } });
    const body = await readJson(response);
    expect(response.status).toBe(200);
    expect(body.is_error).toBe(true);
    expect(body.content).toContain('text');
  });

  it('defaults missing arguments to {}', async () => {
    const response = await postJson(`${t.url}/v1/tools/fail/call`, {});
    expect(response.status).toBe(200);
  });

  it('answers 404 with a JSON error for an unknown tool', async () => {
    const response = await postJson(`${t.url}/v1/tools/nope/call`, { arguments: {} });
    expect(response.status).toBe(404);
    expect((await readJson(response)).error.code).toBe('unknown_tool');
  });

  it('answers 400 invalid_json for a malformed body', async () => {
    const response = await postJson(`${t.url}/v1/tools/echo/call`, '{"arguments": {');
    expect(response.status).toBe(400);
    const body = await readJson(response);
    expect(body.error.code).toBe('invalid_json');
    expect(body.error.message).toContain('not valid JSON');
  });

  it('answers 400 invalid_json for an empty body', async () => {
    const response = await postJson(`${t.url}/v1/tools/echo/call`, '');
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.code).toBe('invalid_json');
  });

  it('answers 400 invalid_body when the body is not an object', async () => {
    const response = await postJson(`${t.url}/v1/tools/echo/call`, [1, 2]);
    expect(response.status).toBe(400);
    const body = await readJson(response);
    expect(body.error.code).toBe('invalid_body');
    expect(body.error.message).toContain('an array');
  });

  it('answers 400 invalid_body when arguments is not an object', async () => {
    const response = await postJson(`${t.url}/v1/tools/echo/call`, { arguments: 'text=hi' });
    expect(response.status).toBe(400);
    const body = await readJson(response);
    expect(body.error.code).toBe('invalid_body');
    expect(body.error.message).toContain('"arguments" must be a JSON object');
  });

  it('answers 400 for arguments sent at the top level', async () => {
    const response = await postJson(`${t.url}/v1/tools/echo/call`, { text: 'hi' });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain('"text"');
  });

  it('answers 413 with a JSON error when the body is over the limit', async () => {
    const response = await postJson(`${t.url}/v1/tools/echo/call`, { arguments: { text: 'x'.repeat(100 * 1024) } });
    expect(response.status).toBe(413);
    const body = await readJson(response);
    expect(body.error.code).toBe('payload_too_large');
    expect(body.error.details.limit_bytes).toBe(64 * 1024);
  });

  it('answers 413 for an oversized chunked body (no Content-Length)', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 10) controller.close();
        else {
          sent += 1;
          controller.enqueue(chunk);
        }
      },
    });
    const response = await fetch(`${t.url}/v1/tools/echo/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
  });
});

describe('GET /metrics', () => {
  it('exposes calls, errors, latency, loaded tools, reloads and load failures', async () => {
    await postJson(`${t.url}/v1/tools/echo/call`, { arguments: { text: 'm' } });
    await postJson(`${t.url}/v1/tools/fail/call`, { arguments: {} });
    const response = await fetch(`${t.url}/metrics`);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/toolhost_tool_calls_total\{tool="echo"\} [1-9]/);
    expect(text).toMatch(/toolhost_tool_call_errors_total\{tool="fail"\} [1-9]/);
    expect(text).toMatch(/toolhost_tool_call_duration_seconds_bucket\{tool="echo",le="\+Inf"\} [1-9]/);
    expect(text).toContain('# TYPE toolhost_tool_call_duration_seconds histogram');
    expect(text).toMatch(/^toolhost_tools_loaded 4$/m);
    expect(text).toMatch(/^toolhost_tool_reloads_total 0$/m);
    expect(text).toMatch(/^toolhost_extension_load_failures_total 0$/m);
  });
});
