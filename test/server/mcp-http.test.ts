import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host-types.ts';
import { McpHttpHandler } from '../../src/server/mcp-http.ts';
import { createTestHost, extraTool, readJson, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await t?.close();
  t = undefined;
});

async function connect(url: string, headers: Record<string, string> = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'toolhost-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

describe('MCP over Streamable HTTP (/mcp)', () => {
  it('initializes a session and declares tools.listChanged', async () => {
    t = await startTestServer();
    const { client, transport } = await connect(t.url);
    expect(transport.sessionId).toMatch(/[0-9a-f-]{36}/);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect(client.getServerVersion()?.name).toBe('toolhost');
  });

  it('lists tools with the normalized inputSchema and annotations', async () => {
    t = await startTestServer();
    const { client } = await connect(t.url);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'fail', 'slow', 'write_note']);
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(echo?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  });

  it('calls tools: text content, isError, metadata in _meta', async () => {
    t = await startTestServer();
    const { client } = await connect(t.url);
    const ok = await client.callTool({ name: 'echo', arguments: { text: 'over mcp' } });
    expect(ok).toMatchObject({ content: [{ type: 'text', text: 'over mcp' }], isError: false, _meta: { 'toolhost/metadata': { length: 8 } } });
    const failed = await client.callTool({ name: 'fail', arguments: {} });
    expect(failed).toMatchObject({ content: [{ type: 'text', text: 'it failed on purpose' }], isError: true });
    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain('Unknown tool');
  });

  it('sends notifications/tools/list_changed to every session when the tool set changes', async () => {
    t = await startTestServer();
    const first = await connect(t.url);
    const second = await connect(t.url);
    const received = [first, second].map(
      ({ client }) => new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve())),
    );
    // The client opens its standalone GET stream right after initialization; give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 150));
    t.host.registry.add(extraTool);
    await Promise.all(received);
    const { tools } = await first.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('extra');
  });

  it('counts MCP calls in /metrics', async () => {
    t = await startTestServer();
    const { client } = await connect(t.url);
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    const text = await (await fetch(`${t.url}/metrics`)).text();
    expect(text).toMatch(/toolhost_tool_calls_total\{tool="echo"\} 1/);
  });

  it('ends the session on DELETE and rejects unknown sessions with 404', async () => {
    t = await startTestServer();
    const { transport } = await connect(t.url);
    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
  });

  it('rejects a non-initialize request without a session id', async () => {
    t = await startTestServer();
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain('initialize');
  });

  it('needs the bearer token when the server has one', async () => {
    t = await startTestServer({ token: 'mcp-secret' });
    await expect(connect(t.url)).rejects.toThrow();
    const { client } = await connect(t.url, { authorization: 'Bearer mcp-secret' });
    expect((await client.listTools()).tools.length).toBe(4);
  });
});

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'abandoner', version: '1' } } };

