/**
 * The daemon's call history over real HTTP on loopback: `GET /v1/calls` and `GET /v1/calls/{call_id}`
 * (bounded, newest first, admin token only, secret parameters redacted, the edge and the refusal of
 * each call, who decided an approval), and the read-only gates `GET /v1/approval-rules` (admin) and
 * `GET /v1/quotas`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRule } from '../../src/approvals/index.ts';
import type { HostOptions } from '../../src/host-types.ts';
import { createHost } from '../../src/host.ts';
import { textResult } from '../../src/result.ts';
import { MAX_RECORD_TEXT_CHARS } from '../../src/server/call-history.ts';
import { startServer, type StartServerOptions } from '../../src/server/serve.ts';
import { defineTool } from '../../src/tool.ts';
import { ADMIN_HEADERS, decideApproval, pendingApprovals, postJson, readJson, TEST_ADMIN_TOKEN, TEST_TOOLS, temporaryDirectory } from './helpers.ts';

const SECRET_VALUE = 'sk-history-secret-7a3f19';
const LITERAL_SECRET = 'sk-pasted-by-a-model-55e2';
const TOKEN = 'history-regular-token-2b7d';
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** Answers with the key it got: the bridge must redact the substituted value in the result. */
const keyedTool = defineTool({
  name: 'keyed',
  description: 'Uses an API key.',
  permission: 'read_only',
  input: z.object({ query: z.string(), api_key: z.string() }),
  secretParams: ['api_key'],
  async execute(input) {
    return textResult(`query ${input.query} with key ${input.api_key}`, { key: input.api_key });
  },
});

