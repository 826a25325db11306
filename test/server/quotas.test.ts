/**
 * Quotas end to end: a real config file read by resolveConfig, a host with the test tools, a real
 * HTTP server on loopback. A call over per_minute is a retryable is_error with retry_after_ms;
 * calls over concurrency queue up to the bound and are refused beyond it; /metrics shows both; an
 * MCP client and dispatched calls meet the same gate.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.ts';
import { MCP_METADATA_KEY } from '../../src/server/mcp-server.ts';
import { createHost, DEFAULT_CALL_TIMEOUT_MS } from '../../src/host.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { postJson, readJson, TEST_TOOLS, temporaryDirectory } from './helpers.ts';

let server: RunningServer;

beforeAll(async () => {
  const folder = temporaryDirectory('toolhost-quotas-');
  const configFile = join(folder, 'toolhost.json');
  writeFileSync(configFile, JSON.stringify({ workspace: folder, quotas: { echo: { per_minute: 2 }, 'sl*': { concurrency: 1, queue: 1 } } }));
  const config = resolveConfig({ configFile, env: {} });
  const host = await createHost(config.host, { builtinTools: TEST_TOOLS });
  server = await startServer(host, { port: 0, keepAliveMs: 0 });
});

afterAll(async () => {
  await server?.close(2_000);
});

async function call(name: string, args: Record<string, unknown>): Promise<any> {
  return readJson(await postJson(`${server.url}/v1/tools/${name}/call`, { arguments: args }));
}

async function metrics(): Promise<string> {
  return (await fetch(`${server.url}/metrics`)).text();
}

/** Uses up echo's per_minute budget (whatever earlier tests spent), so a test can also run alone. */
async function exhaustEcho(): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if ((await call('echo', { text: 'spend' })).is_error) return;
  }
  throw new Error('echo was never refused');
}

/** Polls /metrics until `line` appears (no fixed sleeps: the server's own numbers say when). */
async function metricsLine(line: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await metrics()).split('\n').includes(line)) {
    if (Date.now() > deadline) throw new Error(`/metrics never showed ${line}:\n${await metrics()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('quotas over HTTP', () => {
  it('refuses a call over per_minute with a retryable is_error carrying retry_after_ms', async () => {
    expect(await call('echo', { text: 'a' })).toMatchObject({ is_error: false, content: 'a' });
    expect(await call('echo', { text: 'b' })).toMatchObject({ is_error: false, content: 'b' });
    const refused = await call('echo', { text: 'c' });
    expect(refused).toMatchObject({ is_error: true, metadata: { reason: 'quota_exceeded', quota: 'echo', limit: 'per_minute', retryable: true } });
    expect(refused.metadata.retry_after_ms).toBeGreaterThan(0);
    expect(refused.metadata.retry_after_ms).toBeLessThanOrEqual(60_000);
    expect(refused.content).toMatch(/^Rate limited: the host allows tool echo at most 2 call\(s\) per minute, so this call was not run\. It is safe to retry/);
    const text = await metrics();
    expect(text).toContain('toolhost_quota_refused_total{tool="echo",reason="per_minute"} 1');
    expect(text).toContain('toolhost_quota_window_calls{tool="echo"} 2');
  });

  it('queues a call over concurrency, refuses one beyond the queue, then runs the queued one', async () => {
    const first = call('slow', { ms: 600, label: 'first' });
    await metricsLine('toolhost_quota_in_use{tool="sl*"} 1');
    const second = call('slow', { ms: 10, label: 'second' });
    await metricsLine('toolhost_quota_waiting{tool="sl*"} 1');
    const third = await call('slow', { ms: 10, label: 'third' });
    expect(third).toMatchObject({ is_error: true, metadata: { reason: 'quota_exceeded', quota: 'sl*', limit: 'concurrency', retryable: true } });
    // No call has finished yet: the slot frees by the running call's budget (the host's 10 s default) at the latest,
    // less the time it has run; not a constant.
    expect(third.metadata.retry_after_ms).toBeGreaterThan(1_000);
    expect(third.metadata.retry_after_ms).toBeLessThanOrEqual(DEFAULT_CALL_TIMEOUT_MS);
    expect(third.content).toContain('tools matching "sl*" (here slow) at most 1 call(s) at once and 1 waiting');
    expect(await first).toMatchObject({ is_error: false, content: 'done first' });
    expect(await second).toMatchObject({ is_error: false, content: 'done second' });
    const text = await metrics();
    expect(text).toContain('toolhost_quota_refused_total{tool="sl*",reason="concurrency"} 1');
    expect(text).toContain('toolhost_quota_queued_total{tool="sl*"} 1');
    expect(text).toContain('toolhost_quota_in_use{tool="sl*"} 0');
    expect(text).toContain('toolhost_quota_waiting{tool="sl*"} 0');
  });

  it('applies to dispatched calls too (one gate in the host)', async () => {
    await exhaustEcho();
    const response = await postJson(`${server.url}/v1/dispatch?provider=text`, { text: '<tool_call>{"name": "echo", "arguments": {"text": "d"}}</tool_call>' });
    const body = await readJson(response);
    expect(body.results[0].result).toMatchObject({ is_error: true, metadata: { limit: 'per_minute' } });
  });

  it('refuses an MCP tools/call over the quota with the metadata in _meta', async () => {
    await exhaustEcho();
    const client = new Client({ name: 'toolhost-quota-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'e' } });
      expect(result.isError).toBe(true);
      const metadata = (result._meta as Record<string, any> | undefined)?.[MCP_METADATA_KEY];
      expect(metadata).toMatchObject({ reason: 'quota_exceeded', limit: 'per_minute', retryable: true });
      expect(metadata.retry_after_ms).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
