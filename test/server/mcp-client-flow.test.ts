/**
 * Issue 27's "Done when", as a user's MCP client lives it: the SDK's Client against real toolhost
 * processes (the spawned CLI), a real wasm tool (progress-report) in the extensions folder.
 *   - Streamable HTTP against `toolhost serve`: set a log level, call a long (spinning) wasm tool with a
 *     progress token, see progress notifications and log messages while it runs, cancel it through the
 *     SDK's AbortSignal (which sends notifications/cancelled), see in the daemon that the call ended
 *     (`call_finished` on `/v1/events`, nothing in flight on `/healthz`, the call in `/v1/calls`), then
 *     read a workspace file through resources/read.
 *   - The same flow over stdio against `toolhost mcp`, plus an image-producing tool (the conformance
 *     fixture's test_image_content) whose result is MCP image content.
 * The daemons run with one worker and an hour's call budget (config `limits.pool_size: 1`,
 * `limits.timeout_ms`): a later call of the tool can only run once the cancel terminated the spinning
 * worker (no deadline would), which is how the stdio half (no HTTP to look into) sees the call gone.
 * Everything waits on events (notifications, SSE records); nothing asserts on time.
 */
import { copyFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema, type CallToolResult, type LoggingMessageNotification, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnvironment } from '../cli/run-cli.ts';
import { fixture, PROJECT_ROOT, tempRoot, type TempRoot } from '../extensions/helpers.ts';
import { startTestDaemon, type TestDaemon } from '../security/daemon.ts';
import { TEST_ADMIN_TOKEN } from './helpers.ts';
import { SseReader } from './sse.ts';

type LogParams = LoggingMessageNotification['params'];

/** The bytes test/fixtures/c/mcp-conformance.c prints as test_image_content (a 1x1 red PNG). */
const RED_PIXEL_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const NOTES = '# Plan\n\n- ship the MCP flow\n- résumé: ✓\n';
const REPORTER_SPEC = {
  name: 'reporter',
  description: 'Reports progress on stderr (progress-report).',
  positionals: [
    { name: 'mode', required: true },
    { name: 'n', required: false },
  ],
};

let root: TempRoot;
let workspace: string;
let tools: string;
let configFile: string;
let daemon: TestDaemon;

