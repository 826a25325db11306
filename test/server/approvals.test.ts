/** Approvals over HTTP: a real daemon on loopback, calls that wait for `POST /v1/approvals/{id}`. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRule } from '../../src/approvals/index.ts';
import type { HostOptions } from '../../src/host-types.ts';
import { createHost } from '../../src/host.ts';
import { textResult } from '../../src/result.ts';
import { startServer } from '../../src/server/serve.ts';
import { defineTool } from '../../src/tool.ts';
import { ADMIN_HEADERS, decideApproval, pendingApprovals, postJson, readJson, TEST_ADMIN_TOKEN, TEST_TOOLS, temporaryDirectory } from './helpers.ts';

const SECRET_VALUE = 'sk-approvals-test-0d1e';

/** Echoes which key it got, proving substitution happened after approval. */
const keyedTool = defineTool({
  name: 'keyed',
  description: 'Uses an API key.',
  permission: 'read_only',
  input: z.object({ query: z.string(), api_key: z.string() }),
  secretParams: ['api_key'],
  async execute(input) {
    return textResult(`key length ${input.api_key.length}, starts ${input.api_key.slice(0, 3)}`);
  },
});

interface Daemon {
  url: string;
  close(): Promise<void>;
}

const open: Daemon[] = [];
afterEach(async () => {
  for (const daemon of open.splice(0)) await daemon.close();
});

async function daemon(rules: ApprovalRule[], options: HostOptions = {}): Promise<Daemon> {
  const secretsFile = join(temporaryDirectory('toolhost-approval-secrets-'), 'secrets.json');
  writeFileSync(secretsFile, JSON.stringify({ APPROVALS_TEST_KEY: SECRET_VALUE }));
  const host = await createHost({ workspaceRoot: temporaryDirectory(), secretsFile, approvals: rules, ...options }, { builtinTools: [...TEST_TOOLS, keyedTool] });
  const server = await startServer(host, { port: 0, keepAliveMs: 0, adminToken: TEST_ADMIN_TOKEN });
  const running = { url: server.url, close: () => server.close(2_000) };
  open.push(running);
  return running;
}

/** Reads an SSE stream in the background so nothing is lost between waits. */
class EventLog {
  text = '';
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(response: Response) {
    if (!response.body) throw new Error('no body');
    const reader = response.body.getReader();
    this.reader = reader;
    const decoder = new TextDecoder();
    void (async () => {
      for (;;) {
        const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (chunk.done) return;
        this.text += decoder.decode(chunk.value, { stream: true });
      }
    })();
  }

