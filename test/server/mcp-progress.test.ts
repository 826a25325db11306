/**
 * Progress and cancellation through real parts: the SDK's client over Streamable HTTP against a real
 * daemon on loopback (and over stdio against a real `toolhost mcp`), a real wasm tool (the C fixture
 * progress-report) reporting progress with `toolhost-progress:` lines on stderr, the `shell` built-in
 * (bytes of output so far), and the host's own waits (approval, quota). A cancelled spinning call's
 * worker is terminated: asserted on the pool's state (worker exited, nothing in flight), not on time.
 * As an attacker: a tool flooding progress and stderr lines reaches the client throttled and capped,
 * and lines that only look like progress stay plain stderr.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema, type CallToolResult, type LoggingMessageNotification, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAITING_FOR_APPROVAL, WAITING_FOR_QUOTA } from '../../src/call-events.ts';
import type { Host } from '../../src/host-types.ts';
import { createHost } from '../../src/host.ts';
import { wasmExtensions, type WasmExtensionSource } from '../../src/extensions/wasm-extensions.ts';
import { MCP_METADATA_KEY } from '../../src/server/mcp-server.ts';
import { MAX_LIVE_LOG_LINES } from '../../src/server/mcp-call-events.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { PROGRESS_BURST } from '../../src/wasm/stderr-events.ts';
import { BIN, cliEnvironment } from '../cli/run-cli.ts';
import { fixture, tempRoot, waitFor, type TempRoot } from '../extensions/helpers.ts';
import { isRunning } from './daemon-process.ts';
import { decideApproval, pendingApprovals, TEST_ADMIN_TOKEN } from './helpers.ts';

type LogParams = LoggingMessageNotification['params'];

const spec = (name: string) => ({
  name,
  description: 'Reports progress on stderr (progress-report).',
  positionals: [
    { name: 'mode', required: true },
    { name: 'n', required: false },
  ],
});

const SECRET = 'sk-live-progress-8d1f4a2c6e';
let root: TempRoot;
let tools: string;
let host: Host;
let source: WasmExtensionSource | undefined;
let server: RunningServer;

beforeAll(async () => {
  root = tempRoot('toolhost-mcp-progress-');
  tools = root.folder('tools');
  for (const name of ['reporter', 'gated', 'limited']) {
    copyFileSync(fixture('progress-report'), join(tools, `${name}.wasm`));
    writeFileSync(join(tools, `${name}.tool.json`), JSON.stringify({ spec: spec(name) }));
  }
  // rt-behave `stderr <text> <code>` writes <text> to stderr: a secret argument in a progress message.
  process.env['TOOLHOST_SECRET_PROGRESS_TEST_KEY'] = SECRET;
  copyFileSync(fixture('rt-behave'), join(tools, 'leaky.wasm'));
  const leakySpec = { name: 'leaky', description: 'Writes its text to stderr (rt-behave).', positionals: [{ name: 'mode', required: true }, { name: 'text', required: true }, { name: 'code', required: false }] };
  writeFileSync(join(tools, 'leaky.tool.json'), JSON.stringify({ spec: leakySpec, secret_params: ['text'] }));
  const factory = wasmExtensions();
  host = await createHost(
    {
      extensionsDir: tools,
      cacheDir: root.folder('cache'),
      workspaceRoot: root.folder('workspace'),
      permissionMode: 'execute',
      limits: { poolSize: 2, perToolConcurrency: 2 },
      approvals: [{ tool: 'gated', action: 'ask' }],
      quotas: { limited: { concurrency: 1 } },
    },
    { extensions: (context) => (source = factory(context) as WasmExtensionSource) },
  );
  server = await startServer(host, { port: 0, keepAliveMs: 0, adminToken: TEST_ADMIN_TOKEN, closeHost: false });
}, 120_000);

afterAll(async () => {
  delete process.env['TOOLHOST_SECRET_PROGRESS_TEST_KEY'];
  await server?.close(2_000);
  await host?.close({ graceMs: 2_000 });
  root?.remove();
});

/** A connected client with the log messages it received; `until` waits (woken by each notification, no sleeping). */
interface ProgressClient {
  client: Client;
  logs: LogParams[];
  until(condition: () => boolean): Promise<void>;
  /** Wakes `until` waiters; call from an onprogress handler. */
  wake(): void;
}

