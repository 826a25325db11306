import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runCli, spawnCli, temporaryDirectory } from './run-cli.ts';

interface RunningDaemon {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `toolhost serve --port 0 ...` and waits for the line with the URL. */
async function startDaemon(args: string[], cwd: string): Promise<RunningDaemon> {
  const child = spawnCli(['serve', '--port', '0', ...args], { cwd });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed in time\nstdout: ${stdout}\nstderr: ${stderr}`)), 20_000);
    const check = (): void => {
      const match = /^toolhost listening on (http:\/\/\S+) \((\d+) tools\)$/m.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then(() => reject(new Error(`serve exited early\nstdout: ${stdout}\nstderr: ${stderr}`)));
  });
  return { child, url, stdout: () => stdout, stderr: () => stderr, exited };
}

describe('toolhost serve', { timeout: 60_000 }, () => {
  let workspace: { path: string; remove: () => void };
  beforeAll(() => {
    workspace = temporaryDirectory();
  });
  afterAll(() => workspace.remove());

  it('prints the bound URL on --port 0, serves /healthz, and exits 0 on SIGTERM', async () => {
    const daemon = await startDaemon([], workspace.path);
    try {
      expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(daemon.url).not.toMatch(/:0$/);
      const health = (await (await fetch(`${daemon.url}/healthz`)).json()) as { status: string; tools: number };
      expect(health).toMatchObject({ status: 'ok', tools: 10 });
      const tools = (await (await fetch(`${daemon.url}/v1/tools`)).json()) as unknown;
      expect(JSON.stringify(tools)).toContain('read_file');
      // The URL is also in the structured logs (stderr), and stdout holds only the one line.
      expect(daemon.stderr()).toContain('"msg":"toolhost server listening"');
      // No --extensions and no ./extensions/tools here: stderr says the built-ins alone are served.
      expect(daemon.stderr()).toContain('toolhost: no extensions folder: serving the built-in tools only');
      expect(daemon.stdout().trim().split('\n')).toHaveLength(1);
    } finally {
      daemon.child.kill('SIGTERM');
    }
    const exit = await daemon.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(daemon.stderr()).toContain('toolhost server closed');
  });

  it('exits 0 on SIGINT too', async () => {
    const daemon = await startDaemon([], workspace.path);
    daemon.child.kill('SIGINT');
    expect(await daemon.exited).toEqual({ code: 0, signal: null });
  });

  it('requires the token when one is set', async () => {
    const daemon = await startDaemon(['--token', 'sesame'], workspace.path);
    try {
      expect((await fetch(`${daemon.url}/v1/tools`)).status).toBe(401);
      expect((await fetch(`${daemon.url}/v1/tools`, { headers: { authorization: 'Bearer sesame' } })).status).toBe(200);
      expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
      // The readiness probe is public too (no extensions folder: ready at once); nothing else is.
      const ready = await fetch(`${daemon.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ready: true, loading: [], loaded: 0 });
      expect((await fetch(`${daemon.url}/readyz/../v1/tools`)).status).toBe(401);
    } finally {
      daemon.child.kill('SIGTERM');
    }
    expect((await daemon.exited).code).toBe(0);
  });

  it('takes the port from TOOLHOST_PORT and settings from a --config file', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    writeFileSync(join(workspace.path, 'toolhost.json'), JSON.stringify({ permission_mode: 'read_only' }));
    const child = spawnCli(['serve', '--config', 'toolhost.json'], { cwd: workspace.path, env: { TOOLHOST_PORT: '0' } });
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => child.stdout?.on('data', () => stdout.includes('listening') && resolve()));
    expect(stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(6 tools\)/); // read_only: read_file, list_dir, glob, grep, search_tools, run_code
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('takes allowed browser origins from --allowed-origin (repeatable) and TOOLHOST_ALLOWED_ORIGINS', { timeout: 30_000 }, async () => {
    const daemon = await startDaemon(['--allowed-origin', 'http://localhost:5173', '--allowed-origin', 'https://app.test'], workspace.path);
    try {
      for (const origin of ['http://localhost:5173', 'https://app.test', daemon.url]) {
        expect((await fetch(`${daemon.url}/v1/tools`, { headers: { origin } })).status, origin).toBe(200);
      }
      const refused = await fetch(`${daemon.url}/v1/tools`, { headers: { origin: 'https://evil.example' } });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('forbidden_origin');
    } finally {
      daemon.child.kill('SIGTERM');
    }
    await daemon.exited;
    const fromEnv = spawnCli(['serve', '--port', '0'], { cwd: workspace.path, env: { TOOLHOST_ALLOWED_ORIGINS: 'http://a.test, http://b.test:81' } });
    let stdout = '';
    fromEnv.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => fromEnv.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => fromEnv.stdout?.on('data', () => stdout.includes('listening') && resolve()));
    const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1] as string;
    try {
      expect((await fetch(`${url}/v1/tools`, { headers: { origin: 'http://b.test:81' } })).status).toBe(200);
      expect((await fetch(`${url}/v1/tools`, { headers: { origin: 'http://b.test' } })).status).toBe(403);
    } finally {
      fromEnv.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('refuses a non-loopback bind without a token: exit 2, one line with a hint', async () => {
    const run = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], { cwd: workspace.path });
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n').filter((line) => !line.startsWith('{'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--token');
  });

  it('rejects a bad --port value with exit 2', async () => {
    const run = await runCli(['serve', '--port', 'eighty'], { cwd: workspace.path });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--port');
  });
});

