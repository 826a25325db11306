import { existsSync } from 'node:fs';
import { readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processTool } from '../../builtins/process.ts';
import { SHELL_MAX_OUTPUT_BYTES, shellEnvironment, shellTool } from '../../builtins/shell.ts';
import type { HostResource, HostResourceKey } from '../../src/tool.ts';
import { callTool, createToolContext, createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';
import { uniqueSleepSeconds, waitForProcesses, waitUntilNoneRunning } from './process-probes.ts';

describe('shell', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createTestWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  const run = (raw: Record<string, unknown>, context = workspace.context) => callTool(shellTool, raw, context);

  it('declares an execute tool with defaults and described fields', () => {
    expect(shellTool.permission).toBe('execute');
    expect(shellTool.input.parse({ command: 'true' })).toEqual({ command: 'true', cwd: '.', timeout_ms: 30000, run_in_background: false });
    expect(() => shellTool.input.parse({ command: 'true', timeout_ms: 600001 })).toThrow();
    expect(() => shellTool.input.parse({ command: 'true', timeout_ms: 0 })).toThrow();
    expect(() => shellTool.input.parse({ command: '' })).toThrow();
    const properties = shellTool.inputSchema['properties'] as Record<string, { description?: string }>;
    for (const field of ['command', 'cwd', 'timeout_ms', 'run_in_background']) expect(properties[field]?.description).toBeTruthy();
  });

  it('runs a command in the workspace root and returns its output with metadata', async () => {
    const result = await run({ command: 'echo hello; pwd' });
    expect(result.is_error).toBe(false);
    expect(result.content).toBe(`hello\n${workspace.root}\n`);
    expect(result.metadata).toMatchObject({ exit_code: 0, timed_out: false, truncated: false, cwd: '.' });
    expect(typeof result.metadata?.['duration_ms']).toBe('number');
  });

  it('interleaves stdout and stderr in order', async () => {
    const result = await run({ command: 'echo one; sleep 0.05; echo two >&2; sleep 0.05; echo three' });
    expect(result.content).toBe('one\ntwo\nthree\n');
  });

  it('uses /bin/sh -c, so pipes and redirections work', async () => {
    const result = await run({ command: 'printf "b\\na\\n" | sort > sorted.txt && cat sorted.txt' });
    expect(result.content).toBe('a\nb\n');
  });

  it('reports a non-zero exit as an error with the output and exit code', async () => {
    const result = await run({ command: 'echo partial; echo oops >&2; exit 3' });
    expect(result.is_error).toBe(true);
    expect(result.content).toBe('partial\noops\n[command failed: exit code 3]');
    expect(result.metadata).toMatchObject({ exit_code: 3, timed_out: false });
  });

  it('says when there is no output', async () => {
    expect((await run({ command: 'true' })).content).toBe('(no output)');
    expect((await run({ command: 'false' })).content).toBe('(no output)\n[command failed: exit code 1]');
  });

  it('gives the command no stdin', async () => {
    const result = await run({ command: 'cat; echo done', timeout_ms: 5000 });
    expect(result).toMatchObject({ is_error: false, content: 'done\n' });
  });

  it('runs in a cwd relative to the workspace', async () => {
    await writeTestFile(workspace.root, 'sub/dir/file.txt', 'x');
    const result = await run({ command: 'pwd; ls', cwd: 'sub/dir' });
    expect(result.content).toBe(`${path.join(workspace.root, 'sub/dir')}\nfile.txt\n`);
    expect(result.metadata).toMatchObject({ cwd: 'sub/dir' });
  });

  it('refuses a missing cwd and a cwd that is a file', async () => {
    const missing = await run({ command: 'pwd', cwd: 'nope' });
    expect(missing.is_error).toBe(true);
    expect(missing.content).toMatch(/does not exist/);
    await writeTestFile(workspace.root, 'f.txt', 'x');
    expect((await run({ command: 'pwd', cwd: 'f.txt' })).content).toMatch(/is a file/);
  });

  describe('confinement', () => {
    it('refuses a cwd outside the workspace: .., /, /etc, an absolute outside path, a symlink outside', async () => {
      await symlink(workspace.outside, path.join(workspace.root, 'outdir'));
      for (const cwd of ['..', '../outside', '/', '/etc', workspace.outside, 'outdir']) {
        const result = await run({ command: 'cat secret.txt; pwd', cwd });
        expect(result.is_error).toBe(true);
        expect(result.content).toMatch(/^cwd: /);
        expect(result.content).not.toContain('TOP SECRET');
      }
    });

    it('does not leak host environment variables', async () => {
      process.env['TOOLHOST_TEST_SECRET'] = 'leaked-value-123';
      try {
        const result = await run({ command: 'env' });
        expect(result.content).not.toContain('TOOLHOST_TEST_SECRET');
        expect(result.content).not.toContain('leaked-value-123');
        const names = result.content
          .trim()
          .split('\n')
          .map((line) => line.slice(0, line.indexOf('=')))
          .filter((name) => name !== 'PWD' && name !== 'SHLVL' && name !== '_' && name !== 'OLDPWD');
        for (const name of names) expect(['PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM', 'TZ']).toContain(name);
        expect(result.content).toContain(`HOME=${workspace.root}\n`);
        expect(result.content).toContain('TERM=dumb\n');
      } finally {
        delete process.env['TOOLHOST_TEST_SECRET'];
      }
    });

    it('builds the environment from an allowlist only', () => {
      const environment = shellEnvironment('/w', { PATH: '/bin', AWS_SECRET_ACCESS_KEY: 'x', GITHUB_TOKEN: 'y', TZ: 'UTC', LC_ALL: 'C' });
      expect(environment).toEqual({ PATH: '/bin', HOME: '/w', LANG: 'C.UTF-8', TERM: 'dumb', TZ: 'UTC', LC_ALL: 'C' });
      expect(shellEnvironment('/w', {})['PATH']).toMatch(/\/usr\/bin/);
    });
  });

  describe('time limits', () => {
    it('kills the whole process tree when timeout_ms passes', async () => {
      const seconds = uniqueSleepSeconds();
      const started = Date.now();
      const call = run({ command: `sleep ${seconds} & echo $! > sleeper.pid; echo started; wait`, timeout_ms: 1500 });
      // Seen from the host while the call runs, so the check after it cannot pass for a sleeper that never started.
      const seen = await waitForProcesses(seconds);
      const result = await call;
      expect(seen).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/^started\n\[command timed out after 1500 ms and was killed/);
      expect(result.content).toMatch(/raise timeout_ms/);
      expect(result.metadata).toMatchObject({ timed_out: true, exit_code: null });
      expect(Number((await readFile(path.join(workspace.root, 'sleeper.pid'), 'utf8')).trim())).toBeGreaterThan(0);
      expect(await waitUntilNoneRunning(seconds)).toBe(true);
    });

    it('kills background processes left behind when the command exits', async () => {
      const seconds = uniqueSleepSeconds();
      const result = await run({ command: `sleep ${seconds} > /dev/null 2>&1 & echo $!; until grep -q ${seconds} /proc/$!/cmdline; do :; done` });
      expect(result.is_error).toBe(false);
      expect(Number(result.content.trim())).toBeGreaterThan(0);
      expect(await waitUntilNoneRunning(seconds)).toBe(true);
    });

    it('honours the call deadline when it comes before timeout_ms', async () => {
      const context = createToolContext(workspace.root, { deadline: Date.now() + 300 });
      const started = Date.now();
      const result = await run({ command: 'sleep 30' }, context);
      expect(Date.now() - started).toBeLessThan(20_000); // far below the 30 s sleep, however loaded the machine
      expect(result.metadata).toMatchObject({ timed_out: true });
      expect(result.content).toMatch(/deadline/);
    });

    it('does not start when the deadline has passed or the call is already cancelled', async () => {
      const late = await run({ command: 'touch ran.txt' }, createToolContext(workspace.root, { deadline: Date.now() - 1 }));
      expect(late.is_error).toBe(true);
      const controller = new AbortController();
      controller.abort();
      const cancelled = await run({ command: 'touch ran.txt' }, createToolContext(workspace.root, { signal: controller.signal }));
      expect(cancelled.is_error).toBe(true);
      await expect(readFile(path.join(workspace.root, 'ran.txt'))).rejects.toThrow();
    });

    it('kills the command when the call signal aborts', async () => {
      const controller = new AbortController();
      // Abort once the command has printed (it then makes a marker file): waits on the event, not a fixed delay.
      const marker = path.join(workspace.root, 'abort-marker');
      const watch = setInterval(() => {
        if (existsSync(marker)) controller.abort();
      }, 20);
      const started = Date.now();
      const result = await run({ command: 'echo before; touch abort-marker; sleep 30' }, createToolContext(workspace.root, { signal: controller.signal })).finally(() => clearInterval(watch));
      expect(Date.now() - started).toBeLessThan(20_000); // far below the 30 s sleep, however loaded the machine
      expect(result.is_error).toBe(true);
      expect(result.content).toBe('before\n[command cancelled and killed with its child processes]');
      expect(result.metadata).toMatchObject({ cancelled: true, timed_out: false });
    });
  });

  describe('output cap', () => {
    it('keeps the beginning and the end with a visible marker', async () => {
      const total = 300_000;
      const result = await run({ command: `echo BEGIN; head -c ${total} /dev/zero | tr '\\0' a; echo; echo END` });
      expect(result.is_error).toBe(false);
      expect(result.metadata).toMatchObject({ truncated: true, output_bytes: total + 11 });
      const marker = result.content.match(/\n\[output truncated: (\d+) bytes omitted\]\n/);
      expect(marker).not.toBeNull();
      expect(Number(marker?.[1])).toBe(total + 11 - SHELL_MAX_OUTPUT_BYTES);
      expect(result.content.startsWith('BEGIN\naaa')).toBe(true);
      expect(result.content.endsWith('aaa\nEND\n')).toBe(true);
      expect(result.content.length).toBeLessThan(SHELL_MAX_OUTPUT_BYTES + 100);
    });

    it('does not truncate output at the limit exactly', async () => {
      const result = await run({ command: `head -c ${SHELL_MAX_OUTPUT_BYTES} /dev/zero | tr '\\0' b` });
      expect(result.metadata).toMatchObject({ truncated: false, output_bytes: SHELL_MAX_OUTPUT_BYTES });
      expect(result.content).toBe('b'.repeat(SHELL_MAX_OUTPUT_BYTES));
    });
  });

  describe('run_in_background', () => {
    /** The ToolContext hook a host provides: one instance per key, closed at the end of the test. */
    function withHostResources(): { hostResource: <R extends HostResource>(key: HostResourceKey<R>) => R; close(): Promise<void> } {
      const resources = new Map<unknown, HostResource>();
      return {
        hostResource<R extends HostResource>(key: HostResourceKey<R>): R {
          const existing = resources.get(key);
          if (existing) return existing as R;
          const created = key.create();
          resources.set(key, created);
          return created;
        },
        close: async () => {
          await Promise.all([...resources.values()].map((resource) => resource.close()));
        },
      };
    }

    it('returns before the command ends, and timeout_ms does not bound it', async () => {
      const resources = withHostResources();
      const context = createToolContext(workspace.root, { hostResource: resources.hostResource });
      try {
        const started = await run({ command: 'read go; echo "late $go"', timeout_ms: 1, run_in_background: true }, context);
        expect(started).toMatchObject({ is_error: false, metadata: { process_id: 'p1', running: true, cwd: '.' } });
        // Still running: it waits for a line on stdin, which only the process tool can give it.
        const status = await callTool(processTool, { action: 'wait', process_id: 'p1', timeout_ms: 300 }, context);
        expect(status.metadata).toMatchObject({ running: true, wait_timed_out: true });
        await callTool(processTool, { action: 'write_stdin', process_id: 'p1', input: 'now\n' }, context);
        const done = await callTool(processTool, { action: 'wait', process_id: 'p1', timeout_ms: 20_000 }, context);
        expect(done).toMatchObject({ is_error: false, content: 'late now\n[process p1 exited with code 0]', metadata: { running: false, exit_code: 0 } });
      } finally {
        await resources.close();
      }
    });

    it('refuses a cwd outside the workspace before starting anything', async () => {
      const resources = withHostResources();
      const context = createToolContext(workspace.root, { hostResource: resources.hostResource });
      try {
        const refused = await run({ command: 'pwd', cwd: workspace.outside, run_in_background: true }, context);
        expect(refused.is_error).toBe(true);
        expect(refused.content).toMatch(/outside the workspace/);
        expect((await callTool(processTool, { action: 'list' }, context)).metadata).toEqual({ processes: [] });
      } finally {
        await resources.close();
      }
    });
  });
});
