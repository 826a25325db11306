/**
 * Per-principal policy with real tokens from a real issuer (oidc-provider on loopback): two users
 * with different scopes see and call different tools over HTTP and MCP (the real SDK client), a
 * principal no rule matches gets nothing, and approvals are decided by an approver principal only,
 * recording who asked and who decided.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src/host-types.ts';
import { SseReader } from '../server/sse.ts';
import { startIssuer, type TestIssuer } from './oidc-issuer.ts';
import { IDENTITY_ADMIN_TOKEN, startIdentityDaemon, type IdentityDaemon } from './identity-daemon.ts';

let issuer: TestIssuer;
let daemon: IdentityDaemon;
const tokens: Record<'alice' | 'bob' | 'carol' | 'dave', string> = { alice: '', bob: '', carol: '', dave: '' };

beforeAll(async () => {
  issuer = await startIssuer({
    clients: [
      { client_id: 'alice', scope: 'tools:read tools:write' },
      { client_id: 'bob', scope: 'tools:read' },
      { client_id: 'carol', scope: 'tools:read' },
      { client_id: 'dave', scope: 'tools:other' },
    ],
    scopes: ['tools:read', 'tools:write', 'tools:other'],
    groupsOf: (subject) => (subject === 'carol' ? ['approvers'] : undefined),
  });
  daemon = await startIdentityDaemon(issuer.issuer, {
    auth: { scopes: { 'tools:read': 'read_only', 'tools:write': 'write' } },
    principals: [
      { match: { group: 'approvers' }, approver: true },
      {
        match: { subject: 'alice', scope: 'tools:write' },
        exclude: ['search_tools'],
        approvals: [{ tool: 'write_file', match: { path: 'secret/*' }, action: 'deny' }],
        quotas: { list_dir: { per_minute: 2 } },
      },
      { match: { scope: 'tools:read' }, exclude: ['search_tools'] },
    ],
    approvals: [
      { tool: 'write_file', match: { path: 'ask/*' }, action: 'ask' },
      { tool: 'read_file', match: { path: 'ask/*' }, action: 'ask' },
    ],
  });
  tokens.alice = await issuer.clientToken('alice', { scope: 'tools:read tools:write', resource: daemon.audience });
  tokens.bob = await issuer.clientToken('bob', { scope: 'tools:read', resource: daemon.audience });
  tokens.carol = await issuer.clientToken('carol', { scope: 'tools:read', resource: daemon.audience });
  tokens.dave = await issuer.clientToken('dave', { scope: 'tools:other', resource: daemon.audience });
});

afterAll(async () => {
  await daemon?.close();
  await issuer?.close();
});

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

async function toolNames(token: string): Promise<string[]> {
  const response = await fetch(`${daemon.url}/v1/tools`, { headers: bearer(token) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
}

function call(token: string, tool: string, args: Record<string, unknown>): Promise<Response> {
  return fetch(`${daemon.url}/v1/tools/${tool}/call`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ arguments: args }) });
}

async function mcpClient(token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'identity-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers: bearer(token) } });
  await client.connect(transport);
  return { client, transport };
}

/** The next host event of `type` (registered before the action that causes it). */
function nextEvent<T extends HostEvent['type']>(type: T, predicate: (event: Extract<HostEvent, { type: T }>) => boolean = () => true): Promise<Extract<HostEvent, { type: T }>> {
  return new Promise((resolve) => {
    const stop = daemon.host.onEvent((event) => {
      if (event.type === type && predicate(event as Extract<HostEvent, { type: T }>)) {
        stop();
        resolve(event as Extract<HostEvent, { type: T }>);
      }
    });
  });
}

