/**
 * How /mcp answers a POSTed request (McpSessionTransport): plain JSON when nothing streams, SSE as
 * soon as something related to the request is sent first (an elicitation for an approval), SSE from
 * the start for a request carrying a progressToken; a cancelled or abandoned request is forgotten.
 * Raw HTTP against a real daemon on loopback, so the content types on the wire are what is checked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRule } from '../../src/approvals/index.ts';
import { startTestServer, type TestServer } from './helpers.ts';
import { SseReader } from './sse.ts';

const ASK_ECHO: ApprovalRule[] = [{ tool: 'echo', match: { text: 'deploy *' }, action: 'ask' }];

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

interface Session {
  post(body: unknown, init?: { signal?: AbortSignal }): Promise<Response>;
  /** Requests the daemon holds unanswered. */
  held(): number;
}

async function openSession(server: TestServer, capabilities: Record<string, unknown> = {}): Promise<Session> {
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: base,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'answers-test', version: '1' } } }),
  });
  expect(initialize.status).toBe(200);
  await initialize.text();
  const id = initialize.headers.get('mcp-session-id');
  if (id === null) throw new Error('no session id');
  const headers = { ...base, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
  const post = (body: unknown, init: { signal?: AbortSignal } = {}): Promise<Response> => fetch(`${server.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body), ...init });
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  return {
    post,
    held: () => server.server.mcp.heldRequestCount,
  };
}

const call = (id: number, args: Record<string, unknown>, name = 'echo', meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('MCP Streamable HTTP answers', { timeout: 30_000 }, () => {
  it('answers a plain request as one JSON body, with the session id', async () => {
    t = await startTestServer();
    const session = await openSession(t);
    const response = await session.post(call(1, { text: 'plain' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toMatch(/[0-9a-f-]{36}/);
    const body = (await response.json()) as { id: number; result: { content: unknown; isError: boolean } };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'plain' }], isError: false } });
    const list = await session.post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(list.headers.get('content-type')).toBe('application/json');
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    expect(session.held()).toBe(0);
  });

  it('keeps SSE for a request that carries a progressToken', async () => {
    t = await startTestServer();
    const session = await openSession(t);
    const response = await session.post(call(3, { text: 'with progress' }, 'echo', { progressToken: 'p-1' }));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const event = await new SseReader(response).next(20_000);
    expect(JSON.parse(event.data)).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'with progress' }] } });
  });

  it('turns the answer into SSE when the server asks something first (an approval by elicitation)', async () => {
    t = await startTestServer({}, { approvals: ASK_ECHO });
    const session = await openSession(t, { elicitation: { form: {} } });
    const response = await session.post(call(4, { text: 'deploy prod' }));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = new SseReader(response);
    const asked = JSON.parse((await reader.next(20_000)).data) as { id: number | string; method: string };
    expect(asked.method).toBe('elicitation/create');
    // The client's answer to the elicitation is its own POST; the call's result follows on the stream.
    const answered = await session.post({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { decision: 'allow' } } });
    expect(answered.status).toBe(202);
    // Notifications may come first (the server withdraws its decided elicitation with notifications/cancelled).
    let result: { id?: unknown; method?: string };
    do result = JSON.parse((await reader.next(20_000)).data) as { id?: unknown; method?: string };
    while (result.method?.startsWith('notifications/'));
    expect(result).toMatchObject({ id: 4, result: { content: [{ type: 'text', text: 'deploy prod' }], isError: false } });
    await expect(reader.next(20_000)).rejects.toThrow('SSE stream ended');
  });

  it('forgets a held request the client cancels, and one whose client goes away', async () => {
    t = await startTestServer();
    const session = await openSession(t);
    const held = session.post(call(5, { ms: 60_000, label: 'cancelled' }, 'slow'));
    await until(() => session.held() === 1);
    const cancelled = await session.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'test' } });
    expect(cancelled.status).toBe(202);
    const answer = await held;
    expect(answer.status).toBe(202);
    expect(session.held()).toBe(0);

    const controller = new AbortController();
    const abandoned = session.post(call(6, { ms: 60_000, label: 'abandoned' }, 'slow'), { signal: controller.signal });
    await until(() => session.held() === 1);
    controller.abort();
    await expect(abandoned).rejects.toThrow();
    await until(() => session.held() === 0);
  });

  it('reads a POST body within the limit, chunked or not, and answers malformed JSON with a JSON-RPC parse error', async () => {
    t = await startTestServer({ bodyLimitBytes: 2048 });
    const session = await openSession(t);
    const big = call(11, { text: 'x'.repeat(4096) });
    const declared = await session.post(big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    // No Content-Length: the body arrives chunked and is cut off at the limit while it is read.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 8; index += 1) controller.enqueue(new TextEncoder().encode(index === 0 ? JSON.stringify(big).slice(0, 600) : 'x'.repeat(600)));
        controller.close();
      },
    });
    const chunked = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: chunks, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    const malformed = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc": "2.0", "id": 1,' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    expect(session.held()).toBe(0);
  });

  it('leaves what it does not answer to the SDK: a batch, a wrong protocol version, a bad body', async () => {
    t = await startTestServer();
    const session = await openSession(t);
    const batch = await session.post([call(7, { text: 'a' }), call(8, { text: 'b' })]);
    expect(batch.headers.get('content-type')).toBe('text/event-stream');
    const invalid = await session.post({ jsonrpc: '2.0', id: 9, method: 42 });
    expect(invalid.status).toBe(400);
    const badVersion = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': (await openSessionId(t)) ?? '', 'mcp-protocol-version': '1999-01-01' },
      body: JSON.stringify(call(10, { text: 'x' })),
    });
    expect(badVersion.status).toBe(400);
    expect(await badVersion.text()).toContain('Unsupported protocol version');
  });
});

async function openSessionId(server: TestServer): Promise<string | null> {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
  });
  await response.text();
  return response.headers.get('mcp-session-id');
}
