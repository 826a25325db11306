/**
 * MCP Streamable HTTP sessions across a fleet (issue 29): three real `toolhost serve` replicas, a
 * real Redis and a real HAProxy balancing every request round-robin. A session initialized on one
 * replica answers on the others (each rebuilds it from the fleet's record); 30 SDK clients through
 * the balancer each list and call tools several times while their requests alternate replicas; a log
 * level set through one replica holds on another; DELETE through one replica ends the session on
 * every replica. Waits are on answers, never on time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADERS, TEST_ADMIN_TOKEN } from '../server/helpers.ts';
import { SseReader } from '../server/sse.ts';
import { startFleet, type Fleet } from './harness.ts';

let folder: string;
let fleet: Fleet;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'toolhost-fleet-mcp-'));
  writeFileSync(join(folder, 'hello.txt'), 'hello from the fleet\n');
  fleet = await startFleet({ count: 3, cwd: folder, env: { TOOLHOST_ADMIN_TOKEN: TEST_ADMIN_TOKEN } });
}, 180_000);

afterAll(async () => {
  await fleet?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const MCP_HEADERS = { ...ADMIN_HEADERS, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** One JSON-RPC message posted to a replica's /mcp; the answer's JSON-RPC body (JSON or the SSE's last data line). */
async function post(url: string, message: Record<string, unknown>, sessionId?: string): Promise<{ status: number; sessionId: string | null; body: any }> {
  const headers: Record<string, string> = { ...MCP_HEADERS, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  const response = await fetch(`${url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...message }) });
  const text = await response.text();
  const data = text.startsWith('{') ? text : (text.split('\n').filter((line) => line.startsWith('data: ')).pop()?.slice(6) ?? '');
  return { status: response.status, sessionId: response.headers.get('mcp-session-id'), body: data === '' ? undefined : JSON.parse(data) };
}

async function initialize(url: string): Promise<string> {
  const answer = await post(url, { id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'fleet-test', version: '1' } } });
  expect(answer.status).toBe(200);
  const id = answer.sessionId;
  if (id === null) throw new Error('no session id');
  expect((await post(url, { method: 'notifications/initialized' }, id)).status).toBe(202);
  return id;
}

describe('MCP sessions in a fleet', () => {
  it('a session initialized on replica A answers on B and C, and DELETE through C ends it on every replica', async () => {
    const [a, b, c] = fleet.replicas.map((replica) => replica.url) as [string, string, string];
    const id = await initialize(a);
    for (const url of [b, c, a]) {
      const listed = await post(url, { id: 2, method: 'tools/list' }, id);
      expect(listed.status).toBe(200);
      expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toContain('read_file');
    }
    const read = await post(b, { id: 3, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'hello.txt' } } }, id);
    expect(read.body.result.isError).toBe(false);
    expect(read.body.result.content[0].text).toContain('hello from the fleet');
    const ended = await fetch(`${c}/mcp`, { method: 'DELETE', headers: { ...MCP_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION } });
    expect(ended.status).toBe(200);
    // Every replica, the ones that held a copy included, now answers 404 (each waits for the notice).
    for (const url of [a, b, c]) {
      for (;;) {
        const after = await post(url, { id: 4, method: 'tools/list' }, id);
        if (after.status === 404) break;
        expect(after.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  });

  it('a log level set through one replica holds on another', async () => {
    const [a, b] = fleet.replicas.map((replica) => replica.url) as [string, string];
    // Output past shell's limit is cut, and the host warns about it as a `warning` log message.
    const bigOutput = { name: 'shell', arguments: { command: "head -c 300000 /dev/zero | tr '\\0' a" } };
    const callOn = async (url: string, id: string): Promise<string> => {
      const headers: Record<string, string> = { ...MCP_HEADERS, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION, 'mcp-session-id': id };
      const response = await fetch(`${url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: bigOutput }) });
      expect(response.status).toBe(200);
      return response.text();
    };
    // Control: at the default level (info) the warning is sent before the result.
    const plain = await initialize(a);
    expect(await callOn(b, plain)).toContain('"reason":"truncated"');
    // Level `emergency` set through a: b, which rebuilds the session, hides the warning too.
    const quiet = await initialize(a);
    expect((await post(a, { id: 2, method: 'logging/setLevel', params: { level: 'emergency' } }, quiet)).status).toBe(200);
    const answer = await callOn(b, quiet);
    expect(answer).not.toContain('notifications/message');
    expect(answer).toContain('output truncated');
  });

  it('a resource subscription made through C reaches the GET stream the client holds on B', async () => {
    const [a, b, c] = fleet.replicas.map((replica) => replica.url) as [string, string, string];
    const id = await initialize(a);
    writeFileSync(join(folder, 'watched.txt'), 'one\n');
    const stream = await fetch(`${b}/mcp`, { headers: { ...ADMIN_HEADERS, accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION } });
    expect(stream.status).toBe(200);
    const events = new SseReader(stream);
    try {
      const resources = await post(c, { id: 2, method: 'resources/list' }, id);
      const listed = (resources.body.result.resources as Array<{ uri: string }>).map((resource) => resource.uri);
      const watched = listed.find((candidate) => candidate.endsWith('/watched.txt')) ?? 'file:///watched.txt';
      expect((await post(c, { id: 3, method: 'resources/subscribe', params: { uri: watched } }, id)).status).toBe(200);
      // b's copy of the session follows the subscription (replayed there): the file is rewritten until b's
      // GET stream says it changed (the rewrites only pace the wait; nothing asserts on time).
      let seen = false;
      const writer = (async () => {
        for (let round = 0; !seen; round++) {
          writeFileSync(join(folder, 'watched.txt'), `change ${round}\n`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      try {
        for (;;) {
          const record = await events.next(60_000);
          const message = JSON.parse(record.data) as { method?: string; params?: { uri?: string } };
          if (message.method !== 'notifications/resources/updated') continue;
          expect(message.params?.uri).toBe(watched);
          break;
        }
      } finally {
        seen = true;
        await writer;
      }
    } finally {
      await events.cancel();
    }
  });

  it('30 SDK clients through the balancer keep their sessions while their requests alternate replicas', async () => {
    const clients = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const client = new Client({ name: `fleet-client-${index}`, version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${fleet.balancer.url}/mcp`), { requestInit: { headers: ADMIN_HEADERS } }));
        return client;
      }),
    );
    try {
      const rounds = await Promise.all(
        clients.map(async (client) => {
          const seen: boolean[] = [];
          for (let round = 0; round < 4; round++) {
            const listed = await client.listTools();
            seen.push(listed.tools.some((tool) => tool.name === 'read_file'));
            const read = (await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } })) as { isError?: boolean; content: Array<{ text?: string }> };
            seen.push(read.isError !== true && (read.content[0]?.text ?? '').includes('hello from the fleet'));
          }
          return seen;
        }),
      );
      expect(rounds.flat().every(Boolean)).toBe(true);
      expect(rounds.flat()).toHaveLength(30 * 8);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  it('one replica SIGKILLed mid-load: clients that retry keep their sessions and every call succeeds', async () => {
    const victim = fleet.replicas[2];
    if (victim === undefined) throw new Error('three replicas expected');
    const clients = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const client = new Client({ name: `fleet-kill-client-${index}`, version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${fleet.balancer.url}/mcp`), { requestInit: { headers: ADMIN_HEADERS } }));
        return client;
      }),
    );
    let completed = 0;
    let retried = 0;
    let killed: Promise<unknown> | undefined;
    /** A call retried as a client would (a request that died with its replica fails; the next lands elsewhere). */
    const withRetry = async <T>(run: () => Promise<T>): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await run();
        } catch (error) {
          if (attempt >= 5) throw error;
          retried += 1;
        }
      }
    };
    try {
      const results = await Promise.all(
        clients.map(async (client) => {
          const oks: boolean[] = [];
          for (let round = 0; round < 8; round++) {
            const read = (await withRetry(() => client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } }))) as { content: Array<{ text?: string }> };
            oks.push((read.content[0]?.text ?? '').includes('hello from the fleet'));
            const listed = await withRetry(() => client.listTools());
            oks.push(listed.tools.length > 0);
            completed += 1;
            // Mid-load: once a third of the rounds are done, the victim dies (an event of the load, not a time).
            if (killed === undefined && completed >= (clients.length * 8) / 3) {
              victim.child.kill('SIGKILL');
              killed = victim.exited;
            }
          }
          return oks;
        }),
      );
      await killed;
      expect(killed).toBeDefined();
      expect(victim.child.signalCode).toBe('SIGKILL');
      expect(results.flat()).toHaveLength(12 * 16);
      expect(results.flat().every(Boolean)).toBe(true);
      // Informational: how many requests died with the replica and were retried.
      console.log(`calls retried after the SIGKILL: ${retried}`);
    } finally {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    }
  });
});