async function connect(transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<ProgressClient> {
  const client = new Client({ name: 'toolhost-progress-test', version: '1.0.0' });
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
  const until = async (condition: () => boolean): Promise<void> => {
    while (!condition()) {
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

const connectHttp = (): Promise<ProgressClient> => connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));

/** tools/call with a progress token; the progress reports land in `seen`. */
function callWithProgress(connected: ProgressClient, name: string, args: Record<string, unknown>, seen: Progress[], signal?: AbortSignal): Promise<CallToolResult> {
  return connected.client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, {
    onprogress: (progress) => {
      seen.push(progress);
      connected.wake();
    },
    ...(signal ? { signal } : {}),
    timeout: 120_000,
  }) as Promise<CallToolResult>;
}

const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;
const metadataOf = (result: CallToolResult): Record<string, unknown> => (result._meta?.[MCP_METADATA_KEY] ?? {}) as Record<string, unknown>;

/** Live processes whose command line contains `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (commandLine.includes(marker) && isRunning(Number(entry))) found.push(Number(entry));
  }
  return found;
}

function expectIncreasing(seen: readonly Progress[]): void {
  for (let index = 1; index < seen.length; index += 1) expect(seen[index]!.progress).toBeGreaterThan(seen[index - 1]!.progress);
}

describe('progress from a wasm tool over Streamable HTTP', () => {
  it('sends each toolhost-progress line as notifications/progress and each other stderr line as a log message while the call runs', async () => {
    const connected = await connectHttp();
    try {
      await connected.client.setLoggingLevel('info');
      const seen: Progress[] = [];
      const result = await callWithProgress(connected, 'reporter', { mode: 'steps', n: '4' }, seen);
      expect(result.isError).toBe(false);
      expect(textOf(result)).toBe('4 steps done');
      // The SDK drops progress that comes after the response: these arrived while the call ran.
      expect(seen).toEqual([1, 2, 3, 4].map((step) => ({ progress: step, total: 4, message: `step ${step}` })));
      expect(connected.logs.map((log) => log.data)).toEqual(['info: step 1', 'info: step 2', 'info: step 3', 'info: step 4']);
      expect(connected.logs.every((log) => log.logger === 'toolhost.tool.reporter' && log.level === 'info')).toBe(true);
      // Progress lines are the tool talking to the host: not part of its stderr.
      expect(String(metadataOf(result)['stderr'])).not.toContain('toolhost-progress');
      expect(String(metadataOf(result)['stderr'])).toContain('info: step 4');
    } finally {
      await connected.client.close();
    }
  }, 60_000);

  it('a call without a progress token gets no progress, and its result is the same', async () => {
    const connected = await connectHttp();
    try {
      const result = await connected.client.callTool({ name: 'reporter', arguments: { mode: 'steps', n: '2' } });
      expect(textOf(result as CallToolResult)).toBe('2 steps done');
      expect(String(metadataOf(result as CallToolResult)['stderr'])).not.toContain('toolhost-progress');
      // Default level info: the lines still arrive, just before the result.
      expect(connected.logs.map((log) => log.data)).toEqual(['info: step 1', 'info: step 2']);
    } finally {
      await connected.client.close();
    }
  }, 60_000);

  it('notifications/cancelled stops a spinning call: its worker is terminated and nothing stays in flight', async () => {
    const runtime = source?.runtime;
    if (runtime === undefined) throw new Error('the wasm extension source was not created');
    const connected = await connectHttp();
    try {
      await connected.client.setLoggingLevel('info');
      const seen: Progress[] = [];
      const controller = new AbortController();
      const call = callWithProgress(connected, 'reporter', { mode: 'spin' }, seen, controller.signal);
      const settled = call.then(
        () => 'answered',
        (error: unknown) => String(error),
      );
      // The progress and the log line written before the spin arrive while the guest spins.
      await connected.until(() => seen.length >= 1 && connected.logs.length >= 1);
      expect(seen[0]).toEqual({ progress: 1, total: 3, message: 'spinning' });
      expect(connected.logs[0]).toMatchObject({ level: 'warning', data: 'warning: spinning now' });
      expect(host.inFlightCalls()).toBe(1);
      const exitedBefore = runtime.stats().workersExited;
      controller.abort('the user pressed stop');
      expect(await settled).toMatch(/AbortError|the user pressed stop/);
      // The client does not wait for the server; the server's state says the spin is gone.
      await waitFor('the spinning worker to exit', () => runtime.stats().workersExited > exitedBefore, 60_000);
      await waitFor('no call in flight', () => host.inFlightCalls() === 0 && runtime.stats().running === 0, 60_000);
      // The pool replaced the worker: the next call runs.
      const after = await connected.client.callTool({ name: 'reporter', arguments: { mode: 'steps', n: '1' } });
      expect(textOf(after as CallToolResult)).toBe('1 steps done');
    } finally {
      await connected.client.close();
    }
  }, 120_000);
});

describe('a tool that floods (attacker)', () => {
  it('thousands of progress and stderr lines reach the client throttled and capped, and the daemon keeps answering', async () => {
    const connected = await connectHttp();
    try {
      await connected.client.setLoggingLevel('debug');
      const seen: Progress[] = [];
      const lines = 20_000;
      const flood = callWithProgress(connected, 'reporter', { mode: 'flood', n: String(lines) }, seen);
      // While it floods, the daemon answers other requests.
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      const result = await flood;
      expect(textOf(result)).toBe('flooded');
      expectIncreasing(seen);
      // The last report is not lost (it waited as the pending one), and far fewer than written got through.
      expect(seen.at(-1)).toEqual({ progress: lines, total: lines });
      expect(seen.length).toBeGreaterThanOrEqual(Math.min(PROGRESS_BURST, 2));
      expect(seen.length).toBeLessThan(lines / 20);
      const stderrLogs = connected.logs.filter((log) => typeof log.data === 'string');
      expect(stderrLogs.length).toBe(MAX_LIVE_LOG_LINES);
      expect(stderrLogs[0]?.data).toBe('line 1');
      expect(connected.logs.at(-1)).toMatchObject({ level: 'notice', data: { reason: 'log_lines_dropped' } });
      // Only the plain lines are stderr.
      expect(String(metadataOf(result)['stderr'])).not.toContain('toolhost-progress');
    } finally {
      await connected.client.close();
    }
  }, 120_000);

  it('never sends a secret a tool writes into a progress message or a live log line', async () => {
    const connected = await connectHttp();
    try {
      await connected.client.setLoggingLevel('debug');
      const seen: Progress[] = [];
      const text = 'toolhost-progress: 1/2 using <secret_ref:PROGRESS_TEST_KEY>\nkey=<secret_ref:PROGRESS_TEST_KEY>\n';
      const result = await callWithProgress(connected, 'leaky', { mode: 'stderr', text, code: '0' }, seen);
      expect(seen).toEqual([{ progress: 1, total: 2, message: 'using [REDACTED:PROGRESS_TEST_KEY]' }]);
      expect(connected.logs).toEqual([{ level: 'info', logger: 'toolhost.tool.leaky', data: 'key=[REDACTED:PROGRESS_TEST_KEY]' }]);
      expect(JSON.stringify([seen, connected.logs, result])).not.toContain(SECRET);
    } finally {
      await connected.client.close();
    }
  }, 60_000);

  it('a line that only looks like progress is plain stderr: no progress, kept in the result and the log', async () => {
    const connected = await connectHttp();
    try {
      await connected.client.setLoggingLevel('debug');
      const seen: Progress[] = [];
      const result = await callWithProgress(connected, 'reporter', { mode: 'malformed' }, seen);
      expect(textOf(result)).toBe('done');
      expect(seen).toEqual([]);
      const stderr = String(metadataOf(result)['stderr']);
      for (const line of ['Toolhost-progress: 1/2 wrong case', ' toolhost-progress: 1/2 leading space', 'toolhost-progress: -1/2 negative', 'toolhost-progress: 1e3 exponent', 'toolhost-progress: 1/0 zero total', 'toolhost-progress:1/2 no space']) {
        expect(stderr).toContain(line);
      }
      expect(connected.logs).toHaveLength(6);
    } finally {
      await connected.client.close();
    }
  }, 60_000);
});

describe('progress from the shell built-in and from the host\'s waits', () => {
  it('shell: the bytes of output so far', async () => {
    const connected = await connectHttp();
    try {
      const seen: Progress[] = [];
      const command = "printf '%0100d' 0; sleep 0.6; printf '%0100d' 0; sleep 0.6; printf '%0100d' 0";
      const result = await callWithProgress(connected, 'shell', { command }, seen);
      expect(result.isError).toBe(false);
      expectIncreasing(seen);
      expect(seen.length).toBeGreaterThanOrEqual(2);
      for (const report of seen) {
        expect(report.progress % 100).toBe(0);
        expect(report.progress).toBeLessThanOrEqual(300);
        expect(report.message).toBe(`${report.progress} bytes of output`);
      }
    } finally {
      await connected.client.close();
    }
  }, 60_000);

  it('shell: notifications/cancelled kills the command at once (its process is gone) and nothing stays in flight', async () => {
    const connected = await connectHttp();
    try {
      // A marker no other process has, to find the command's process in /proc (a PID namespace hides its own pid).
      const marker = `${Math.floor(Math.random() * 1e6)}.${process.pid}`;
      const seen: Progress[] = [];
      const controller = new AbortController();
      const call = callWithProgress(connected, 'shell', { command: `echo started; exec sleep ${marker}` }, seen, controller.signal).catch((error: unknown) => String(error));
      await connected.until(() => seen.length >= 1);
      expect(seen[0]).toEqual({ progress: 8, message: '8 bytes of output' });
      const pids = await waitFor('the command to run', () => {
        const found = processesWith(marker);
        return found.length > 0 ? found : undefined;
      });
      controller.abort();
      expect(await call).toMatch(/AbortError|aborted/i);
      await waitFor('the command to be killed', () => pids.every((pid) => !isRunning(pid)) && processesWith(marker).length === 0, 60_000);
      await waitFor('no call in flight', () => host.inFlightCalls() === 0, 60_000);
    } finally {
      await connected.client.close();
    }
  }, 60_000);

  it('a call that waits for approval reports "waiting for approval", then its own progress once allowed', async () => {
    const connected = await connectHttp();
    try {
      const seen: Progress[] = [];
      const call = callWithProgress(connected, 'gated', { mode: 'steps', n: '2' }, seen);
      await connected.until(() => seen.length >= 1);
      expect(seen[0]).toEqual({ progress: 0, message: WAITING_FOR_APPROVAL });
      const [pending] = await pendingApprovals(server.url);
      expect((await decideApproval(server.url, pending.id, 'allow')).status).toBe(200);
      const result = await call;
      expect(textOf(result)).toBe('2 steps done');
      expect(seen.slice(1)).toEqual([1, 2].map((step) => ({ progress: step, total: 2, message: `step ${step}` })));
    } finally {
      await connected.client.close();
    }
  }, 60_000);

  it('a call that waits for its quota reports "waiting for quota"; cancelling the call holding the slot lets it run', async () => {
    const connected = await connectHttp();
    try {
      const holderSeen: Progress[] = [];
      const stop = new AbortController();
      const holder = callWithProgress(connected, 'limited', { mode: 'spin' }, holderSeen, stop.signal).catch((error: unknown) => String(error));
      await connected.until(() => holderSeen.length >= 1);
      const seen: Progress[] = [];
      const waiting = callWithProgress(connected, 'limited', { mode: 'steps', n: '1' }, seen);
      await connected.until(() => seen.length >= 1);
      expect(seen[0]).toEqual({ progress: 0, message: WAITING_FOR_QUOTA });
      stop.abort();
      await holder;
      const result = await waiting;
      expect(textOf(result)).toBe('1 steps done');
      expect(seen.at(-1)).toEqual({ progress: 1, total: 1, message: 'step 1' });
    } finally {
      await connected.client.close();
    }
  }, 120_000);
});

describe('progress over stdio (toolhost mcp)', () => {
  it('a wasm tool\'s progress lines arrive as notifications/progress', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--workspace', root.folder('stdio-workspace'), '--extensions', tools, '--cache-dir', root.folder('stdio-cache')],
      cwd: root.path,
      env: cliEnvironment() as Record<string, string>,
      stderr: 'pipe',
    });
    const connected = await connect(transport);
    try {
      const seen: Progress[] = [];
      const result = await callWithProgress(connected, 'reporter', { mode: 'steps', n: '3' }, seen);
      expect(textOf(result)).toBe('3 steps done');
      expect(seen).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
      // A progress token makes the call stream: its stderr lines came as it ran.
      expect(connected.logs.map((log) => log.data)).toEqual(['info: step 1', 'info: step 2', 'info: step 3']);
    } finally {
      await connected.client.close();
    }
  }, 120_000);
});
