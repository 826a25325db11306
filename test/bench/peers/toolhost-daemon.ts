/**
 * toolhost as a daemon: the shipped build (`node dist/src/cli/bin.js serve`, a separate process, its
 * default config) serving rt-echo, called over HTTP (`POST /v1/tools/rt-echo/call`, keep-alive
 * connections) one at a time and from many connections, and over MCP (the SDK's client over
 * Streamable HTTP on the same daemon, and JSON-RPC POSTed with the HTTP rows' own client), plus the built-in `list_dir` over HTTP (the host's own overhead).
 * The load generator shares the 2 cores with the daemon, as a local agent would.
 *
 * BENCH_DAEMON_NODE_ARGS adds node flags to the daemon, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
 * (the profile is written when the daemon exits on SIGTERM at the end of these rows).
 * BENCH_PER_TOOL_CONCURRENCY sets limits.per_tool_concurrency (default: half the pool).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { rowFromTimings, timeConcurrent, timeSequential, type BenchRow } from '../bench-table.ts';
import { DIST_BIN, EXPECTED_STDOUT, extensionsFolder, scaled, type BenchContext } from './context.ts';

const TOOL = 'rt-echo';

export interface Daemon {
  child: ChildProcess;
  url: URL;
}

/** Starts `toolhost serve` on an ephemeral port; `nodeArgs` go before the entry (default BENCH_DAEMON_NODE_ARGS). */
export async function startDaemon(context: BenchContext, nodeArgs = (process.env['BENCH_DAEMON_NODE_ARGS'] ?? '').split(' ').filter(Boolean)): Promise<Daemon> {
  const workspace = join(context.scratch, 'daemon-workspace');
  mkdirSync(workspace, { recursive: true });
  const config = join(workspace, 'toolhost.json');
  const perTool = process.env['BENCH_PER_TOOL_CONCURRENCY'];
  writeFileSync(config, JSON.stringify(perTool ? { limits: { per_tool_concurrency: Number(perTool) } } : {}));
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env['NODE_OPTIONS'];
  const child = spawn(
    process.execPath,
    [...nodeArgs, DIST_BIN, 'serve', '--port', '0', '--workspace', workspace, '--extensions', extensionsFolder(context), '--config', config, '--cache-dir', join(context.scratch, 'cli-cache')],
    { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // The daemon logs at its default level; its stderr is read for the ready line and otherwise dropped, as a supervisor would.
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (line.startsWith('toolhost ready: ')) resolve();
    });
  });
  const url = await new Promise<URL>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const found = /listening on (http:\/\/\S+)/.exec(line);
      if (found?.[1]) resolve(new URL(found[1]));
    });
    child.once('exit', (code) => reject(new Error(`toolhost serve exited with ${code} before listening`)));
  });
  // It listens before its tools have loaded: measure calls only once every tool is served.
  await ready;
  return { child, url };
}

export async function stopDaemon(daemon: Daemon): Promise<void> {
  if (daemon.child.exitCode !== null) return;
  const exited = new Promise((resolve) => daemon.child.once('exit', resolve));
  daemon.child.kill('SIGTERM');
  await exited;
}

/** What a bench call sends and how its answer is checked. */
export interface HttpCallTarget {
  tool: string;
  arguments: Record<string, unknown>;
  /** True when `content` is the answer the call should give. */
  expect(content: string): boolean;
}

const RT_ECHO_CALL: HttpCallTarget = { tool: TOOL, arguments: {}, expect: (content) => content.includes(EXPECTED_STDOUT) };

/**
 * A built-in that touches the file system a little: `list_dir` of the workspace (which holds the daemon's
 * config, hidden from the file tools: the listing shows the root and no entry).
 */
const BUILTIN_CALL: HttpCallTarget = { tool: 'list_dir', arguments: { path: '.' }, expect: (content) => content.startsWith('. (workspace root)') && !content.includes('toolhost.json') };