/** Opens a session the way a leaky client does: initialize, read the answer, never DELETE. Returns its id. */
async function abandonSession(url: string): Promise<string> {
  const response = await fetch(`${url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
  expect(response.status).toBe(200);
  await response.text();
  return response.headers.get('mcp-session-id') as string;
}

function listTools(url: string, session: string): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
}

/** Polls `condition` until it holds; fails after `timeoutMs` (generous: the condition, not the time, is under test). */
async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('MCP session lifetime', () => {
  it('closes sessions left idle, and answers their ids with 404 "not found"', async () => {
    // Long enough that all 20 are open before the first expires, even on a loaded machine.
    t = await startTestServer({ mcpSessionIdleMs: 2_000 });
    const ids = await Promise.all(Array.from({ length: 20 }, () => abandonSession(t!.url)));
    expect(new Set(ids).size).toBe(20);
    expect(t.server.mcp.sessionCount).toBe(20);
    await waitFor(() => t!.server.mcp.sessionCount === 0, 'idle sessions to expire');
    const expired = await listTools(t.url, ids[0] as string);
    expect(expired.status).toBe(404);
    expect((await readJson(expired)).error).toMatchObject({ code: -32001, message: expect.stringContaining('not found') });
  });

  it('keeps a session with an open GET stream or a call in flight; the idle one beside them expires', async () => {
    t = await startTestServer({ mcpSessionIdleMs: 150 });
    const idle = await abandonSession(t.url);
    const streaming = await abandonSession(t.url);
    const calling = await abandonSession(t.url);
    const stream = await fetch(`${t.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': streaming, 'mcp-protocol-version': '2025-06-18' } });
    expect(stream.status).toBe(200);
    const slowCall = fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': calling, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: { ms: 1_200, label: 'long' } } }),
    }).then((response) => response.text());
    await waitFor(() => t!.server.mcp.sessionCount === 2, 'the idle session to expire');
    expect((await listTools(t.url, idle)).status).toBe(404);
    expect((await listTools(t.url, streaming)).status).toBe(200);
    expect(await slowCall).toContain('done long');
    // Its answer was the last activity: from now on the calling session is idle and goes too.
    await waitFor(() => t!.server.mcp.sessionCount === 1, 'the calling session to expire once its call ended');
    expect((await listTools(t.url, calling)).status).toBe(404);
    await stream.body?.cancel();
    await waitFor(() => t!.server.mcp.sessionCount === 0, 'the streaming session to expire once its stream closed');
  });

  it('bounds the sessions: a new one replaces the longest-idle, and is refused with 503 when all are in use', async () => {
    t = await startTestServer({ maxMcpSessions: 3 });
    const first = await abandonSession(t.url);
    const second = await abandonSession(t.url);
    const third = await abandonSession(t.url);
    expect((await listTools(t.url, first)).status).toBe(200); // first is now the most recently active
    const fourth = await abandonSession(t.url);
    expect(t.server.mcp.sessionCount).toBe(3);
    expect((await listTools(t.url, second)).status).toBe(404);
    for (const id of [first, third, fourth]) expect((await listTools(t.url, id)).status, id).toBe(200);

    const streams = await Promise.all(
      [first, third, fourth].map((id) => fetch(`${t!.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' } })),
    );
    for (const stream of streams) expect(stream.status).toBe(200);
    const refused = await fetch(`${t.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
    expect(refused.status).toBe(503);
    expect((await readJson(refused)).error).toMatchObject({ code: -32000, message: expect.stringContaining('max_mcp_sessions') });
    expect(t.server.mcp.sessionCount).toBe(3);
    await streams[0]?.body?.cancel();
    // One stream closed: its session is idle again and makes room (the server sees the hang-up shortly).
    let replacement: Response | undefined;
    for (let attempt = 0; attempt < 200 && replacement?.status !== 200; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      replacement = await fetch(`${t.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
      await replacement.text();
    }
    expect(replacement?.status).toBe(200);
    expect((await listTools(t.url, first)).status).toBe(404);
    for (const stream of streams.slice(1)) await stream.body?.cancel();
  });

  it('releases each closed session: its Server unsubscribes from the host', async () => {
    const host = await createTestHost();
    let subscriptions = 0;
    const counting: Host = Object.create(host, {
      onEvent: {
        value: (listener: Parameters<Host['onEvent']>[0]) => {
          subscriptions += 1;
          const unsubscribe = host.onEvent(listener);
          return () => {
            subscriptions -= 1;
            unsubscribe();
          };
        },
      },
    });
    const handler = new McpHttpHandler(counting, { sessionIdleMs: 50 });
    try {
      for (let index = 0; index < 5; index++) {
        const response = await handler.handle(new Request('http://localhost/mcp', { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) }));
        expect(response.status).toBe(200);
        await response.text();
      }
      // An initialize the transport refuses (no text/event-stream in Accept) must not leave a Server behind.
      const refused = await handler.handle(new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(INITIALIZE) }));
      expect(refused.status).toBe(406);
      expect(handler.sessionCount).toBe(5);
      await waitFor(() => handler.sessionCount === 0 && subscriptions === 0, 'every session to expire and unsubscribe');
    } finally {
      await handler.closeAll();
      await host.close();
    }
  });

  it('closes a thousand open sessions on shutdown, streams included', { timeout: 60_000 }, async () => {
    t = await startTestServer();
    const server = t.server;
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) ids.push(...(await Promise.all(Array.from({ length: 100 }, () => abandonSession(server.url)))));
    expect(server.mcp.sessionCount).toBe(1000);
    const stream = await fetch(`${server.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': ids[0] as string, 'mcp-protocol-version': '2025-06-18' } });
    expect(stream.status).toBe(200);
    await t.close();
    t = undefined;
    expect(server.mcp.sessionCount).toBe(0);
    // The open stream was ended by the server, not left hanging.
    expect(await stream.text()).toBeTypeOf('string');
  });
});
