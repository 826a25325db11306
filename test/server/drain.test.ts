/**
 * SIGTERM drains a real `toolhost serve` process: /readyz turns 503 `{draining: true}` at once while
 * /healthz stays 200, a new call is refused with 503 `shutting_down` + `Retry-After`, the call in
 * flight finishes (it waits for a file the test writes only after checking all that), a background
 * process is killed with a result saying the replica is shutting down, and the process exits 0.
 * With a short `--drain-timeout-ms` a call that never ends is cancelled and the process still exits 0.
 * Nothing is timed: each step waits on an answer, a file or the exit.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolResult } from '../../src/result.ts';
import { startTestDaemon, type TestDaemon } from '../security/daemon.ts';
import { temporaryDirectory } from '../cli/run-cli.ts';

const WAIT = { timeout: 60_000, interval: 50 };

let root: { path: string; remove: () => void } | undefined;
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  root?.remove();
  root = undefined;
});

async function start(args: readonly string[] = []): Promise<{ daemon: TestDaemon; workspace: string; exited: Promise<number | null> }> {
  root = temporaryDirectory('toolhost-drain-');
  const workspace = join(root.path, 'workspace');
  const extensions = join(root.path, 'extensions');
  mkdirSync(workspace);
  mkdirSync(extensions);
  const started = await startTestDaemon({ workspace, configDirectory: root.path, config: { limits: { timeout_ms: 120_000 } }, args: ['--extensions', extensions, ...args] });
  daemon = started;
  const exited = new Promise<number | null>((resolve) => started.child.on('exit', (code) => resolve(code)));
  return { daemon: started, workspace, exited };
}

async function getJson(url: string): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

function postCall(url: string, name: string, args: Record<string, unknown>): Promise<Response> {
  return fetch(`${url}/v1/tools/${name}/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: args }) });
}

/** A shell command that runs until `file` exists (then prints `released`), and says it started by creating `started`. */
function waitForFileCommand(file: string, started: string): string {
  return `touch ${started}; while [ ! -e ${file} ]; do sleep 0.05; done; echo released`;
}

describe('SIGTERM drains the daemon', { timeout: 180_000 }, () => {
  it('readiness goes false first, new calls are refused with Retry-After, the call in flight finishes, background processes end, exit 0', async () => {
    const { daemon: running, workspace, exited } = await start();
    const url = running.url;
    expect((await getJson(`${url}/readyz`)).body).toMatchObject({ ready: true, draining: false });

    const background = await running.call('shell', { command: 'sleep 1000', run_in_background: true });
    const processId = (background.metadata as { process_id: string }).process_id;
    const waiting = postCall(url, 'process', { action: 'wait', process_id: processId, timeout_ms: 100_000 });
    const long = postCall(url, 'shell', { command: waitForFileCommand('release', 'started'), timeout_ms: 100_000 });
    await expect.poll(() => existsSync(join(workspace, 'started')), WAIT).toBe(true);
    await expect.poll(async () => (await getJson(`${url}/healthz`)).body['in_flight_calls'], WAIT).toBe(2);

    running.child.kill('SIGTERM');
    // Readiness goes false while the daemon still listens and the long call runs.
    await expect.poll(async () => (await getJson(`${url}/readyz`)).status, WAIT).toBe(503);
    const ready = await getJson(`${url}/readyz`);
    expect(ready.body).toMatchObject({ ready: false, draining: true });
    expect(ready.body['reason']).toMatch(/^draining: /);
    const health = await getJson(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', draining: true });
    // The drain kills the background process, which ends the call waiting on it; the long call stays in flight.
    await expect.poll(async () => (await getJson(`${url}/healthz`)).body['in_flight_calls'], WAIT).toBe(1);

    // A new call (and any other route) is refused with a clear 503 a balancer retries elsewhere.
    const refused = await postCall(url, 'list_dir', { path: '.' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: { code: 'shutting_down', details: { draining: true } } });
    const tools = await getJson(`${url}/v1/tools`);
    expect(tools.status).toBe(503);
    // Probes and metrics still answer while draining.
    expect((await fetch(`${url}/metrics`)).status).toBe(200);

    // The background process was ended by the drain, and the call waiting on it says so.
    const waited = (await (await waiting).json()) as ToolResult;
    expect(waited.content).toMatch(/shutting down/);
    expect(waited.metadata).toMatchObject({ process_id: processId, running: false, ended_by: 'shutdown' });

    // The call in flight is not cut: it finishes once released, and its answer is delivered.
    writeFileSync(join(workspace, 'release'), '');
    const finished = await long;
    expect(finished.status).toBe(200);
    const result = (await finished.json()) as ToolResult;
    expect(result.is_error).toBe(false);
    expect(result.content).toMatch(/released/);

    expect(await exited).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    expect(running.stderr()).toMatch(/toolhost server draining/);
  });

  it('a call still running at --drain-timeout-ms is cancelled and the process exits 0 all the same', async () => {
    const { daemon: running, workspace, exited } = await start(['--drain-timeout-ms', '1000']);
    const stuck = postCall(running.url, 'shell', { command: waitForFileCommand('never', 'started'), timeout_ms: 100_000 });
    await expect.poll(() => existsSync(join(workspace, 'started')), WAIT).toBe(true);
    running.child.kill('SIGTERM');
    const answer = await stuck;
    const result = (await answer.json()) as ToolResult;
    expect(result.is_error).toBe(true);
    expect(await exited).toBe(0);
    expect(running.stderr()).toMatch(/cancelling them/);
  });

  it('refuses a bad --drain-timeout-ms before starting', async () => {
    root = temporaryDirectory('toolhost-drain-');
    await expect(startTestDaemon({ workspace: root.path, args: ['--drain-timeout-ms', '-5'] })).rejects.toThrow(/drain-timeout-ms/);
  });
});
