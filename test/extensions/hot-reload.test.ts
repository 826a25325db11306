/**
 * Hot reload (`watch: true`) on real components in a real temp folder: files dropped in, overwritten,
 * broken, written slowly, renamed and deleted; calls in flight across a swap; and end to end through
 * a real server on loopback: the SSE event stream and an MCP client over Streamable HTTP.
 */
import { copyFileSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src/host-types.ts';
import type { ToolResult } from '../../src/result.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { SseReader } from '../server/sse.ts';
import { createExtHost, ENVELOPE_SIDECAR, fixture, sleep, tempRoot, waitFor, waitForEvent, type ExtHost, type TempRoot } from './helpers.ts';

const GREET = fixture('ext-greet');
const GREET2 = fixture('ext-greet2');

/**
 * Copies a greet component to `target` with its `.tool.json` opting in to the output envelope the
 * fixture prints; the sidecar goes first, so the watcher never loads the component without it.
 */
function dropGreet(source: string, target: string): void {
  writeFileSync(target.replace(/\.wasm$/, '.tool.json'), JSON.stringify(ENVELOPE_SIDECAR));
  copyFileSync(source, target);
}

const isEvent =
  (type: HostEvent['type'], fields: Record<string, unknown> = {}) =>
  (event: HostEvent): boolean =>
    event.type === type && Object.entries(fields).every(([key, value]) => (event as Record<string, unknown>)[key] === value);

describe('hot reload of the extensions folder', () => {
  let root: TempRoot;
  let cacheDir: string;
  const hosts: ExtHost[] = [];
  let counter = 0;

  /** A host watching a fresh extensions folder that holds `files` (target name → source component). */
  async function watching(files: Record<string, string> = {}): Promise<ExtHost & { folder: string }> {
    const folder = root.folder(`extensions-${counter++}`);
    for (const [name, source] of Object.entries(files)) dropGreet(source, join(folder, name));
    const created = await createExtHost({ workspaceRoot: root.path, extensionsDir: folder, cacheDir, watch: true });
    hosts.push(created);
    return { ...created, folder };
  }

  beforeAll(async () => {
    root = tempRoot('toolhost-hot-');
    cacheDir = root.folder('cache');
    // Warm the transpile cache with both versions, so swaps below are quick and calls overlap them.
    const warm = await watching({ 'ext-greet.wasm': GREET, 'ext-greet2.wasm': GREET2 });
    expect(warm.host.loadFailures()).toEqual([]);
  }, 120_000);
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((entry) => entry.close()));
  });
  afterAll(() => root.remove());

  it('a component dropped into an empty folder is added and callable', async () => {
    const { host, events, folder } = await watching();
    expect(host.listTools().some((tool) => tool.source === 'wasm')).toBe(false);
    dropGreet(GREET, join(folder, 'ext-greet.wasm'));
    const added = await waitForEvent(events, isEvent('added', { name: 'ext-greet' }));
    expect(added).toEqual({ type: 'added', name: 'ext-greet', source: 'wasm', file: join(folder, 'ext-greet.wasm') });
    expect(host.listTools().map((tool) => tool.name)).toContain('ext-greet');
    expect(await host.callTool('ext-greet', { name: 'Ada' })).toMatchObject({ is_error: false, content: 'Hello, Ada!', metadata: { version: 1 } });
    expect(events.filter((event) => event.type !== 'added' && event.type !== 'call_finished')).toEqual([]); // calls announce themselves too
  }, 30_000);

  it('overwriting the file with another component is an update: new description, new behaviour', async () => {
    const { host, events, folder } = await watching({ 'ext-greet.wasm': GREET });
    const before = host.registry.get('ext-greet');
    expect(before?.description).toBe('Greets someone by name');
    copyFileSync(GREET2, join(folder, 'ext-greet.wasm'));
    const updated = await waitForEvent(events, isEvent('updated', { name: 'ext-greet' }));
    expect(updated).toEqual({ type: 'updated', name: 'ext-greet', source: 'wasm', file: join(folder, 'ext-greet.wasm') });
    expect(host.registry.get('ext-greet')?.description).toBe('Greets someone by name, second edition');
    expect(await host.callTool('ext-greet', { name: 'Ada' })).toMatchObject({ is_error: false, content: 'Hello, Ada! (v2)', metadata: { version: 2 } });
    // An update, not a remove + add.
    expect(events.filter((event) => event.type !== 'call_finished').map((event) => event.type)).toEqual(['updated']);
  }, 30_000);

  it('a sidecar change reloads the tool too (.tool.json added → renamed tool)', async () => {
    const { host, events, folder } = await watching({ 'ext-greet.wasm': GREET });
    writeFileSync(join(folder, 'ext-greet.tool.json'), JSON.stringify({ ...ENVELOPE_SIDECAR, name: 'greeter' }));
    await waitForEvent(events, isEvent('added', { name: 'greeter' }));
    await waitForEvent(events, isEvent('removed', { name: 'ext-greet' }));
    expect(await host.callTool('greeter', { name: 'Ada' })).toMatchObject({ is_error: false, content: 'Hello, Ada!' });
    expect(host.registry.get('ext-greet')).toBeUndefined();
  }, 30_000);

  it('overwriting with garbage reports load_failed and keeps the previous version serving', async () => {
    const { host, events, folder } = await watching({ 'ext-greet.wasm': GREET });
    const file = join(folder, 'ext-greet.wasm');
    writeFileSync(file, 'definitely not wasm\n'.repeat(50));
    const failed = await waitForEvent(events, isEvent('load_failed', { file }));
    expect(failed).toMatchObject({ type: 'load_failed', file, error: expect.any(String), code: expect.any(String) });
    expect(host.loadFailures()).toEqual([expect.objectContaining({ file })]);
    expect(host.registry.get('ext-greet')?.source).toBe('wasm');
    expect(await host.callTool('ext-greet', { name: 'Ada' })).toMatchObject({ is_error: false, content: 'Hello, Ada!', metadata: { version: 1 } });
    expect(events.some((event) => event.type === 'removed')).toBe(false);

    // A good file again: updated, and the failure is cleared.
    const mark = events.length;
    copyFileSync(GREET2, file);
    await waitForEvent(events, isEvent('updated', { name: 'ext-greet' }), mark);
    expect(host.loadFailures()).toEqual([]);
    expect(await host.callTool('ext-greet', { name: 'Ada' })).toMatchObject({ content: 'Hello, Ada! (v2)' });
  }, 30_000);

  it('a file written slowly in two chunks ends up loaded, not failed', async () => {
    const { host, events, folder } = await watching();
    const file = join(folder, 'ext-greet.wasm');
    writeFileSync(join(folder, 'ext-greet.tool.json'), JSON.stringify(ENVELOPE_SIDECAR));
    const bytes = readFileSync(GREET);
    const half = Math.floor(bytes.length / 2);
    const handle = await open(file, 'w');
    await handle.write(bytes, 0, half, 0);
    await sleep(300);
    await handle.write(bytes, half, bytes.length - half, half);
    await handle.close();
    await waitFor('the tool to be registered', () => host.registry.get('ext-greet'));
    // A half-written file that sat still longer than the watcher's stability window may have been
    // tried (and reported) on the way; what matters is the end state.
    await waitFor(() => `no load failures left (have ${JSON.stringify(host.loadFailures())})`, () => host.loadFailures().length === 0);
    expect(events.filter((event) => event.type === 'added')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'load_failed').every((event) => event.type === 'load_failed' && event.file === file)).toBe(true);
    expect(await host.callTool('ext-greet', { name: 'Ada' })).toMatchObject({ is_error: false, content: 'Hello, Ada!' });
  }, 30_000);

  it('renaming the file removes the old tool and adds one named after the new file (the help prints argv[0])', async () => {
    const { host, events, folder } = await watching({ 'ext-greet.wasm': GREET });
    writeFileSync(join(folder, 'salute.tool.json'), JSON.stringify(ENVELOPE_SIDECAR)); // the envelope opt-in for the new name
    renameSync(join(folder, 'ext-greet.wasm'), join(folder, 'salute.wasm'));
    await waitForEvent(events, isEvent('removed', { name: 'ext-greet' }));
    const added = await waitForEvent(events, isEvent('added', { name: 'salute' }));
    expect(added).toMatchObject({ source: 'wasm', file: join(folder, 'salute.wasm') });
    expect(host.listTools().filter((tool) => tool.source === 'wasm').map((tool) => tool.name)).toEqual(['salute']);
    expect(await host.callTool('salute', { name: 'Ada' })).toMatchObject({ is_error: false, content: 'Hello, Ada!' });
    expect(await host.callTool('ext-greet', { name: 'Ada' })).toMatchObject({ is_error: true });
    expect(host.loadFailures()).toEqual([]);
  }, 30_000);

  it('deleting the file removes the tool', async () => {
    const { host, events, folder } = await watching({ 'ext-greet.wasm': GREET });
    unlinkSync(join(folder, 'ext-greet.wasm'));
    const removed = await waitForEvent(events, isEvent('removed', { name: 'ext-greet' }));
    expect(removed).toEqual({ type: 'removed', name: 'ext-greet', source: 'wasm', file: join(folder, 'ext-greet.wasm') });
    expect(host.registry.get('ext-greet')).toBeUndefined();
    const call = await host.callTool('ext-greet', { name: 'Ada' });
    expect(call.is_error).toBe(true);
    expect(call.metadata).toMatchObject({ reason: 'unknown' });
  }, 30_000);

  it('a dropped-in component named like a built-in is a collision event and serves under a suffix; the built-in keeps serving', async () => {
    const { host, events, folder } = await watching();
    dropGreet(GREET, join(folder, 'read_file.wasm'));
    const collision = await waitForEvent(events, isEvent('collision', { name: 'read_file' }));
    expect(collision).toMatchObject({ kept: 'builtin', rejected: 'wasm', file: join(folder, 'read_file.wasm'), reason: expect.stringContaining('built-ins keep their names') });
    await waitForEvent(events, isEvent('added', { name: 'read_file_2' }));
    expect(host.registry.get('read_file')?.source).toBe('builtin');
    expect(host.registry.get('read_file_2')?.details?.['file']).toBe(join(folder, 'read_file.wasm'));
    expect(host.loadFailures()).toEqual([]);
  }, 30_000);

  it('a call in flight finishes on the old version while the new one is swapped in', async () => {
    const { host, events, folder } = await watching({ 'ext-greet.wasm': GREET });
    let settled = false;
    const inFlight: Promise<ToolResult> = host.callTool('ext-greet', { name: 'Old', delay_ms: 3000 }).finally(() => {
      settled = true;
    });
    await waitFor('the call to start', () => host.inFlightCalls() === 1);
    copyFileSync(GREET2, join(folder, 'ext-greet.wasm'));
    await waitForEvent(events, isEvent('updated', { name: 'ext-greet' }));
    // The swap happened while the old call was still running (it sleeps 3 s; a warm reload takes far less).
    expect(settled).toBe(false);
    expect(await host.callTool('ext-greet', { name: 'New' })).toMatchObject({ is_error: false, content: 'Hello, New! (v2)', metadata: { version: 2 } });
    const old = await inFlight;
    expect(old).toMatchObject({ is_error: false, content: 'Hello, Old!', metadata: { version: 1, exit_code: 0 } });
  }, 30_000);

  describe('end to end: server, SSE and MCP', () => {
    let server: RunningServer | undefined;
    let client: Client | undefined;
    let sse: SseReader | undefined;
    afterEach(async () => {
      await sse?.cancel();
      await client?.close().catch(() => undefined);
      await server?.close(2_000);
      server = undefined;
      client = undefined;
      sse = undefined;
    });

    it('a dropped file shows up on /v1/events, as tools/list_changed over MCP, and is callable over MCP', async () => {
      const { host, folder } = await watching();
      server = await startServer(host, { port: 0, keepAliveMs: 0 });
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const response = await fetch(`${server.url}/v1/events`, { headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(200);
      sse = new SseReader(response);

      client = new Client({ name: 'toolhost-hot-reload-test', version: '1.0.0' });
      const listChanged = new Promise<void>((resolve) => client?.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      const before = await client.listTools();
      expect(before.tools.map((tool) => tool.name)).not.toContain('ext-greet');
      // The client opens its standalone GET stream (where notifications arrive) right after initializing.
      await sleep(200);

      dropGreet(GREET, join(folder, 'ext-greet.wasm'));

      let record = await sse.next(10_000);
      while (record.event !== 'added') record = await sse.next(10_000);
      // Relative to the extensions folder: the host's absolute layout stays on the host.
      expect(JSON.parse(record.data)).toEqual({ type: 'added', name: 'ext-greet', source: 'wasm', file: 'ext-greet.wasm' });
      expect(record.id).toMatch(/^\d+$/);

      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        listChanged,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('no notifications/tools/list_changed within 10 s')), 10_000);
        }),
      ]).finally(() => clearTimeout(timer));

      const after = await client.listTools();
      const tool = after.tools.find((candidate) => candidate.name === 'ext-greet');
      expect(tool?.inputSchema).toMatchObject({ type: 'object', required: ['name'] });
      const result = await client.callTool({ name: 'ext-greet', arguments: { name: 'MCP', times: 2 } });
      expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'Hello, MCP! Hello, MCP!' }], _meta: { 'toolhost/metadata': { times: 2, exit_code: 0 } } });
    }, 60_000);
  });
});
