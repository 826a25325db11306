/** Shared fixtures for the server tests: a host with small test tools, and a running server. */
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createHost } from '../../src/host.ts';
import type { Host, HostOptions } from '../../src/host-types.ts';
import { errorResult, textResult } from '../../src/result.ts';
import { startServer, type RunningServer, type StartServerOptions } from '../../src/server/serve.ts';
import { defineTool, type AnyTool } from '../../src/tool.ts';

export const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  permission: 'read_only',
  input: z.object({ text: z.string().describe('Text to echo') }),
  secretParams: [],
  async execute(input) {
    return textResult(input.text, { length: input.text.length });
  },
});

/** Labels of finished `slow` calls, in completion order (concurrency shows as reordering). */
export const slowCompletions: string[] = [];

export const slowTool = defineTool({
  name: 'slow',
  description: 'Waits, then answers with its label.',
  permission: 'read_only',
  input: z.object({ ms: z.number().int().min(0), label: z.string() }),
  secretParams: [],
  async execute(input, context) {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, input.ms);
      context.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      });
    });
    slowCompletions.push(input.label);
    return textResult(`done ${input.label}`);
  },
});

export const failTool = defineTool({
  name: 'fail',
  description: 'Always fails.',
  permission: 'none',
  input: z.object({}),
  secretParams: [],
  async execute() {
    return errorResult('it failed on purpose');
  },
});

export const writeTool = defineTool({
  name: 'write_note',
  description: 'Pretends to write a note.',
  permission: 'write',
  input: z.object({ note: z.string() }),
  secretParams: [],
  async execute(input) {
    return textResult(`wrote ${input.note}`);
  },
});

export const extraTool = defineTool({
  name: 'extra',
  description: 'Added later.',
  permission: 'read_only',
  input: z.object({}),
  secretParams: [],
  async execute() {
    return textResult('extra');
  },
});

/** The admin token test daemons run with (startTestServer's default): lists and decides approvals. */
export const TEST_ADMIN_TOKEN = 'test-admin-token-5f0c2a9e7b41d3';

/** `Authorization: Bearer <TEST_ADMIN_TOKEN>`, for /v1/approvals and admin event streams. */
export const ADMIN_HEADERS: Readonly<Record<string, string>> = Object.freeze({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });

export const TEST_TOOLS: readonly AnyTool[] = [echoTool, slowTool, failTool, writeTool];

export function temporaryDirectory(prefix = 'toolhost-server-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export async function createTestHost(options: HostOptions = {}, tools: readonly AnyTool[] = TEST_TOOLS): Promise<Host> {
  return createHost({ workspaceRoot: temporaryDirectory(), ...options }, { builtinTools: tools });
}

/** The pending approvals of a daemon, read with the admin token; waits until `count` are pending. */
export async function pendingApprovals(url: string, count = 1, adminToken: string = TEST_ADMIN_TOKEN): Promise<any[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await fetch(`${url}/v1/approvals`, { headers: { authorization: `Bearer ${adminToken}` } });
    if (!response.ok) throw new Error(`GET /v1/approvals answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { approvals: any[] };
    if (body.approvals.length >= count) return body.approvals;
    if (Date.now() > deadline) throw new Error('no pending approval appeared');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `POST /v1/approvals/{id}` with the admin token. */
export function decideApproval(url: string, id: string, decision: unknown, adminToken: string = TEST_ADMIN_TOKEN): Promise<Response> {
  return postJson(`${url}/v1/approvals/${id}`, { decision }, { authorization: `Bearer ${adminToken}` });
}

export interface TestServer {
  host: Host;
  server: RunningServer;
  url: string;
  close(): Promise<void>;
}

export async function startTestServer(options: StartServerOptions = {}, hostOptions: HostOptions = {}): Promise<TestServer> {
  const host = await createTestHost(hostOptions);
  const server = await startServer(host, { port: 0, keepAliveMs: 0, adminToken: TEST_ADMIN_TOKEN, ...options });
  return { host, server, url: server.url, close: () => server.close(2_000) };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** A response body as JSON, typed loosely for assertions. */
export async function readJson(response: Response): Promise<any> {
  return response.json();
}
