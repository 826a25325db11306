/**
 * `toolhost serve` is ready at once: it listens before the extensions folder has loaded, serves each
 * tool as its file loads (an `added` event each), says on `GET /readyz` whether the first load is
 * done, and a call to a tool whose file is still loading waits for it instead of failing.
 *
 * The slow file is deterministic, not a big component on a fast or slow machine: help-grants with
 * HELP_MODE=hang spins in `--help` and `-h` until each run's time budget ends (3 s, one retry of
 * 15 s, 3 s), so its load takes at least ~21 s whatever the CPU. Nothing here measures time: each
 * step waits on an answer or an event.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '../../src/result.ts';
import { startTestDaemon, type TestDaemon } from '../security/daemon.ts';
import { SseReader } from '../server/sse.ts';
import { PROJECT_ROOT, temporaryDirectory } from './run-cli.ts';

const build = join(PROJECT_ROOT, 'test', 'fixtures', 'build');

interface ReadyBody {
  ready: boolean;
  loading: string[];
  loaded: number;
  load_failures: number;
  tools: number;
}

async function readyz(daemon: TestDaemon): Promise<{ status: number; body: ReadyBody }> {
  const response = await fetch(`${daemon.url}/readyz`);
  return { status: response.status, body: (await response.json()) as ReadyBody };
}

/** Settles when the daemon's stderr has said `text` (it writes "toolhost ready: ..." once the first load is done). */
function saidOnStderr(daemon: TestDaemon, text: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = (): void => {
      if (!daemon.stderr().includes(text)) return;
      daemon.child.stderr?.off('data', check);
      resolve();
    };
    daemon.child.stderr?.on('data', check);
    check();
  });
}

/** Reads SSE records until one is the `added` event of `name`. */
async function addedEvent(events: SseReader, name: string): Promise<{ name: string; file?: string }> {
  for (;;) {
    const record = await events.next(120_000);
    if (record.event !== 'added') continue;
    const data = JSON.parse(record.data) as { name: string; file?: string };
    if (data.name === name) return data;
  }
}

describe('toolhost serve: ready at once', { timeout: 180_000 }, () => {
  let root: { path: string; remove: () => void };
  let daemon: TestDaemon;
  let events: SseReader;

  beforeAll(async () => {
    root = temporaryDirectory();
    const tools = join(root.path, 'tools');
    mkdirSync(tools);
    copyFileSync(join(build, 'ext-greet.wasm'), join(tools, 'ext-greet.wasm'));
    copyFileSync(join(build, 'help-grants.wasm'), join(tools, 'slow.wasm'));
    writeFileSync(join(tools, 'slow.policy.json'), JSON.stringify({ env: { HELP_MODE: 'hang' } }));
    daemon = await startTestDaemon({
      workspace: root.path,
      args: ['--extensions', tools],
      // The host's call budget bounds how long a call waits for a loading tool: room for the ~21 s load.
      config: { limits: { timeout_ms: 120_000 } },
      env: { TOOLHOST_CACHE_DIR: join(root.path, 'cache') },
      // This test is about the phase before the folder has loaded.
      waitReady: false,
    });
    const response = await fetch(`${daemon.url}/v1/events`);
    expect(response.status).toBe(200);
    events = new SseReader(response);
  }, 120_000);

  afterAll(async () => {
    await events?.cancel();
    await daemon?.stop();
    root?.remove();
  });

  it('listens before the folder has loaded: /healthz answers, /readyz is 503 with the files still loading', async () => {
    const health = await fetch(`${daemon.url}/healthz`);
    expect(health.status).toBe(200);
    const { status, body } = await readyz(daemon);
    expect(status).toBe(503);
    expect(body.ready).toBe(false);
    expect(body.loading).toContain('slow.wasm');
    // Paths are shown relative to the extensions folder, never the host's layout.
    expect(body.loading.every((file) => !file.startsWith('/'))).toBe(true);
  });

  it('serves a tool as soon as its file loads, while another is still loading', async () => {
    const listed = async (): Promise<string[]> => ((await (await fetch(`${daemon.url}/v1/tools`)).json()) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    // Subscribed before looking: the event cannot slip between the look and the wait.
    if (!(await listed()).includes('ext-greet')) expect((await addedEvent(events, 'ext-greet')).file).toBe('ext-greet.wasm');
    expect(await listed()).toContain('ext-greet');
    const greeted = await daemon.call('ext-greet', { name: 'Ada' });
    expect(greeted).toMatchObject({ is_error: false });
    expect(greeted.content).toContain('Hello, Ada!');
    // The slow file is still loading (its help runs have budgets adding up to ~21 s).
    const { status, body } = await readyz(daemon);
    expect(status).toBe(503);
    expect(body.loading).toEqual(['slow.wasm']);
    expect(body.loaded).toBe(1);
    expect(await listed()).not.toContain('slow');
  });

  it('answers a name no file provides at once, without waiting for the load', async () => {
    const response = await fetch(`${daemon.url}/v1/tools/no_such_tool/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: {} }) });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unknown_tool');
    // Still loading: the 404 did not wait for the first load to end.
    expect((await readyz(daemon)).status).toBe(503);
    // Looking a loading tool up (not calling it) says so: 503 tool_loading.
    const detail = await fetch(`${daemon.url}/v1/tools/slow`);
    expect(detail.status).toBe(503);
    expect(((await detail.json()) as { error: { code: string; details: { file: string } } }).error).toMatchObject({ code: 'tool_loading', details: { file: 'slow.wasm' } });
  });

  it('a call to a tool still loading waits for it and runs, over HTTP and dispatch alike; then /readyz is 200', async () => {
    expect((await readyz(daemon)).status).toBe(503);
    const dispatched = fetch(`${daemon.url}/v1/dispatch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'slow', input: {} }] }),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));
    const result: ToolResult = await daemon.call('slow', {});
    expect(result).toMatchObject({ is_error: false });
    expect(result.content).toContain('ran');
    const dispatch = await dispatched;
    expect(dispatch.status).toBe(200);
    expect(JSON.stringify(dispatch.body)).toContain('ran');
    // The load is over: the event stream announced the tool, and the daemon is ready.
    expect(await addedEvent(events, 'slow')).toMatchObject({ file: 'slow.wasm' });
    await saidOnStderr(daemon, 'toolhost ready:');
    const { status, body } = await readyz(daemon);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ready: true, loading: [], loaded: 2, load_failures: 0 });
    expect(daemon.stderr()).toContain('"msg":"extension loaded"');
  });
});
