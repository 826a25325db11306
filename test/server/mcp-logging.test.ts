/**
 * MCP logging through real parts: the SDK's client over Streamable HTTP (a real daemon on loopback)
 * and over stdio (a real `toolhost mcp` process), a real wasm tool (rt-behave) writing to stderr.
 * `logging/setLevel`, each stderr line as `notifications/message` under `toolhost.tool.<name>` at the
 * level it states, host warnings (truncation, a denied call), secrets redacted, the per-call cap.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EmptyResultSchema, LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LOG_MESSAGES_PER_CALL, stderrLineLevel } from '../../src/server/mcp-logging.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { BIN, cliEnvironment } from '../cli/run-cli.ts';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from '../extensions/helpers.ts';
import { TEST_ADMIN_TOKEN } from './helpers.ts';

type LogParams = LoggingMessageNotification['params'];

const SECRET = 'sk-live-logging-5a7c9e1b3d';
/** rt-behave: `stderr <text> <code>` writes <text> to stderr and exits <code>; `flood <n>` writes n bytes to both. */
const spec = (name: string) => ({
  name,
  description: 'Does what its mode says (rt-behave).',
  positionals: [
    { name: 'mode', required: true },
    { name: 'text', required: true },
    { name: 'code', required: false },
  ],
});

let root: TempRoot;
let tools: string;
let ext: ExtHost;
let server: RunningServer;

beforeAll(async () => {
  process.env['TOOLHOST_SECRET_LOGGING_TEST_KEY'] = SECRET;
  root = tempRoot('toolhost-mcp-logging-');
  tools = root.folder('tools');
  const add = (name: string, sidecar: object = {}, policy?: object) => {
    copyFileSync(fixture('rt-behave'), join(tools, `${name}.wasm`));
    writeFileSync(join(tools, `${name}.tool.json`), JSON.stringify({ spec: spec(name), ...sidecar }));
    if (policy !== undefined) writeFileSync(join(tools, `${name}.policy.json`), JSON.stringify(policy));
  };
  add('speaker');
  add('flooder', {}, { output_bytes: 64 });
  add('leaky', { secret_params: ['text'] });
  add('forbidden');
  // http-fetch (a Rust fixture) fetches its url argument; its policy allows one other host only.
  copyFileSync(fixture('http-fetch'), join(tools, 'fetcher.wasm'));
  writeFileSync(join(tools, 'fetcher.policy.json'), JSON.stringify({ network: { allow: ['api.example.com'] } }));
  ext = await createExtHost({
    extensionsDir: tools,
    cacheDir: root.folder('cache'),
    workspaceRoot: root.folder('workspace'),
    approvals: [{ tool: 'forbidden', action: 'deny' }],
  });
  server = await startServer(ext.host, { port: 0, keepAliveMs: 0, adminToken: TEST_ADMIN_TOKEN, closeHost: false });
}, 120_000);

afterAll(async () => {
  delete process.env['TOOLHOST_SECRET_LOGGING_TEST_KEY'];
  await server?.close(2_000);
  await ext?.close();
  root?.remove();
});

/** A connected client and the log messages it received, in order; `next(n)` waits for n more. */
interface LoggedClient {
  client: Client;
  messages: LogParams[];
  /** Resolves once `messages` holds at least `count` entries (no sleeping: woken by each message). */
  received(count: number): Promise<LogParams[]>;
}

async function connect(transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<LoggedClient> {
  const client = new Client({ name: 'toolhost-logging-test', version: '1.0.0' });
  const messages: LogParams[] = [];
  let wake: () => void = () => undefined;
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    messages.push(notification.params);
    wake();
  });
  await client.connect(transport);
  const received = async (count: number): Promise<LogParams[]> => {
    while (messages.length < count) await new Promise<void>((resolve) => (wake = resolve));
    return messages;
  };
  return { client, messages, received };
}

const connectHttp = (): Promise<LoggedClient> => connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));

const STDERR = 'starting\nwarning: disk almost full\n[debug] detail\nERROR: gave up\n';
const EXPECTED_LINES: LogParams[] = [
  { level: 'info', logger: 'toolhost.tool.speaker', data: 'starting' },
  { level: 'warning', logger: 'toolhost.tool.speaker', data: 'warning: disk almost full' },
  { level: 'debug', logger: 'toolhost.tool.speaker', data: '[debug] detail' },
  { level: 'error', logger: 'toolhost.tool.speaker', data: 'ERROR: gave up' },
];