describe('two users over HTTP', () => {
  it('the writer sees and calls write_file; the reader does not see it, and calling it is refused with insufficient_scope', async () => {
    const aliceTools = await toolNames(tokens.alice);
    const bobTools = await toolNames(tokens.bob);
    expect(aliceTools).toContain('write_file');
    expect(bobTools).toContain('read_file');
    expect(bobTools).not.toContain('write_file');
    expect(bobTools).not.toContain('shell');

    const written = await call(tokens.alice, 'write_file', { path: 'alice.txt', content: 'from alice' });
    expect(written.status).toBe(200);
    expect(((await written.json()) as { is_error: boolean }).is_error).toBe(false);

    const refused = await call(tokens.bob, 'write_file', { path: 'bob.txt', content: 'from bob' });
    expect(refused.status).toBe(403);
    const header = refused.headers.get('www-authenticate') ?? '';
    expect(header).toContain('error="insufficient_scope"');
    expect(header).toContain('scope="tools:write"');
    expect(header).toContain(`resource_metadata="${daemon.audience}/.well-known/oauth-protected-resource"`);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('insufficient_scope');

    // And the detail route hides it as well.
    expect((await fetch(`${daemon.url}/v1/tools/write_file`, { headers: bearer(tokens.bob) })).status).toBe(404);
  });

  it("a rule's exclude hides a tool the scope would allow", async () => {
    expect(await toolNames(tokens.alice)).not.toContain('search_tools');
    const response = await call(tokens.alice, 'search_tools', { query: 'file' });
    expect(response.status).toBe(404);
  });

  it("a rule's own approval rules and quotas apply to its principal only", async () => {
    const denied = (await (await call(tokens.alice, 'write_file', { path: 'secret/plan.txt', content: 'x' })).json()) as { is_error: boolean; metadata?: { reason?: string } };
    expect(denied.is_error).toBe(true);
    expect(denied.metadata?.reason).toBe('approval_denied');

    const listed: boolean[] = [];
    for (let index = 0; index < 3; index += 1) listed.push(((await (await call(tokens.alice, 'list_dir', { path: '.' })).json()) as { is_error: boolean }).is_error);
    expect(listed).toEqual([false, false, true]);
    // bob's budget is not alice's: the host has no list_dir quota, and bob's rule sets none.
    for (let index = 0; index < 3; index += 1) expect(((await (await call(tokens.bob, 'list_dir', { path: '.' })).json()) as { is_error: boolean }).is_error).toBe(false);
  });

  it('a principal no rule matches (deny by default) sees no tool and can call none', async () => {
    expect(await toolNames(tokens.dave)).toEqual([]);
    const response = await call(tokens.dave, 'read_file', { path: 'alice.txt' });
    expect(response.status).toBe(404);
  });

  it('dispatch runs each call as the sender', async () => {
    const message = { role: 'assistant', content: [{ type: 'tool_use', id: 'w1', name: 'write_file', input: { path: 'dispatched.txt', content: 'x' } }] };
    const response = await fetch(`${daemon.url}/v1/dispatch`, { method: 'POST', headers: { ...bearer(tokens.bob), 'content-type': 'application/json' }, body: JSON.stringify(message) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: { result: { is_error: boolean; content: string; metadata?: { reason?: string } } }[] };
    expect(body.results[0]?.result.is_error).toBe(true);
    expect(body.results[0]?.result.metadata?.reason).toBe('permission');
  });

  it("run_code cannot reach past the caller: its nested calls carry the caller's principal", async () => {
    const code = 'const r = await tools.write_file({path: "via-run-code.txt", content: "x"}); return r;';
    const response = await call(tokens.bob, 'run_code', { code });
    expect(response.status).toBe(200);
    const result = (await response.json()) as { is_error: boolean; content: string };
    // The sandbox is given only the tools bob sees (and every nested call carries bob's principal).
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/No tool named "write_file" is available here; the tools are: glob, grep, list_dir, read_file/);
    const read = await call(tokens.alice, 'read_file', { path: 'via-run-code.txt' });
    expect(((await read.json()) as { is_error: boolean }).is_error).toBe(true);
  });
});

describe('event streams (GET /v1/events) per principal', () => {
  it("a principal's stream carries its own calls only; an approver's carries everyone's", async () => {
    const open = async (token: string): Promise<SseReader> => new SseReader(await fetch(`${daemon.url}/v1/events`, { headers: bearer(token) }));
    const bobStream = await open(tokens.bob);
    const carolStream = await open(tokens.carol);
    const calls = async (reader: SseReader, count: number): Promise<{ tool: string; subject?: string }[]> => {
      const seen: { tool: string; subject?: string }[] = [];
      while (seen.length < count) {
        const record = await reader.next(30_000);
        if (record.event === 'call_finished') seen.push(JSON.parse(record.data) as { tool: string; subject?: string });
      }
      return seen;
    };
    try {
      await call(tokens.alice, 'glob', { pattern: '*.nothing' });
      await call(tokens.bob, 'grep', { pattern: 'nothing-matches-this', path: '.' });
      expect(await calls(carolStream, 2)).toMatchObject([
        { tool: 'glob', subject: 'alice' },
        { tool: 'grep', subject: 'bob' },
      ]);
      // alice's call came first: had it not been filtered, it would be bob's first event.
      expect(await calls(bobStream, 1)).toMatchObject([{ tool: 'grep', subject: 'bob' }]);
    } finally {
      await bobStream.cancel();
      await carolStream.cancel();
    }
  });
});