/** Returns a long text, to check the record's cap. */
const bigTool = defineTool({
  name: 'big',
  description: 'Answers with many characters.',
  permission: 'read_only',
  input: z.object({ chars: z.number().int() }),
  secretParams: [],
  async execute(input) {
    return textResult('x'.repeat(input.chars));
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

async function daemon(hostOptions: HostOptions = {}, serverOptions: StartServerOptions = {}): Promise<Daemon> {
  const secretsFile = join(temporaryDirectory('toolhost-history-secrets-'), 'secrets.json');
  writeFileSync(secretsFile, JSON.stringify({ HISTORY_KEY: SECRET_VALUE }));
  const host = await createHost({ workspaceRoot: temporaryDirectory(), secretsFile, ...hostOptions }, { builtinTools: [...TEST_TOOLS, keyedTool, bigTool] });
  const server = await startServer(host, { port: 0, keepAliveMs: 0, adminToken: TEST_ADMIN_TOKEN, token: TOKEN, ...serverOptions });
  const running = { url: server.url, close: () => server.close(2_000) };
  open.push(running);
  return running;
}

async function call(url: string, tool: string, args: unknown, headers: Record<string, string> = AUTH): Promise<any> {
  return readJson(await postJson(`${url}/v1/tools/${tool}/call`, { arguments: args }, headers));
}

async function history(url: string): Promise<{ calls: any[]; capacity: number }> {
  const response = await fetch(`${url}/v1/calls`, { headers: ADMIN_HEADERS });
  expect(response.status).toBe(200);
  return readJson(response);
}

async function record(url: string, callId: string): Promise<any> {
  const response = await fetch(`${url}/v1/calls/${encodeURIComponent(callId)}`, { headers: ADMIN_HEADERS });
  expect(response.status, await response.clone().text()).toBe(200);
  return readJson(response);
}

describe('call history routes', { timeout: 60_000 }, () => {
  it('answers only to the admin token: no token, a wrong one and the regular one are refused, with no call data', async () => {
    const { url } = await daemon();
    await call(url, 'echo', { text: 'private words' });
    const { calls } = await history(url);
    const id = calls[0].call_id as string;
    for (const path of ['/v1/calls', `/v1/calls/${id}`, '/v1/approval-rules']) {
      for (const [headers, status] of [
        [{}, 401],
        [{ authorization: 'Bearer not-the-admin-token-at-all' }, 401],
        [AUTH, 403],
        [{ authorization: `Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}` }, 401],
        [{ authorization: `Basic ${Buffer.from(`x:${TEST_ADMIN_TOKEN}`).toString('base64')}` }, 401],
      ] as const) {
        const response = await fetch(`${url}${path}`, { headers });
        const text = await response.text();
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(status);
        expect(JSON.parse(text).error.code).toBe('admin_token_required');
        expect(text).not.toContain('private words');
      }
    }
    // The same paths in other spellings do not slip past the guard.
    for (const path of ['/v1/calls/', '/v1/Calls', '/v1//calls', `/v1/calls/${id}/`]) {
      const response = await fetch(`${url}${path}`, { headers: AUTH });
      expect(await response.text(), path).not.toContain('private words');
    }
    // Quotas are counts, as /metrics shows them: the regular token reads them.
    expect((await fetch(`${url}/v1/quotas`, { headers: AUTH })).status).toBe(200);
    expect((await fetch(`${url}/v1/quotas`)).status).toBe(401);
  });

  it('keeps the most recent calls only, newest first', async () => {
    const { url } = await daemon({}, { callHistorySize: 3 });
    for (const text of ['one', 'two', 'three', 'four', 'five']) await call(url, 'echo', { text });
    const body = await history(url);
    expect(body.capacity).toBe(3);
    expect(body.calls).toHaveLength(3);
    const texts = [];
    for (const summary of body.calls) texts.push((await record(url, summary.call_id)).arguments.text);
    expect(texts).toEqual(['five', 'four', 'three']);
    // Summaries carry no arguments or results.
    expect(JSON.stringify(body)).not.toContain('five');
    const missing = await fetch(`${url}/v1/calls/no-such-call`, { headers: ADMIN_HEADERS });
    expect(missing.status).toBe(404);
    expect((await readJson(missing)).error.code).toBe('not_found');
  });

  it('records arguments, result, metadata, duration and the edge of each call', async () => {
    const { url } = await daemon();
    await call(url, 'echo', { text: 'over http' });
    await call(url, 'echo', { text: 'from the console' }, { ...AUTH, 'x-toolhost-client': 'console' });
    await postJson(`${url}/v1/dispatch?provider=anthropic`, { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: 'echo', input: { text: 'dispatched' } }] }, AUTH);
    const client = new Client({ name: 'history-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: AUTH } }));
    await client.callTool({ name: 'echo', arguments: { text: 'over mcp' } });
    await client.callTool({ name: 'no_such_tool', arguments: {} });
    await client.close();

    const { calls } = await history(url);
    const records = await Promise.all(calls.map((summary) => record(url, summary.call_id)));
    const byText = new Map(records.filter((entry) => entry.tool === 'echo').map((entry) => [entry.arguments.text, entry]));
    expect(byText.get('over http')?.transport).toBe('http');
    expect(byText.get('from the console')?.transport).toBe('console');
    expect(byText.get('dispatched')?.transport).toBe('dispatch');
    expect(byText.get('over mcp')?.transport).toBe('mcp');
    const http = byText.get('over http');
    expect(http).toMatchObject({ tool: 'echo', is_error: false, arguments: { text: 'over http' }, result: { content: 'over http', is_error: false, metadata: { length: 9 } } });
    expect(http.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(http.finished_at)).toBeGreaterThanOrEqual(Date.parse(http.started_at));
    expect(http.refusal).toBeUndefined();
    const unknown = records.find((entry) => entry.tool === 'no_such_tool');
    expect(unknown).toMatchObject({ transport: 'mcp', is_error: true, refusal: { kind: 'lookup', reason: 'unknown' } });
  });

  it('never keeps a secret: secret parameters are redacted like approvals, the substituted value never appears', async () => {
    const { url } = await daemon();
    const viaRef = await call(url, 'keyed', { query: 'q1', api_key: '<secret_ref:HISTORY_KEY>' });
    expect(viaRef.is_error).toBe(false);
    await call(url, 'keyed', { query: 'q2', api_key: LITERAL_SECRET });
    // An attacker naming the secret in a parameter that is not secret is refused, and shown as sent.
    await call(url, 'keyed', { query: '<secret_ref:HISTORY_KEY>', api_key: 'x' });
    const list = await (await fetch(`${url}/v1/calls`, { headers: ADMIN_HEADERS })).text();
    const { calls } = JSON.parse(list) as { calls: any[] };
    const texts = await Promise.all(calls.map(async (summary) => (await fetch(`${url}/v1/calls/${summary.call_id}`, { headers: ADMIN_HEADERS })).text()));
    for (const text of [list, ...texts]) {
      expect(text).not.toContain(SECRET_VALUE);
      expect(text).not.toContain(LITERAL_SECRET);
    }
    const records = texts.map((text) => JSON.parse(text));
    const byQuery = new Map(records.map((entry) => [entry.arguments.query, entry]));
    expect(byQuery.get('q1').arguments.api_key).toBe('<secret_ref:HISTORY_KEY>');
    expect(byQuery.get('q1').result.content).not.toContain(SECRET_VALUE);
    expect(byQuery.get('q2').arguments.api_key).toBe('[REDACTED]');
    expect(byQuery.get('<secret_ref:HISTORY_KEY>')).toMatchObject({ is_error: true, refusal: { kind: 'validation', reason: 'invalid_arguments' } });
  });

  it('caps what a record keeps of a large result', async () => {
    const { url } = await daemon();
    await call(url, 'big', { chars: MAX_RECORD_TEXT_CHARS * 3 });
    const entry = await record(url, (await history(url)).calls[0].call_id);
    expect(entry.content_truncated).toBe(true);
    expect(entry.content_chars).toBe(MAX_RECORD_TEXT_CHARS * 3);
    expect(entry.result.content.length).toBeLessThanOrEqual(MAX_RECORD_TEXT_CHARS + 1);
  });

  it('says why a call was refused: invalid arguments, an approval rule, a quota, the permission mode', async () => {
    const rules: ApprovalRule[] = [{ tool: 'write_note', action: 'deny' }];
    const { url } = await daemon({ approvals: rules, quotas: { slow: { concurrency: 1, queue: 0 } } });
    await call(url, 'echo', { text: ['not', 'text'] });
    await call(url, 'write_note', { note: 'n' });
    const first = call(url, 'slow', { ms: 60_000, label: 'holding' });
    // The first slow call holds the only slot once the quota shows it running.
    await expect.poll(async () => ((await readJson(await fetch(`${url}/v1/quotas`, { headers: AUTH }))).quotas[0]?.in_use as number) ?? 0, { timeout: 30_000 }).toBe(1);
    const quotas = (await readJson(await fetch(`${url}/v1/quotas`, { headers: AUTH }))).quotas;
    expect(quotas).toEqual([{ key: 'slow', limits: { concurrency: 1, queue: 0 }, in_use: 1, waiting: 0, window_calls: 1, queued: 0, refused: {} }]);
    await call(url, 'slow', { ms: 0, label: 'refused' });
    const records = await Promise.all((await history(url)).calls.map((summary) => record(url, summary.call_id)));
    expect(records.find((entry) => entry.tool === 'echo')?.refusal).toEqual({ kind: 'validation', reason: 'invalid_arguments' });
    const denied = records.find((entry) => entry.tool === 'write_note');
    expect(denied?.refusal).toEqual({ kind: 'approval', reason: 'approval_denied' });
    expect(denied?.result.metadata.rule).toBe(1);
    expect(records.find((entry) => entry.tool === 'slow')?.refusal).toEqual({ kind: 'quota', reason: 'quota_exceeded' });
    const summaries = (await history(url)).calls;
    expect(summaries.find((summary) => summary.tool === 'slow')?.refusal?.kind).toBe('quota');
    const rulesBody = await readJson(await fetch(`${url}/v1/approval-rules`, { headers: ADMIN_HEADERS }));
    expect(rulesBody.rules).toEqual([{ position: 1, tool: 'write_note', action: 'deny' }]);
    expect(rulesBody.timeout_ms).toBeGreaterThan(0);
    void first.catch(() => undefined);

    const { url: readOnly } = await daemon({ permissionMode: 'read_only' });
    const client = new Client({ name: 'history-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${readOnly}/mcp`), { requestInit: { headers: AUTH } }));
    await client.callTool({ name: 'write_note', arguments: { note: 'n' } });
    await client.close();
    const hidden = await record(readOnly, (await history(readOnly)).calls[0].call_id);
    expect(hidden).toMatchObject({ tool: 'write_note', refusal: { kind: 'policy', reason: 'permission' } });
  });

  it('says who decided an approval', async () => {
    const { url } = await daemon({ approvals: [{ tool: 'echo', action: 'ask' }] });
    const allowed = call(url, 'echo', { text: 'ask me' });
    const [pending] = await pendingApprovals(url);
    expect((await decideApproval(url, pending.id, 'allow')).status).toBe(200);
    expect((await allowed).is_error).toBe(false);
    const denied = call(url, 'echo', { text: 'deny me' });
    const [second] = await pendingApprovals(url);
    await decideApproval(url, second.id, 'deny');
    expect((await denied).is_error).toBe(true);
    const records = await Promise.all((await history(url)).calls.map((summary) => record(url, summary.call_id)));
    const yes = records.find((entry) => entry.arguments.text === 'ask me');
    expect(yes.approval).toMatchObject({ id: pending.id, decision: 'allow', reason: 'user', via: 'http' });
    expect(Date.parse(yes.approval.decided_at)).toBeGreaterThanOrEqual(Date.parse(yes.approval.requested_at));
    const no = records.find((entry) => entry.arguments.text === 'deny me');
    expect(no.approval).toMatchObject({ id: second.id, decision: 'deny', reason: 'user', via: 'http' });
    expect(no.refusal).toEqual({ kind: 'approval', reason: 'approval_denied' });
  });
});