  async until(needle: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.text.includes(needle)) {
      if (Date.now() > deadline) throw new Error(`no "${needle}" in the event stream:\n${this.text}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** The data of every SSE event of this type so far. */
  events(type: string): any[] {
    return this.text
      .split('\n\n')
      .filter((block) => block.split('\n').includes(`event: ${type}`))
      .map((block) => JSON.parse(block.split('\n').find((line) => line.startsWith('data: '))?.slice(6) ?? 'null'));
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

/** The event stream as a person's console reads it: with the admin token (approval arguments included). */
async function events(url: string, headers: Record<string, string> = ADMIN_HEADERS): Promise<EventLog> {
  const log = new EventLog(await fetch(`${url}/v1/events`, { headers }));
  await log.until(': connected');
  return log;
}

const pending = (url: string, count = 1): Promise<any[]> => pendingApprovals(url, count);
const listApprovals = async (url: string): Promise<unknown> => readJson(await fetch(`${url}/v1/approvals`, { headers: ADMIN_HEADERS }));

const call = (url: string, tool: string, args: unknown): Promise<any> => postJson(`${url}/v1/tools/${tool}/call`, { arguments: args }).then(readJson);
const decide = (url: string, id: string, decision: unknown): Promise<Response> => decideApproval(url, id, decision);

const ASK_ECHO: ApprovalRule[] = [{ tool: 'echo', match: { text: 'deploy *' }, action: 'ask' }];

describe('approvals over HTTP', { timeout: 30_000 }, () => {
  it('ask: the call waits, GET lists it, the SSE event announces it, POST allow lets it complete', async () => {
    const d = await daemon(ASK_ECHO);
    const log = await events(d.url);
    const result = call(d.url, 'echo', { text: 'deploy prod' });
    const [approval] = await pending(d.url);
    expect(approval).toMatchObject({ tool: 'echo', arguments: { text: 'deploy prod' } });
    expect(Object.keys(approval).sort()).toEqual(['arguments', 'call_id', 'created_at', 'expires_at', 'id', 'tool']);
    expect(Number.isNaN(Date.parse(approval.created_at))).toBe(false);
    await log.until('event: approval_requested');
    expect(log.events('approval_requested')).toEqual([{ type: 'approval_requested', ...approval }]);

    const answer = await decide(d.url, approval.id, 'allow');
    expect(answer.status).toBe(200);
    expect(await readJson(answer)).toEqual({ id: approval.id, decision: 'allow', decided_by: 'admin-token' });
    expect(await result).toMatchObject({ content: 'deploy prod', is_error: false });
    expect(await listApprovals(d.url)).toEqual({ approvals: [] });
    await log.until('event: approval_decided');
    expect(log.events('approval_decided')).toEqual([{ type: 'approval_decided', id: approval.id, tool: 'echo', call_id: approval.call_id, decision: 'allow', reason: 'user', via: 'http', decided_by: 'admin-token' }]);
    await log.close();
  });

  it('/openapi.json documents the approval routes', async () => {
    const d = await daemon([]);
    const document = await readJson(await fetch(`${d.url}/openapi.json`));
    expect(document.paths['/v1/approvals'].get.operationId).toBe('listApprovals');
    expect(document.paths['/v1/approvals/{id}'].post.requestBody.content['application/json'].schema.properties.decision.enum).toEqual(['allow', 'deny', 'always']);
    expect(document.components.schemas.ApprovalRequest.required).toEqual(expect.arrayContaining(['id', 'tool', 'arguments', 'created_at']));
    // Both routes name the admin token as their only security, and its refusals.
    for (const operation of [document.paths['/v1/approvals'].get, document.paths['/v1/approvals/{id}'].post]) {
      expect(operation.security).toEqual([{ adminToken: [] }]);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403']));
    }
    expect(document.components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.adminToken.description).toContain('admin-token-<port>');
  });

  it('calls no rule matches run without asking', async () => {
    const d = await daemon(ASK_ECHO);
    expect(await call(d.url, 'echo', { text: 'hello' })).toMatchObject({ content: 'hello', is_error: false });
  });

  it('deny: the call is an is_error result a model can act on', async () => {
    const d = await daemon(ASK_ECHO);
    const result = call(d.url, 'echo', { text: 'deploy prod' });
    const [approval] = await pending(d.url);
    expect((await decide(d.url, approval.id, 'deny')).status).toBe(200);
    const denied = await result;
    expect(denied.is_error).toBe(true);
    expect(denied.content).toMatch(/^The user denied this call to echo: \{"text":"deploy prod"\}/);
    expect(denied.metadata).toEqual({ reason: 'approval_denied' });
  });

  it('a deny rule refuses at once, naming the rule', async () => {
    const d = await daemon([{ tool: 'echo', match: { text: 'rm *' }, action: 'deny' }]);
    const denied = await call(d.url, 'echo', { text: 'rm -rf /' });
    expect(denied).toMatchObject({ is_error: true, metadata: { reason: 'approval_denied', rule: 1 } });
  });

  it('timeout: nobody answers, the call is refused', async () => {
    const d = await daemon(ASK_ECHO, { approvalTimeoutMs: 300 });
    const refused = await call(d.url, 'echo', { text: 'deploy prod' });
    expect(refused.is_error).toBe(true);
    expect(refused.metadata).toEqual({ reason: 'approval_timeout' });
    expect(refused.content).toContain('nobody answered within 300 ms');
    expect(await listApprovals(d.url)).toEqual({ approvals: [] });
  });

  it('always: the next identical call runs without asking; a different one still asks', async () => {
    const d = await daemon(ASK_ECHO);
    const first = call(d.url, 'echo', { text: 'deploy prod' });
    const [approval] = await pending(d.url);
    await decide(d.url, approval.id, 'always');
    expect((await first).is_error).toBe(false);

    const log = await events(d.url);
    expect(await call(d.url, 'echo', { text: 'deploy prod' })).toMatchObject({ content: 'deploy prod', is_error: false });
    await log.until('event: call_finished');
    expect(log.events('approval_requested')).toEqual([]);

    const other = call(d.url, 'echo', { text: 'deploy staging' });
    const [second] = await pending(d.url);
    expect(second.arguments).toEqual({ text: 'deploy staging' });
    await decide(d.url, second.id, 'deny');
    expect((await other).is_error).toBe(true);
    await log.close();
  });

  it('POST checks the body and the id', async () => {
    const d = await daemon(ASK_ECHO);
    const result = call(d.url, 'echo', { text: 'deploy prod' });
    const [approval] = await pending(d.url);
    const bad = await decide(d.url, approval.id, 'maybe');
    expect(bad.status).toBe(400);
    expect((await readJson(bad)).error.message).toContain('"decision" must be one of "allow", "deny", "always"; received "maybe"');
    const extra = await postJson(`${d.url}/v1/approvals/${approval.id}`, { decision: 'allow', note: 'x' }, ADMIN_HEADERS);
    expect(extra.status).toBe(400);
    const unknown = await decide(d.url, 'no-such-id', 'allow');
    expect(unknown.status).toBe(404);
    expect((await readJson(unknown)).error.code).toBe('not_found');
    await decide(d.url, approval.id, 'allow');
    expect((await result).is_error).toBe(false);
    // Decided once: a second decision finds nothing pending.
    expect((await decide(d.url, approval.id, 'deny')).status).toBe(404);
  });

  it('never shows a substituted secret: the list and the events carry the placeholder', async () => {
    const d = await daemon([{ tool: 'keyed', action: 'ask' }]);
    const log = await events(d.url);
    const result = call(d.url, 'keyed', { query: 'q', api_key: '<secret_ref:APPROVALS_TEST_KEY>' });
    const [approval] = await pending(d.url);
    expect(approval.arguments).toEqual({ query: 'q', api_key: '<secret_ref:APPROVALS_TEST_KEY>' });
    await log.until('event: approval_requested');
    await decide(d.url, approval.id, 'allow');
    const done = await result;
    expect(done).toMatchObject({ is_error: false, content: `key length ${SECRET_VALUE.length}, starts sk-` });
    await log.until('event: approval_decided');
    expect(log.text).toContain('<secret_ref:APPROVALS_TEST_KEY>');
    expect(log.text).not.toContain(SECRET_VALUE);
    await log.close();
  });

  it('a client that disconnects while waiting cancels its approval', async () => {
    const d = await daemon(ASK_ECHO);
    const log = await events(d.url);
    const controller = new AbortController();
    const abandoned = fetch(`${d.url}/v1/tools/echo/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: { text: 'deploy prod' } }), signal: controller.signal }).catch(() => undefined);
    await pending(d.url);
    controller.abort();
    await abandoned;
    await log.until('"reason":"cancelled"');
    expect(await listApprovals(d.url)).toEqual({ approvals: [] });
    await log.close();
  });
});