beforeAll(async () => {
  root = tempRoot('toolhost-mcp-client-flow-');
  workspace = root.folder('workspace');
  tools = root.folder('tools');
  mkdirSync(join(workspace, 'docs'));
  writeFileSync(join(workspace, 'docs', 'notes.md'), NOTES);
  copyFileSync(fixture('progress-report'), join(tools, 'reporter.wasm'));
  writeFileSync(join(tools, 'reporter.tool.json'), JSON.stringify({ spec: REPORTER_SPEC }));
  copyFileSync(fixture('mcp-conformance'), join(tools, 'test_image_content.wasm'));
  copyFileSync(join(PROJECT_ROOT, 'test/conformance/tools/test_image_content.tool.json'), join(tools, 'test_image_content.tool.json'));
  const configDirectory = root.folder('config');
  configFile = join(configDirectory, 'toolhost.json');
  daemon = await startTestDaemon({
    workspace,
    configDirectory,
    // One worker, and a call budget far past the tests' own: only the cancel can end the spin.
    config: { limits: { pool_size: 1, timeout_ms: 3_600_000 } },
    args: ['--extensions', tools, '--cache-dir', root.folder('cache')],
    env: { TOOLHOST_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
  });
}, 180_000);

afterAll(async () => {
  await daemon?.stop();
  root?.remove();
});

/** A connected client that records log messages and progress; `until` waits, woken by each notification. */
interface FlowClient {
  client: Client;
  logs: LogParams[];
  until(what: string, condition: () => boolean): Promise<void>;
  wake(): void;
}

async function connect(transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<FlowClient> {
  const client = new Client({ name: 'toolhost-client-flow-test', version: '1.0.0' });
  const logs: LogParams[] = [];
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params);
    wake();
  });
  await client.connect(transport);
  // A dead transport must fail the wait, not hang it until the test's timeout.
  let closed = false;
  client.onclose = () => {
    closed = true;
    wake();
  };
  const until = async (what: string, condition: () => boolean): Promise<void> => {
    while (!condition()) {
      if (closed) throw new Error(`the connection closed while waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const done = (): void => {
          waiters.delete(done);
          resolve();
        };
        waiters.add(done);
      });
    }
  };
  return { client, logs, until, wake };
}

/** tools/call with a progress token (the SDK sends one when `onprogress` is given) and a cancel signal. */
function callWithProgress(connected: FlowClient, name: string, args: Record<string, unknown>, seen: Progress[], signal?: AbortSignal): Promise<CallToolResult> {
  return connected.client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, {
    onprogress: (progress) => {
      seen.push(progress);
      connected.wake();
    },
    ...(signal ? { signal } : {}),
    timeout: 120_000,
  }) as Promise<CallToolResult>;
}

/**
 * The user's flow up to the cancel: log level, a spinning call with a progress token, its progress and
 * log message arriving while it runs, then the SDK's abort. Resolves once the client has given up on it.
 */
async function spinAndCancel(connected: FlowClient, whileRunning: () => Promise<void> = async () => undefined): Promise<void> {
  await connected.client.setLoggingLevel('info');
  const seen: Progress[] = [];
  const controller = new AbortController();
  const settled = callWithProgress(connected, 'reporter', { mode: 'spin' }, seen, controller.signal).then(
    (result) => `answered: ${JSON.stringify(result)}`,
    (error: unknown) => String(error),
  );
  await connected.until('the spinning call to report progress and log', () => seen.length >= 1 && connected.logs.length >= 1);
  expect(seen[0]).toEqual({ progress: 1, total: 3, message: 'spinning' });
  expect(connected.logs[0]).toEqual({ level: 'warning', logger: 'toolhost.tool.reporter', data: 'warning: spinning now' });
  await whileRunning();
  controller.abort('the user pressed stop');
  expect(await settled).toMatch(/AbortError|the user pressed stop/);
}

const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

async function readNotes(client: Client): Promise<void> {
  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.uri)).toContain('file:///docs/notes.md');
  const read = await client.readResource({ uri: 'file:///docs/notes.md' });
  expect(read.contents).toHaveLength(1);
  expect(read.contents[0]).toMatchObject({ uri: 'file:///docs/notes.md', text: NOTES });
}

/** The next SSE record of /v1/events matching `predicate` (records are events; each has its own timeout). */
async function nextEvent(events: SseReader, predicate: (event: string, data: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (;;) {
    const record = await events.next(120_000);
    const data = JSON.parse(record.data) as Record<string, unknown>;
    if (predicate(record.event, data)) return data;
  }
}

const health = async (): Promise<{ in_flight_calls: number }> => (await (await fetch(`${daemon.url}/healthz`)).json()) as { in_flight_calls: number };

describe('a user\'s MCP client against `toolhost serve` over Streamable HTTP', () => {
  it('sees progress and log messages during a long wasm call, cancels it (the daemon shows it ended), and reads a workspace file as a resource', async () => {
    const eventsResponse = await fetch(`${daemon.url}/v1/events`);
    expect(eventsResponse.status).toBe(200);
    const events = new SseReader(eventsResponse);
    const connected = await connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`)));
    try {
      await spinAndCancel(connected, async () => {
        // While the guest spins, the daemon counts the call in flight.
        expect((await health()).in_flight_calls).toBe(1);
      });
      // The daemon ends the call: its call_finished event, then nothing in flight.
      const finished = await nextEvent(events, (event, data) => event === 'call_finished' && data['tool'] === 'reporter');
      expect(finished['is_error']).toBe(true);
      expect((await health()).in_flight_calls).toBe(0);
      // The history (admin token) has it as an MCP call the cancel ended (no deadline could: an hour's budget).
      const history = await fetch(`${daemon.url}/v1/calls/${String(finished['call_id'])}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(history.status).toBe(200);
      expect(await history.json()).toMatchObject({
        tool: 'reporter',
        transport: 'mcp',
        is_error: true,
        arguments: { mode: 'spin' },
        result: { content: 'the call was cancelled before the tool finished', is_error: true, metadata: { cancelled: true } },
      });
      // One worker: this call runs only because the spinning worker was terminated.
      const after = (await connected.client.callTool({ name: 'reporter', arguments: { mode: 'steps', n: '1' } })) as CallToolResult;
      expect(textOf(after)).toBe('1 steps done');
      await readNotes(connected.client);
    } finally {
      await events.cancel();
      await connected.client.close();
    }
  }, 180_000);
});

describe('a user\'s MCP client against `toolhost mcp` over stdio', () => {
  it('sees progress and log messages during a long wasm call, cancels it, reads a workspace file as a resource, and gets an image as image content', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--workspace', workspace, '--extensions', tools, '--cache-dir', root.folder('stdio-cache'), '--config', configFile],
      cwd: workspace,
      env: cliEnvironment() as Record<string, string>,
      stderr: 'pipe',
    });
    const connected = await connect(transport);
    try {
      await spinAndCancel(connected);
      // One worker: the next call of the tool runs only once the spinning worker was terminated.
      const after = (await connected.client.callTool({ name: 'reporter', arguments: { mode: 'steps', n: '1' } }, undefined, { timeout: 120_000 })) as CallToolResult;
      expect(textOf(after)).toBe('1 steps done');
      await readNotes(connected.client);
      const image = (await connected.client.callTool({ name: 'test_image_content', arguments: {} }, undefined, { timeout: 120_000 })) as CallToolResult;
      expect(image.isError).toBe(false);
      expect(image.content).toEqual([{ type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: 'image/png' }]);
    } finally {
      await connected.client.close();
    }
  }, 180_000);
});
