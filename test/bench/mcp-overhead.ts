/**
 * What MCP Streamable HTTP costs over the plain HTTP API for the same call (prints numbers, asserts
 * nothing): one process runs the daemon's server (src/, a built-in `echo` tool, so no wasm worker
 * is involved) and the callers, and measures CPU time per call (this process's user + system, which
 * a loaded machine inflates much less than wall time) and wall p50/p99, in alternating batches so
 * both doors see the same load:
 * - HTTP: `POST /v1/tools/echo/call` over a keep-alive node:http connection;
 * - MCP raw: `tools/call` POSTed to /mcp over the same kind of connection (the daemon's side only);
 * - MCP SDK: the SDK's client over Streamable HTTP (what an MCP client pays, both sides).
 *
 *   node --import tsx test/bench/mcp-overhead.ts
 *
 * Env: BENCH_CALLS (per door, default 3000), BENCH_BATCH (calls per batch, default 100).
 */
import { Agent, request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer } from '../server/helpers.ts';

const calls = Number(process.env['BENCH_CALLS'] ?? 3000);
const batch = Number(process.env['BENCH_BATCH'] ?? 100);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function post(agent: Agent, url: URL, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, method: 'POST', path, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(data), ...headers } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const server = await startTestServer();
const url = new URL(server.url);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const initialize = await post(agent, url, '/mcp', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
const sessionHeaders = { 'mcp-session-id': String(initialize.headers['mcp-session-id']), 'mcp-protocol-version': '2025-06-18' };
await post(agent, url, '/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders);
const client = new Client({ name: 'bench', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url)));

let nextId = 1;
const doors: Record<string, () => Promise<void>> = {
  'HTTP API': async () => {
    const answer = await post(agent, url, '/v1/tools/echo/call', { arguments: { text: 'hi' } });
    if (answer.status !== 200 || !answer.text.includes('"hi"')) throw new Error(`HTTP call failed: ${answer.text}`);
  },
  'MCP raw (node:http client)': async () => {
    const answer = await post(agent, url, '/mcp', { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }, sessionHeaders);
    if (answer.status !== 200 || !answer.text.includes('"hi"')) throw new Error(`MCP call failed: ${answer.text}`);
  },
  'MCP (SDK client)': async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    if (result.isError) throw new Error(`MCP call failed: ${JSON.stringify(result)}`);
  },
};

const measured = new Map<string, { cpuUs: number; times: number[] }>(Object.keys(doors).map((name) => [name, { cpuUs: 0, times: [] }]));
try {
  for (const call of Object.values(doors)) for (let index = 0; index < 200; index += 1) await call();
  for (let done = 0; done < calls; done += batch) {
    for (const [name, call] of Object.entries(doors)) {
      const entry = measured.get(name)!;
      const cpu = process.cpuUsage();
      for (let index = 0; index < batch; index += 1) {
        const begin = performance.now();
        await call();
        entry.times.push(performance.now() - begin);
      }
      const used = process.cpuUsage(cpu);
      entry.cpuUs += used.user + used.system;
    }
  }
} finally {
  await client.close();
  agent.destroy();
  await server.close();
}

const reference = measured.get('HTTP API')!;
const referenceCpu = reference.cpuUs / reference.times.length;
const referenceP50 = percentile(reference.times, 0.5);
console.log(`${calls} calls per door in batches of ${batch}, alternating; one process (server + callers), CPU is this process's user + system.\n`);
console.log('| door | CPU µs/call | ÷ HTTP | p50 ms | p99 ms | p50 ÷ HTTP |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [name, entry] of measured) {
  const cpu = entry.cpuUs / entry.times.length;
  const p50 = percentile(entry.times, 0.5);
  console.log(`| ${name} | ${cpu.toFixed(0)} | ${(cpu / referenceCpu).toFixed(2)} | ${p50.toFixed(3)} | ${percentile(entry.times, 0.99).toFixed(2)} | ${(p50 / referenceP50).toFixed(2)} |`);
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}
