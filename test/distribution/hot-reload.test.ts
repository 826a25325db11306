/**
 * `toolhost add` into the folder a running daemon serves: the watcher picks the tool up (no restart),
 * it answers a call over HTTP, and a refused update leaves that version serving.
 * @full-suite-only: needs Debian's docker-registry (and oras, cosign, wasmtime where used), which .ci/run installs.
 */
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runCli, spawnCli, temporaryDirectory } from '../cli/run-cli.ts';
import { startRegistry, type RunningRegistry } from './registry-server.ts';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'build');

/** Starts `toolhost serve --port 0` and resolves with its URL once the first load is done. */
async function startDaemon(args: string[], cwd: string): Promise<{ child: ChildProcess; url: string; stop: () => Promise<void> }> {
  const child = spawnCli(['serve', '--port', '0', ...args], { cwd });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const match = /^toolhost listening on (http:\/\/\S+) /m.exec(stdout);
      if (match?.[1] && stderr.includes('toolhost ready:')) resolve(match[1]);
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    void exited.then(() => reject(new Error(`serve exited early\nstdout: ${stdout}\nstderr: ${stderr}`)));
  });
  return {
    child,
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls the tool list until `name` is served (the watcher's reload is asynchronous). */
async function waitForTool(url: string, name: string): Promise<void> {
  for (;;) {
    const tools = JSON.stringify(await (await fetch(`${url}/v1/tools`)).json());
    if (tools.includes(`"${name}"`)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('hot reload of an added tool into a running daemon', { timeout: 180_000 }, () => {
  let registry: RunningRegistry;
  let work: { path: string; remove: () => void };
  beforeAll(async () => {
    registry = await startRegistry();
    work = temporaryDirectory('toolhost-oci-reload-');
  });
  afterAll(async () => {
    await registry?.stop();
    work?.remove();
  });

  it('serves the tool after add, and keeps serving it when an update is refused', async () => {
    const source = join(work.path, 'src');
    mkdirSync(source);
    copyFileSync(join(FIXTURES, 'ext-greet.wasm'), join(source, 'greet.wasm'));
    // The .tool.json travels as a layer: without it the daemon would not read the tool's envelope.
    writeFileSync(join(source, 'greet.tool.json'), JSON.stringify({ output: 'envelope' }));
    const env = { TOOLHOST_CACHE_DIR: join(work.path, 'cache'), DOCKER_CONFIG: join(work.path, 'docker') };
    const ref = `oci://${registry.host}/tools/greet:latest`;
    expect((await runCli(['push', 'greet.wasm', ref], { cwd: source, env })).exitCode).toBe(0);

    const ext = join(work.path, 'ext');
    mkdirSync(ext);
    const daemon = await startDaemon(['--extensions', ext, '--cache-dir', join(work.path, 'transpiled')], work.path);
    try {
      const added = await runCli(['add', ref, '--insecure-allow-unsigned', '--extensions', ext], { cwd: work.path, env, timeoutMs: 90_000 });
      expect(added.exitCode, added.stderr).toBe(0);
      await waitForTool(daemon.url, 'greet');
      const call = async (): Promise<unknown> =>
        (await fetch(`${daemon.url}/v1/tools/greet/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: { name: 'Ada' } }) })).json();
      expect(await call()).toMatchObject({ is_error: false, content: 'Hello, Ada!', metadata: { version: 1 } });

      // A new version that asks for the network: the update is refused and v1 keeps answering.
      copyFileSync(join(FIXTURES, 'ext-greet2.wasm'), join(source, 'greet.wasm'));
      writeFileSync(join(source, 'greet.policy.json'), JSON.stringify({ network: { allow: ['exfil.example.net'] } }));
      expect((await runCli(['push', 'greet.wasm', ref], { cwd: source, env })).exitCode).toBe(0);
      const update = await runCli(['update', '--insecure-allow-unsigned', '--extensions', ext], { cwd: work.path, env, timeoutMs: 90_000 });
      expect(update.exitCode).toBe(1);
      expect(update.stderr).toContain('refused (policy_wider)');
      expect(await call()).toMatchObject({ is_error: false, content: 'Hello, Ada!', metadata: { version: 1 } });

      // Accepted: the daemon reloads the new version in place.
      const accepted = await runCli(['update', '--insecure-allow-unsigned', '--accept-policy', '--extensions', ext], { cwd: work.path, env, timeoutMs: 90_000 });
      expect(accepted.exitCode, accepted.stderr).toBe(0);
      for (;;) {
        const result = (await call()) as { content?: unknown };
        if (result.content === 'Hello, Ada! (v2)') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await daemon.stop();
    }
  });
});
