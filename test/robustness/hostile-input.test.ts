/**
 * Hostile argument shapes against a real daemon process (`toolhost serve`) and a real stdio MCP server
 * (`toolhost mcp`) on every route that takes tool arguments: deep nesting, huge arrays, long keys.
 * Each must get a clear refusal naming the limit, and the process must keep serving afterwards.
 */
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnvironment, spawnCli, temporaryDirectory } from '../cli/run-cli.ts';

/** `{"a":{"a":...}}` nested `depth` levels, built as text (a JS value that deep is what we test against). */
function deepObjectText(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}
function deepArrayText(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

const HOSTILE_ARGUMENTS: Record<string, string> = {
  'deep object (10,000 levels)': `{"path":"x","content":${deepObjectText(10_000)}}`,
  'deep array (50,000 levels)': `{"path":${deepArrayText(50_000)}}`,
  'huge array (200,000 items)': `{"path":"x","content":[${Array.from({ length: 200_000 }, () => '0').join(',')}]}`,
  'long key (600,000 characters)': `{"${'k'.repeat(600_000)}":1}`,
};

interface Daemon {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

async function startDaemon(workspace: string): Promise<Daemon> {
  const child = spawnCli(['serve', '--port', '0', '--workspace', workspace, '--extensions', workspace], { cwd: workspace });
  let stdout = '';
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`serve exited early: ${stderr}`)));
  });
  return { child, url, exited };
}

async function alive(daemon: Daemon): Promise<void> {
  expect(daemon.child.exitCode).toBeNull();
  const health = await fetch(`${daemon.url}/healthz`);
  expect(health.status).toBe(200);
}

function post(url: string, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

describe('hostile arguments against a real daemon', () => {
  let workspace: { path: string; remove: () => void };
  let daemon: Daemon;
  beforeAll(async () => {
    workspace = temporaryDirectory('toolhost-hostile-');
    daemon = await startDaemon(workspace.path);
  }, 30_000);
  afterAll(async () => {
    daemon.child.kill('SIGTERM');
    await daemon.exited;
    workspace.remove();
  });

  for (const [label, args] of Object.entries(HOSTILE_ARGUMENTS)) {
    it(`REST call: ${label} is refused with the limit named, and the daemon lives`, async () => {
      const response = await post(`${daemon.url}/v1/tools/write_file/call`, `{"arguments":${args}}`);
      const text = await response.text();
      expect([200, 400, 413]).toContain(response.status);
      expect(text).toMatch(/limit|too (deep|large|long|many)/i);
      if (response.status === 200) expect(JSON.parse(text)).toMatchObject({ is_error: true });
      await alive(daemon);
    }, 30_000);

    it(`dispatch (anthropic, openai, gemini): ${label} becomes an error result, and the daemon lives`, async () => {
      const bodies = [
        `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"write_file","input":${args}}]}`,
        `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"write_file","arguments":${JSON.stringify(args)}}}]}`,
        `{"role":"model","parts":[{"functionCall":{"name":"write_file","args":${args}}}]}`,
      ];
      for (const body of bodies) {
        const response = await post(`${daemon.url}/v1/dispatch`, body);
        const text = await response.text();
        expect([200, 400, 413]).toContain(response.status);
        expect(text).toMatch(/limit|too (deep|large|long|many)/i);
        await alive(daemon);
      }
    }, 60_000);

    it(`MCP over HTTP: ${label} is refused, and the daemon lives`, async () => {
      const init = await fetch(`${daemon.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } } }),
      });
      const session = init.headers.get('mcp-session-id');
      expect(session).toBeTruthy();
      await init.text();
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session as string, 'mcp-protocol-version': '2025-06-18' };
      await (await fetch(`${daemon.url}/mcp`, { method: 'POST', headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
      const response = await fetch(`${daemon.url}/mcp`, {
        method: 'POST',
        headers,
        body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write_file","arguments":${args}}}`,
      });
      const text = await response.text();
      expect(text).toMatch(/limit|too (deep|large|long|many)/i);
      await alive(daemon);
    }, 30_000);
  }
});

describe('hostile arguments against `toolhost mcp` over stdio', () => {
  it('refuses each with the limit named and keeps answering', async () => {
    const workspace = temporaryDirectory('toolhost-hostile-stdio-');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--workspace', workspace.path],
      env: cliEnvironment() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'hostile-stdio', version: '1.0.0' });
    await client.connect(transport);
    try {
      for (const args of Object.values(HOSTILE_ARGUMENTS)) {
        // The SDK client would serialize a JS value; send the raw text through the transport instead.
        const answered = new Promise<string>((resolve) => {
          const previous = transport.onmessage;
          transport.onmessage = (message) => {
            if ((message as { id?: unknown }).id === 'hostile') {
              transport.onmessage = previous;
              resolve(JSON.stringify(message));
            } else previous?.(message);
          };
        });
        (transport as unknown as { _process: ChildProcess })._process.stdin?.write(
          `{"jsonrpc":"2.0","id":"hostile","method":"tools/call","params":{"name":"write_file","arguments":${args}}}\n`,
        );
        expect(await answered).toMatch(/limit|too (deep|large|long|many)/i);
        const listed = await client.listTools();
        expect(listed.tools.length).toBeGreaterThan(0);
      }
    } finally {
      await client.close();
      workspace.remove();
    }
  }, 120_000);
});