// Subprocesses on a shared machine; the control also transpiles a component: generous harness timeouts.
describe('toolhost serve refuses bad bind settings before loading anything', { timeout: 60_000 }, () => {
  let workspace: { path: string; remove: () => void };
  let extensions: string;
  let caches = 0;
  beforeAll(() => {
    workspace = temporaryDirectory();
    extensions = join(workspace.path, 'ext');
    mkdirSync(extensions);
    // A real component (transpiled into the cache and logged as "extension loaded" when loaded) and a broken one.
    copyFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'ext-greet.wasm'), join(extensions, 'ext-greet.wasm'));
    writeFileSync(join(extensions, 'broken.wasm'), 'not a wasm file');
  });
  afterAll(() => workspace.remove());

  /** A fresh, empty transpile cache for each run. */
  function freshCache(): string {
    const cache = join(workspace.path, `cache-${++caches}`);
    mkdirSync(cache);
    return cache;
  }

  function expectNothingLoaded(stderr: string, cache: string): void {
    expect(stderr).not.toContain('extension loaded');
    expect(stderr).not.toContain('extension failed to load');
    expect(stderr).not.toContain('could not load');
    expect(readdirSync(cache)).toEqual([]);
  }

  it('loads the extensions when the settings are good (the control)', async () => {
    const cache = freshCache();
    const daemon = await startDaemon(['--extensions', extensions, '--cache-dir', cache], workspace.path);
    // The daemon listens before the folder has loaded; it says on stderr when the first load is done.
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (daemon.stderr().includes('toolhost ready:')) resolve();
      };
      daemon.child.stderr?.on('data', check);
      check();
    });
    daemon.child.kill('SIGTERM');
    await daemon.exited;
    expect(daemon.stderr()).toContain('extension loaded');
    expect(daemon.stderr()).toContain('extension failed to load');
    expect(daemon.stderr()).toContain(`toolhost: extensions folder ${extensions} (from --extensions)\n`);
    expect(readdirSync(cache).length).toBeGreaterThan(0);
  });

  it.each([
    { name: 'a non-loopback host without a token', args: ['--host', '0.0.0.0', '--port', '0'], message: '--token' },
    { name: 'a host that is not an address or a name', args: ['--host', 'bad host!', '--port', '0'], message: 'Invalid host "bad host!"' },
    { name: 'a bracketed IPv6 host', args: ['--host', '[::1]', '--port', '0'], message: 'without brackets' },
    { name: 'a host name that does not resolve', args: ['--host', 'no-such-host.invalid', '--port', '0', '--token', 'sesame'], message: 'does not resolve' },
    { name: 'a port out of range', args: ['--port', '70000'], message: '--port' },
    { name: 'a port that is not a number', args: ['--port', 'eighty'], message: '--port' },
  ])('refuses $name with exit 2 and loads no extension', async ({ args, message }) => {
    const cache = freshCache();
    const run = await runCli(['serve', ...args, '--extensions', extensions, '--cache-dir', cache], { cwd: workspace.path });
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expectNothingLoaded(run.stderr, cache);
  });

  it('refuses a non-loopback TOOLHOST_HOST without a token the same way', async () => {
    const cache = freshCache();
    const run = await runCli(['serve', '--extensions', extensions, '--cache-dir', cache], { cwd: workspace.path, env: { TOOLHOST_HOST: '0.0.0.0', TOOLHOST_PORT: '0' } });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('TOOLHOST_TOKEN');
    expectNothingLoaded(run.stderr, cache);
  });
});