describe('MCP logging over Streamable HTTP', () => {
  it('declares the logging capability and accepts logging/setLevel with {}', async () => {
    const { client } = await connectHttp();
    try {
      expect(client.getServerCapabilities()?.logging).toEqual({});
      expect(await client.setLoggingLevel('debug')).toEqual({});
      // A level the protocol does not name is refused (the SDK answers -32603 with the schema's complaint).
      await expect(client.request({ method: 'logging/setLevel', params: { level: 'loud' as 'info' } }, EmptyResultSchema)).rejects.toThrow(/Invalid option/);
    } finally {
      await client.close();
    }
  });

  it("sends a wasm tool's stderr lines as log messages under the call's logger, each at the level it states", async () => {
    const { client, received } = await connectHttp();
    try {
      await client.setLoggingLevel('debug');
      const result = await client.callTool({ name: 'speaker', arguments: { mode: 'stderr', text: STDERR, code: '0' } });
      expect(result.isError).toBe(false);
      expect(await received(4)).toEqual(EXPECTED_LINES);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('honours the level: less severe messages are not sent (default info; after setLevel, that level)', async () => {
    const { client, messages, received } = await connectHttp();
    try {
      // Default level info: the debug line is left out. The last message marks the end of the call's messages.
      await client.callTool({ name: 'speaker', arguments: { mode: 'stderr', text: STDERR, code: '0' } });
      await received(3);
      expect(messages.map((message) => message.data)).toEqual(['starting', 'warning: disk almost full', 'ERROR: gave up']);
      await client.setLoggingLevel('error');
      await client.callTool({ name: 'speaker', arguments: { mode: 'stderr', text: 'quiet\nwarning: still quiet\nerror: loud\n', code: '0' } });
      await received(4);
      expect(messages.slice(3)).toEqual([{ level: 'error', logger: 'toolhost.tool.speaker', data: 'error: loud' }]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("sends an unmarked line of a failed call at level error, with the host's warnings first", async () => {
    const { client, received } = await connectHttp();
    try {
      const result = await client.callTool({ name: 'speaker', arguments: { mode: 'stderr', text: 'no such file\n', code: '3' } });
      expect(result.isError).toBe(true);
      expect(await received(1)).toEqual([{ level: 'error', logger: 'toolhost.tool.speaker', data: 'no such file' }]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('warns about output cut at the limit, a call the approval rules deny and a request the network policy refuses', async () => {
    const { client, messages, received } = await connectHttp();
    try {
      await client.setLoggingLevel('warning');
      const flooded = await client.callTool({ name: 'flooder', arguments: { mode: 'flood', text: '100000' } });
      expect(flooded.isError).toBe(false);
      await received(1);
      expect(messages[0]).toMatchObject({ level: 'warning', logger: 'toolhost.tool.flooder', data: { reason: 'truncated' } });
      const denied = await client.callTool({ name: 'forbidden', arguments: { mode: 'stderr', text: 'never runs', code: '0' } });
      expect(denied.isError).toBe(true);
      const all = await received(2);
      expect(all[1]).toMatchObject({ level: 'warning', logger: 'toolhost.tool.forbidden', data: { reason: 'approval_denied' } });
      expect(all.map((message) => message.data)).not.toContain('never runs'); // the tool never ran
      const fetched = await client.callTool({ name: 'fetcher', arguments: { url: 'http://127.0.0.1:9/private' } });
      expect(fetched.isError).toBe(true);
      const withDenial = await received(3);
      expect(withDenial[2]).toMatchObject({ level: 'warning', logger: 'toolhost.tool.fetcher', data: { reason: 'network_denied', kind: 'http', host: '127.0.0.1', port: 9 } });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('never sends a secret the tool writes to stderr', async () => {
    const { client, received } = await connectHttp();
    try {
      await client.setLoggingLevel('debug');
      await client.callTool({ name: 'leaky', arguments: { mode: 'stderr', text: 'key=<secret_ref:LOGGING_TEST_KEY>\n', code: '0' } });
      const [message] = await received(1);
      expect(message).toEqual({ level: 'info', logger: 'toolhost.tool.leaky', data: 'key=[REDACTED:LOGGING_TEST_KEY]' });
      expect(JSON.stringify(message)).not.toContain('sk-live');
    } finally {
      await client.close();
    }
  }, 60_000);

  it(`sends at most ${MAX_LOG_MESSAGES_PER_CALL} messages for a call that writes many lines: a notice, then the last lines`, async () => {
    const { client, messages, received } = await connectHttp();
    try {
      const lines = Array.from({ length: 300 }, (_, index) => `l${index}`);
      await client.callTool({ name: 'speaker', arguments: { mode: 'stderr', text: `${lines.join('\n')}\n`, code: '0' } });
      await received(MAX_LOG_MESSAGES_PER_CALL);
      // A marker call: every message of the first call arrived before this one's.
      await client.callTool({ name: 'speaker', arguments: { mode: 'stderr', text: 'marker\n', code: '0' } });
      await received(MAX_LOG_MESSAGES_PER_CALL + 1);
      expect(messages).toHaveLength(MAX_LOG_MESSAGES_PER_CALL + 1);
      expect(messages[0]).toMatchObject({ level: 'notice', data: { reason: 'log_lines_dropped' } });
      expect(messages.slice(1, MAX_LOG_MESSAGES_PER_CALL).map((message) => message.data)).toEqual(lines.slice(-(MAX_LOG_MESSAGES_PER_CALL - 1)));
      expect(messages[MAX_LOG_MESSAGES_PER_CALL]?.data).toBe('marker');
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('MCP logging over stdio (toolhost mcp)', () => {
  it("setLevel, then a wasm tool's stderr lines arrive as log messages", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--workspace', root.folder('stdio-workspace'), '--extensions', tools, '--cache-dir', root.folder('stdio-cache')],
      cwd: root.path,
      env: cliEnvironment() as Record<string, string>,
      stderr: 'pipe',
    });
    const { client, received } = await connect(transport);
    try {
      expect(client.getServerCapabilities()?.logging).toEqual({});
      expect(await client.setLoggingLevel('debug')).toEqual({});
      const result = await client.callTool({ name: 'speaker', arguments: { mode: 'stderr', text: STDERR, code: '0' } });
      expect(result.isError).toBe(false);
      expect(await received(4)).toEqual(EXPECTED_LINES);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('stderrLineLevel', () => {
  it('reads a leading level word in any case, bracketed or with a colon, and nothing else', () => {
    expect(stderrLineLevel('warn: x')).toBe('warning');
    expect(stderrLineLevel('  [INFO] x')).toBe('info');
    expect(stderrLineLevel('fatal: x')).toBe('critical');
    expect(stderrLineLevel('Error handling started')).toBeUndefined();
    expect(stderrLineLevel('errors: 3')).toBeUndefined();
    expect(stderrLineLevel('x'.repeat(100_000))).toBeUndefined();
  });
});