describe('who is signed in (GET /v1/whoami, what the console shows)', () => {
  it("answers each token's subject, scopes, level and approver role", async () => {
    const whoami = async (token: string): Promise<unknown> => (await fetch(`${daemon.url}/v1/whoami`, { headers: bearer(token) })).json();
    expect(await whoami(tokens.alice)).toEqual({ identity: true, subject: 'alice', client_id: 'alice', scopes: ['tools:read', 'tools:write'], kind: 'token', permission_mode: 'write', approver: false });
    expect(await whoami(tokens.carol)).toEqual({ identity: true, subject: 'carol', client_id: 'carol', scopes: ['tools:read'], groups: ['approvers'], kind: 'token', permission_mode: 'read_only', approver: true });
    expect(await whoami(tokens.dave)).toMatchObject({ subject: 'dave', permission_mode: 'none', approver: false });
    expect((await fetch(`${daemon.url}/v1/whoami`)).status).toBe(401);
  });
});

describe('two users over MCP (the SDK client)', () => {
  it('tools/list follows the principal; tools/call of a hidden tool is an error result', async () => {
    const alice = await mcpClient(tokens.alice);
    const bob = await mcpClient(tokens.bob);
    try {
      const aliceNames = (await alice.client.listTools()).tools.map((tool) => tool.name);
      const bobNames = (await bob.client.listTools()).tools.map((tool) => tool.name);
      expect(aliceNames).toContain('write_file');
      expect(bobNames).not.toContain('write_file');
      expect(bobNames).toContain('read_file');
      const aliceCall = await alice.client.callTool({ name: 'write_file', arguments: { path: 'mcp-alice.txt', content: 'a' } });
      expect(aliceCall.isError).toBe(false);
      const bobCall = await bob.client.callTool({ name: 'write_file', arguments: { path: 'mcp-bob.txt', content: 'b' } });
      expect(bobCall.isError).toBe(true);
      expect((bobCall.content as { text: string }[])[0]?.text).toContain('may use only "read_only" tools');
    } finally {
      await alice.client.close();
      await bob.client.close();
    }
  });

  it('resources (workspace files) follow the principal: a denied principal reads none', async () => {
    const bob = await mcpClient(tokens.bob);
    const dave = await mcpClient(tokens.dave);
    try {
      expect((await dave.client.listTools()).tools).toEqual([]);
      await expect(dave.client.listResources()).rejects.toThrow(/may not read this host's resources/);
      await expect(dave.client.readResource({ uri: 'file:///alice.txt' })).rejects.toThrow(/may not read/);
      await expect(dave.client.listResourceTemplates()).rejects.toThrow(/may not read/);
      const read = await bob.client.readResource({ uri: 'file:///alice.txt' });
      expect(JSON.stringify(read.contents)).toContain('from alice');
    } finally {
      await bob.client.close();
      await dave.client.close();
    }
  });

  it('the tool tree and the inspection route follow the principal too', async () => {
    const tree = (await (await fetch(`${daemon.url}/v1/tools/tree`, { headers: bearer(tokens.bob) })).json()) as { files: { path: string }[] };
    expect(tree.files.map((file) => file.path)).not.toContain('tools/write_file.d.ts');
    expect((await fetch(`${daemon.url}/v1/tools/tree/tools/write_file.d.ts`, { headers: bearer(tokens.bob) })).status).toBe(404);
    expect((await fetch(`${daemon.url}/v1/tools/tree/tools/write_file.d.ts`, { headers: bearer(tokens.alice) })).status).toBe(200);
    // A built-in has nothing to inspect (404 not_found); hidden from bob, it is an unknown tool to him instead.
    const inspected = async (token: string): Promise<string> => ((await (await fetch(`${daemon.url}/v1/tools/write_file/inspect`, { headers: bearer(token) })).json()) as { error: { code: string } }).error.code;
    expect(await inspected(tokens.alice)).toBe('not_found');
    expect(await inspected(tokens.bob)).toBe('unknown_tool');
  });

  it("a session is bound to its principal: bob holding alice's session id does not find it", async () => {
    const alice = await mcpClient(tokens.alice);
    try {
      const sessionId = alice.transport.sessionId ?? '';
      expect(sessionId).not.toBe('');
      const response = await fetch(`${daemon.url}/mcp`, {
        method: 'POST',
        headers: { ...bearer(tokens.bob), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      });
      expect(response.status).toBe(404);
    } finally {
      await alice.client.close();
    }
  });
});

describe('approvals decided by an approver principal', () => {
  it('a non-approver cannot list or decide; the approver decides; requested_by and decided_by are recorded', async () => {
    const requested = nextEvent('approval_requested');
    const pendingCall = call(tokens.alice, 'write_file', { path: 'ask/report.txt', content: 'needs approval' });
    const request = await requested;
    expect(request.requested_by).toBe('alice');

    for (const token of [tokens.alice, tokens.bob]) {
      const listed = await fetch(`${daemon.url}/v1/approvals`, { headers: bearer(token) });
      expect(listed.status).toBe(403);
      expect(((await listed.json()) as { error: { code: string } }).error.code).toBe('approver_required');
      const decided = await fetch(`${daemon.url}/v1/approvals/${request.id}`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'allow' }) });
      expect(decided.status).toBe(403);
    }

    const listed = await fetch(`${daemon.url}/v1/approvals`, { headers: bearer(tokens.carol) });
    expect(listed.status).toBe(200);
    const approvals = ((await listed.json()) as { approvals: { id: string; requested_by?: string }[] }).approvals;
    expect(approvals.map((approval) => approval.id)).toContain(request.id);
    expect(approvals.find((approval) => approval.id === request.id)?.requested_by).toBe('alice');

    const decidedEvent = nextEvent('approval_decided', (event) => event.id === request.id);
    const decided = await fetch(`${daemon.url}/v1/approvals/${request.id}`, { method: 'POST', headers: { ...bearer(tokens.carol), 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'allow' }) });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toEqual({ id: request.id, decision: 'allow', decided_by: 'carol' });
    expect((await decidedEvent).decided_by).toBe('carol');

    const result = (await (await pendingCall).json()) as { is_error: boolean };
    expect(result.is_error).toBe(false);
  });

  it("a non-approver cannot approve its own call through MCP elicitation: it waits for an approver", async () => {
    const client = new Client({ name: 'identity-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked += 1;
      return { action: 'accept', content: { decision: 'allow' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers: bearer(tokens.bob) } }));
    try {
      const requested = nextEvent('approval_requested');
      const pendingCall = client.callTool({ name: 'read_file', arguments: { path: 'ask/anything.txt' } });
      const request = await requested;
      expect(request.requested_by).toBe('bob');
      const decided = await fetch(`${daemon.url}/v1/approvals/${request.id}`, { method: 'POST', headers: { ...bearer(tokens.carol), 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'deny' }) });
      expect(decided.status).toBe(200);
      const result = await pendingCall;
      expect(result.isError).toBe(true);
      expect(asked).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('the admin token still decides, recorded as admin-token', async () => {
    const requested = nextEvent('approval_requested');
    const pendingCall = call(tokens.alice, 'write_file', { path: 'ask/second.txt', content: 'x' });
    const request = await requested;
    const decidedEvent = nextEvent('approval_decided', (event) => event.id === request.id);
    const decided = await fetch(`${daemon.url}/v1/approvals/${request.id}`, { method: 'POST', headers: { ...bearer(IDENTITY_ADMIN_TOKEN), 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'deny' }) });
    expect(decided.status).toBe(200);
    expect((await decidedEvent).decided_by).toBe('admin-token');
    expect(((await (await pendingCall).json()) as { is_error: boolean }).is_error).toBe(true);
  });
});
