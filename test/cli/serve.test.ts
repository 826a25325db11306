import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli, temporaryDirectory } from './run-cli.ts';

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

describe('toolhost serve', () => {
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
      expect(health).toMatchObject({ status: 'ok', tools: 7 });
      const tools = (await (await fetch(`${daemon.url}/v1/tools`)).json()) as unknown;
      expect(JSON.stringify(tools)).toContain('read_file');
      // The URL is also in the structured logs (stderr), and stdout holds only the one line.
      expect(daemon.stderr()).toContain('"msg":"toolhost server listening"');
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
    expect(stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(4 tools\)/);
    child.kill('SIGTERM');
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
