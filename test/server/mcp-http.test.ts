import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { extraTool, readJson, startTestServer, type TestServer } from './helpers.ts';

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