/** POSTs one call over a keep-alive connection and checks the tool's output came back (rt-echo unless told). */
export function httpCaller(url: URL, agent: Agent, target: HttpCallTarget = RT_ECHO_CALL): () => Promise<void> {
  const body = JSON.stringify({ arguments: target.arguments });
  return () =>
    new Promise((resolve, reject) => {
      const req = request(
        { agent, host: url.hostname, port: url.port, method: 'POST', path: `/v1/tools/${target.tool}/call`, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            const result = JSON.parse(text) as { content?: unknown; is_error?: boolean };
            if (response.statusCode === 200 && !result.is_error && target.expect(String(result.content))) resolve();
            else reject(new Error(`HTTP call failed: ${response.statusCode} ${text.slice(0, 300)}`));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

/** An MCP session (the SDK's client over Streamable HTTP) and a caller of rt-echo in it that checks the answer. */
export async function mcpCaller(url: URL): Promise<{ call: () => Promise<void>; close: () => Promise<void> }> {
  const client = new Client({ name: 'toolhost-bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url)));
  const expected = JSON.stringify(EXPECTED_STDOUT).slice(1, -1);
  const call = async (): Promise<void> => {
    const result = await client.callTool({ name: TOOL, arguments: {} });
    const text = JSON.stringify(result.content);
    if (result.isError || !text.includes(expected)) throw new Error(`MCP call failed: ${text.slice(0, 300)}`);
  };
  return { call, close: () => client.close() };
}

/**
 * A light MCP client: an initialized session, then `tools/call` POSTed to /mcp over a keep-alive
 * node:http connection (the same HTTP stack as the HTTP rows, so the difference is the daemon's).
 */
export async function mcpRawCaller(url: URL, agent: Agent): Promise<() => Promise<void>> {
  const post = (body: unknown, headers: Record<string, string>): Promise<{ status: number; session: string | undefined; text: string }> =>
    new Promise((resolve, reject) => {
      const data = JSON.stringify(body);
      const req = request(
        { agent, host: url.hostname, port: url.port, method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(data), ...headers } },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, session: response.headers['mcp-session-id'] as string | undefined, text }));
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  const initialized = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'toolhost-bench', version: '1' } } }, {});
  if (initialized.session === undefined) throw new Error(`MCP initialize failed: ${initialized.status} ${initialized.text.slice(0, 300)}`);
  const headers = { 'mcp-session-id': initialized.session, 'mcp-protocol-version': '2025-06-18' };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  // The tool's output inside the result's JSON text.
  const expected = JSON.stringify(EXPECTED_STDOUT).slice(1, -1);
  let id = 1;
  return async () => {
    const answer = await post({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: TOOL, arguments: {} } }, headers);
    if (answer.status !== 200 || answer.text.includes('"isError":true') || !answer.text.includes(expected)) throw new Error(`MCP call failed: ${answer.status} ${answer.text.slice(0, 300)}`);
  };
}

async function measureMcp(context: BenchContext, url: URL): Promise<BenchRow> {
  const session = await mcpCaller(url);
  try {
    const timings = await timeSequential(session.call, scaled(context, { warmup: 200, calls: 2000, maxSeconds: 6 }));
    return rowFromTimings('toolhost over MCP (SDK client, Streamable HTTP), sequential', timings, 'tools/call in one session, one at a time');
  } finally {
    await session.close();
  }
}

export async function measureToolhostDaemon(context: BenchContext): Promise<BenchRow[]> {
  if (!existsSync(DIST_BIN)) {
    const unavailable = `${DIST_BIN} is missing: run \`npm run build\``;
    return [{ path: 'toolhost over HTTP', unavailable }, { path: 'toolhost over MCP', unavailable }];
  }
  const daemon = await startDaemon(context);
  const agent = new Agent({ keepAlive: true, maxSockets: context.concurrency });
  try {
    const call = httpCaller(daemon.url, agent);
    const rows: BenchRow[] = [];
    rows.push(rowFromTimings('toolhost over HTTP (daemon), sequential', await timeSequential(call, scaled(context, { warmup: 500, calls: 5000, maxSeconds: 8 })), 'one keep-alive connection, one call at a time'));
    rows.push(
      rowFromTimings(
        `toolhost over HTTP (daemon), ${context.concurrency} connections`,
        await timeConcurrent(call, context.concurrency, scaled(context, { warmup: 500, calls: 30_000, maxSeconds: 10 })),
        `${context.concurrency} keep-alive connections, each one call at a time; latency is under that load`,
      ),
    );
    rows.push(
      rowFromTimings(
        'toolhost over HTTP (daemon), built-in `list_dir`, sequential',
        await timeSequential(httpCaller(daemon.url, agent, BUILTIN_CALL), scaled(context, { warmup: 500, calls: 5000, maxSeconds: 6 })),
        'one keep-alive connection, one call at a time; a built-in runs on the daemon\'s thread',
      ),
    );
    rows.push(await measureMcp(context, daemon.url));
    rows.push(
      rowFromTimings(
        'toolhost over MCP (JSON-RPC over node:http, Streamable HTTP), sequential',
        await timeSequential(await mcpRawCaller(daemon.url, agent), scaled(context, { warmup: 500, calls: 5000, maxSeconds: 8 })),
        'tools/call POSTed to /mcp in one session over one keep-alive connection (the HTTP rows\' client), one at a time',
      ),
    );
    return rows;
  } finally {
    agent.destroy();
    await stopDaemon(daemon);
  }
}
