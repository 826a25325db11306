/**
 * `toolhost mcp` as a real process: a client that writes its requests and closes stdin still gets
 * every answer (issue 26 item 4); the session starts before the extensions folder has loaded,
 * announcing each wasm tool with tools/list_changed (issue 24); the client entry `mcp --help` prints
 * carries absolute folders and works from another directory, and stderr names the extensions
 * folder in effect (issue 26 item 5).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnvironment, PROJECT_ROOT, runCli, temporaryDirectory } from './run-cli.ts';

const SLEEP_WASM = join(PROJECT_ROOT, 'test/fixtures/build/wasi-sleep.wasm');

describe('toolhost mcp over stdio', () => {
  let workspace: { path: string; remove: () => void };
  let extensions: string;
  beforeAll(() => {
    workspace = temporaryDirectory();
    extensions = join(workspace.path, 'tools');
    mkdirSync(extensions);
    copyFileSync(SLEEP_WASM, join(extensions, 'wasi-sleep.wasm'));
    writeFileSync(join(workspace.path, 'note.txt'), 'hello');
    // A loaded 2-core machine may take longer than the default 10 s call deadline to transpile a cold tool.
    writeFileSync(join(workspace.path, 'toolhost.json'), JSON.stringify({ limits: { timeout_ms: 100_000 } }));
  });
  afterAll(() => workspace.remove());

  it('answers every request it has read before exiting at the end of input', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--workspace', workspace.path, '--extensions', extensions, '--config', join(workspace.path, 'toolhost.json')], {
      cwd: workspace.path,
      env: cliEnvironment(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'printf', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      // A wasm tool whose file may still be loading (and compiles at its first call), then a built-in.
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wasi-sleep', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'note.txt' } } },
      // Cancelled by the client: no answer is owed, and it must not keep the server waiting.
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'shell', arguments: { command: 'sleep 600' } } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4, reason: 'changed my mind' } },
    ];
    // All at once, then end of input, as `printf '…' | toolhost mcp` does.
    child.stdin.end(messages.map((message) => JSON.stringify(message)).join('\n') + '\n');
    expect(await exited, stderr).toBe(0);
    const answers = stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { id?: number; result?: { content?: Array<{ text: string }>; isError?: boolean } });
    const byId = new Map(answers.filter((answer) => answer.id !== undefined).map((answer) => [answer.id, answer]));
    expect(byId.get(1)?.result).toBeDefined();
    expect(byId.get(2)?.result?.isError, JSON.stringify(byId.get(2))).toBe(false);
    expect(byId.get(2)?.result?.content?.[0]?.text).toContain('rc=0');
    expect(byId.get(3)?.result).toMatchObject({ content: [{ type: 'text', text: 'hello' }], isError: false });
    expect(byId.has(4)).toBe(false);
    expect(stderr).toContain('mcp stdio input ended; answering the requests already read');
    expect(stderr).toContain(`toolhost: extensions folder ${extensions} (from --extensions)\n`);
  }, 120_000);

  it('starts the session before the extensions have loaded and announces each tool as it loads', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--workspace', workspace.path, '--extensions', extensions],
      cwd: workspace.path,
      env: cliEnvironment() as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    const ready = new Promise<void>((resolve) =>
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (stderr.includes('toolhost ready: ')) resolve();
      }),
    );
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    const listed = new Promise<string[]>((resolve) => {
      const check = async (): Promise<void> => {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        if (names.includes('wasi-sleep')) resolve(names);
      };
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void check());
      // The tool may also have loaded before the first list.
      void ready.then(check);
    });
    await client.connect(transport);
    try {
      expect(await listed).toContain('read_file');
      await ready;
      expect(stderr).toMatch(/toolhost ready: \d+ tools \(extensions loaded: 1, failed: 0\)/);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('prints a client entry with absolute folders that serves the same tools from another directory', async () => {
    // The default folder: ./extensions/tools under the directory `mcp --help` runs in.
    const project = temporaryDirectory();
    try {
      const defaultFolder = join(project.path, 'extensions', 'tools');
      mkdirSync(defaultFolder, { recursive: true });
      copyFileSync(SLEEP_WASM, join(defaultFolder, 'wasi-sleep.wasm'));
      const help = await runCli(['mcp', '--help'], { cwd: project.path });
      expect(help.exitCode, help.stderr).toBe(0);
      const line = help.stdout.split('\n').find((text) => text.trim().startsWith('{ "command"'));
      const entry = JSON.parse(line ?? '{}') as { command: string; args: string[] };
      const root = realpathSync(project.path);
      expect(entry.args.slice(-5)).toEqual(['mcp', '--workspace', root, '--extensions', join(root, 'extensions', 'tools')]);
      expect(help.stdout).not.toContain('does not exist yet');

      const transport = new StdioClientTransport({ command: entry.command, args: entry.args, cwd: tmpdir(), env: cliEnvironment() as Record<string, string>, stderr: 'pipe' });
      let stderr = '';
      const ready = new Promise<void>((resolve) =>
        transport.stderr?.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          if (stderr.includes('toolhost ready: ')) resolve();
        }),
      );
      const client = new Client({ name: 'cli-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        await ready;
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('wasi-sleep');
        expect(stderr).toContain(`toolhost: extensions folder ${join(root, 'extensions', 'tools')} (from --extensions)`);
      } finally {
        await client.close();
      }
    } finally {
      project.remove();
    }
  }, 120_000);

  it('says on stderr which extensions folder list uses: the default one under the cwd, or none', async () => {
    const project = temporaryDirectory();
    try {
      const none = await runCli(['list', '--json'], { cwd: project.path });
      expect(none.exitCode).toBe(0);
      expect(none.stderr).toContain(`toolhost: no extensions folder: serving the built-in tools only`);
      expect(none.stderr).toContain(`create ./extensions/tools under ${realpathSync(project.path)}`);
      mkdirSync(join(project.path, 'extensions', 'tools'), { recursive: true });
      const found = await runCli(['list', '--json'], { cwd: project.path });
      expect(found.stderr).toBe(`toolhost: extensions folder ${join(realpathSync(project.path), 'extensions', 'tools')} (from the default ./extensions/tools)\n`);
      const fromEnv = await runCli(['list', '--json'], { cwd: tmpdir(), env: { TOOLHOST_EXTENSIONS: join(project.path, 'extensions', 'tools') } });
      expect(fromEnv.stderr).toBe(`toolhost: extensions folder ${join(project.path, 'extensions', 'tools')} (from TOOLHOST_EXTENSIONS)\n`);
    } finally {
      project.remove();
    }
  }, 120_000);
});
