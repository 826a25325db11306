/**
 * Approvals over MCP: a real SDK client that declares elicitation answers the `elicitation/create`
 * form; a client that does not waits for the daemon's HTTP queue, or, with no daemon, is refused
 * with the reason.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRule } from '../../src/approvals/index.ts';
import type { Host } from '../../src/host-types.ts';
import { createMcpServer } from '../../src/server/mcp-server.ts';
import { createTestHost, decideApproval, pendingApprovals, startTestServer, type TestServer } from './helpers.ts';

const ASK_ECHO: ApprovalRule[] = [{ tool: 'echo', match: { text: 'deploy *' }, action: 'ask' }];

let t: TestServer | undefined;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  await t?.close();
  t = undefined;
});

type ElicitHandler = (request: ElicitRequest, signal: AbortSignal) => Promise<ElicitResult>;

function client(onElicit?: ElicitHandler): Client {
  const created = new Client({ name: 'approvals-test', version: '1.0.0' }, { capabilities: onElicit ? { elicitation: { form: {} } } : {} });
  if (onElicit) created.setRequestHandler(ElicitRequestSchema, (request, extra) => onElicit(request, extra.signal));
  cleanups.push(() => created.close());
  return created;
}

async function overHttp(onElicit?: ElicitHandler): Promise<Client> {
  t ??= await startTestServer({}, { approvals: ASK_ECHO });
  const connected = client(onElicit);
  await connected.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
  return connected;
}

/** The MCP server alone (as `toolhost mcp` on stdio runs it): nobody serves /v1/approvals. */
async function withoutDaemon(host: Host, onElicit?: ElicitHandler): Promise<Client> {
  const server = createMcpServer(host);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const connected = client(onElicit);
  await connected.connect(clientSide);
  cleanups.push(() => server.close(), () => host.close({ graceMs: 0 }));
  return connected;
}

const text = (result: Awaited<ReturnType<Client['callTool']>>): string => JSON.stringify(result.content);

describe('approvals over MCP', { timeout: 30_000 }, () => {
  it('asks an elicitation-capable client with a decision form; accept allow runs the call', async () => {
    const asked: ElicitRequest[] = [];
    const mcp = await overHttp(async (request) => {
      asked.push(request);
      return { action: 'accept', content: { decision: 'allow' } };
    });
    const result = await mcp.callTool({ name: 'echo', arguments: { text: 'deploy prod' } });
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'deploy prod' }] });
    expect(asked).toHaveLength(1);
    const params = asked[0]?.params as { message: string; requestedSchema: { properties: Record<string, { enum?: string[] }>; required?: string[] } };
    expect(params.message).toContain('"echo"');
    expect(params.message).toContain('{"text":"deploy prod"}');
    expect(params.requestedSchema.properties['decision']?.enum).toEqual(['allow', 'deny', 'always']);
    expect(params.requestedSchema.required).toEqual(['decision']);
    // Calls no rule matches are not asked about.
    await mcp.callTool({ name: 'echo', arguments: { text: 'hello' } });
    expect(asked).toHaveLength(1);
  });

  it('deny, decline and cancel are refusals a model can act on', async () => {
    const answers: ElicitResult[] = [{ action: 'accept', content: { decision: 'deny' } }, { action: 'decline' }, { action: 'cancel' }];
    const mcp = await overHttp(async () => answers.shift() ?? { action: 'cancel' });
    for (let round = 0; round < 3; round += 1) {
      const result = await mcp.callTool({ name: 'echo', arguments: { text: 'deploy prod' } });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('The user denied this call to echo');
    }
  });

  it('always: the identical call is not asked again', async () => {
    let asked = 0;
    const mcp = await overHttp(async () => {
      asked += 1;
      return { action: 'accept', content: { decision: 'always' } };
    });
    expect((await mcp.callTool({ name: 'echo', arguments: { text: 'deploy prod' } })).isError).toBe(false);
    expect((await mcp.callTool({ name: 'echo', arguments: { text: 'deploy prod' } })).isError).toBe(false);
    expect(asked).toBe(1);
    await mcp.callTool({ name: 'echo', arguments: { text: 'deploy other' } });
    expect(asked).toBe(2);
  });

  it('an HTTP decision settles a pending elicitation first, and the client is told to stop asking', async () => {
    let stopped: () => void = () => undefined;
    const stoppedAsking = new Promise<void>((resolve) => {
      stopped = resolve;
    });
    let first = true;
    const mcp = await overHttp(
      (_request, signal) =>
        new Promise<ElicitResult>((resolve) => {
          if (first) {
            first = false;
            resolve({ action: 'accept', content: { decision: 'allow' } });
            return;
          }
          signal.addEventListener('abort', () => {
            stopped();
            resolve({ action: 'cancel' });
          });
        }),
    );
    // The SDK client ignores notifications/cancelled for request id 0 (a falsy check in its _oncancel),
    // so the session's first elicitation is answered and the one that races HTTP is the second.
    expect((await mcp.callTool({ name: 'echo', arguments: { text: 'deploy first' } })).isError).toBe(false);
    const call = mcp.callTool({ name: 'echo', arguments: { text: 'deploy prod' } });
    const url = t?.url ?? '';
    const [approval] = await pendingApprovals(url);
    expect((await decideApproval(url, approval.id, 'allow')).status).toBe(200);
    expect((await call).isError).toBe(false);
    await stoppedAsking;
  });

  it('a client without elicitation waits for the daemon queue over HTTP', async () => {
    const mcp = await overHttp();
    const call = mcp.callTool({ name: 'echo', arguments: { text: 'deploy prod' } });
    const url = t?.url ?? '';
    const [approval] = await pendingApprovals(url);
    await decideApproval(url, approval.id, 'deny');
    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('The user denied this call to echo');
  });

  it('without a daemon, a client without elicitation is refused, saying why', async () => {
    const mcp = await withoutDaemon(await createTestHost({ approvals: ASK_ECHO }));
    const result = await mcp.callTool({ name: 'echo', arguments: { text: 'deploy prod' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('the MCP client did not declare the elicitation capability');
    expect(result._meta?.['toolhost/metadata']).toEqual({ reason: 'approval_unavailable' });
  });

  it('without a daemon, elicitation still works', async () => {
    const mcp = await withoutDaemon(await createTestHost({ approvals: ASK_ECHO }), async () => ({ action: 'accept', content: { decision: 'allow' } }));
    const result = await mcp.callTool({ name: 'echo', arguments: { text: 'deploy prod' } });
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'deploy prod' }] });
  });
});
