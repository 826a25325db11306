/**
 * Shell isolation (Linux): each command runs in its own PID + mount namespace with a private /proc and
 * no capabilities, so it cannot read the daemon's environment through /proc, cannot unmount /proc to
 * see the host's, and every process it starts (setsid ones included) dies at the timeout, on abort,
 * and when the daemon itself is killed. Controls run the same probes under the process-group fallback
 * to show that they detect the leak they guard against.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShellTool, shellTool } from '../../builtins/shell.ts';
import { findProgram, PROCESS_GROUP_PLAN, probeProcessSandbox, processSandbox } from '../../builtins/internal/process-sandbox.ts';
import type { ToolResult } from '../../src/index.ts';
import { callTool, createToolContext, createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';
import {
  findProcessesWithArgument,
  innermostPid,
  processIsRunning,
  uniqueSleepSeconds,
  waitForProcesses,
  waitUntil,
  waitUntilNoneRunning,
} from './process-probes.ts';

const repositoryRoot = path.join(import.meta.dirname, '../..');
const daemonScript = path.join(import.meta.dirname, 'shell-daemon.ts');
const fallbackShellTool = createShellTool({ sandbox: async () => PROCESS_GROUP_PLAN });

interface Daemon {
  process: ChildProcess;
  /** Resolves with the daemon's result once it exits (undefined when it printed none). */
  result: Promise<ToolResult | undefined>;
}

/** Starts a separate daemon process whose start-up environment holds `environment`, running one shell call. */
function startDaemon(
  workspaceRoot: string,
  isolation: 'default' | 'process-group',
  command: string,
  options: { timeoutMs?: number; environment?: Record<string, string> } = {},
): Daemon {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', daemonScript, workspaceRoot, isolation, String(options.timeoutMs ?? 60_000), command],
    { cwd: repositoryRoot, env: { ...process.env, ...options.environment }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const result = new Promise<ToolResult | undefined>((resolve) => {
    child.on('close', () => resolve(stdout.trim() ? (JSON.parse(stdout) as ToolResult) : undefined));
  });
  return { process: child, result };
}

/** Kills stray processes a control test deliberately let escape. */
async function killAll(argument: string): Promise<void> {
  for (const pid of await findProcessesWithArgument(argument)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Waits until every pid has stopped. */
function waitUntilAllStopped(pids: number[]): Promise<boolean> {
  return waitUntil(async () => (await Promise.all(pids.map(processIsRunning))).every((running) => !running));
}

describe('shell isolation', () => {
  let workspace: TestWorkspace;
  const strays: string[] = [];
  beforeEach(async () => {
    workspace = await createTestWorkspace();
  });
  afterEach(async () => {
    for (const argument of strays.splice(0)) await killAll(argument);
    await workspace.cleanup();
  });

  const run = (raw: Record<string, unknown>, context = workspace.context) => callTool(shellTool, raw, context);

  it('runs each command in its own namespaces (bubblewrap) with a private /proc on this Linux host', async () => {
    expect(await processSandbox()).toMatchObject({ isolation: 'namespaces' });
    const result = await run({ command: 'echo "ppid=$PPID"; ls /proc | grep -c "^[0-9]"' });
    expect(result.is_error).toBe(false);
    expect(result.metadata).toMatchObject({ isolation: 'namespaces', exit_code: 0 });
    const [parentLine, countLine] = result.content.trim().split('\n');
    expect(parentLine).toBe('ppid=1');
    // The namespace's init, the shell, ls and grep: nothing of the host's hundreds of processes.
    expect(Number(countLine)).toBeLessThan(10);
  });

  describe("the daemon's environment", () => {
    const secret = `sekrit-${uniqueSleepSeconds()}`;
    const probe =
      'echo "ppid=$PPID"; cat /proc/$PPID/environ; cat /proc/*/environ; env; ' +
      'for entry in /proc/[0-9]*; do printf "process: "; tr "\\0" " " < "$entry/cmdline"; echo; done; echo probe-done';

    it('is not readable through env, /proc/$PPID/environ or any /proc/*/environ (secret planted in this process)', async () => {
      process.env['TOOLHOST_SECRET_X'] = secret;
      try {
        const result = await run({ command: `${probe}; ls -d /proc/${process.pid}` });
        expect(result.content).toContain('probe-done');
        expect(result.content).toContain(`cannot access '/proc/${process.pid}'`);
        expect(result.content).not.toContain(secret);
        expect(result.content).not.toContain('TOOLHOST_SECRET_X');
        expect(result.metadata).toMatchObject({ isolation: 'namespaces' });
      } finally {
        delete process.env['TOOLHOST_SECRET_X'];
      }
    });

    it('is not readable from a daemon process started with the secret in its environment', { timeout: 60_000 }, async () => {
      const daemon = startDaemon(workspace.root, 'default', `${probe}; ls -d /proc/${process.pid}`, {
        environment: { TOOLHOST_SECRET_X: secret },
      });
      const result = await daemon.result;
      expect(result?.content).toContain('probe-done');
      expect(result?.content).toContain('ppid=1\n');
      expect(result?.content).not.toContain(secret);
      expect(result?.content).not.toContain('TOOLHOST_SECRET_X');
      // Scanning /proc finds no host process: neither the daemon (node) nor this test process.
      const processes = result?.content.split('\n').filter((line) => line.startsWith('process: ')) ?? [];
      expect(processes.length).toBeGreaterThan(0);
      // Only the namespace's own: bubblewrap's init (PID 1, its command line naming the probe) and the probe's processes.
      for (const line of processes.filter((entry) => !entry.startsWith('process: /usr/bin/bwrap '))) expect(line).not.toMatch(/node|shell-daemon|vitest|unshare/);
      expect(result?.content).toContain(`cannot access '/proc/${process.pid}'`);
      expect(result?.metadata).toMatchObject({ isolation: 'namespaces' });
    });

    it('control: under the process-group fallback the same probe does read it from /proc/$PPID/environ', { timeout: 60_000 }, async () => {
      const daemon = startDaemon(workspace.root, 'process-group', probe, { environment: { TOOLHOST_SECRET_X: secret } });
      const result = await daemon.result;
      expect(result?.metadata).toMatchObject({ isolation: 'process-group' });
      expect(result?.content).toContain(`TOOLHOST_SECRET_X=${secret}`);
    });
  });

  describe('every descendant dies with the call', () => {
    /** Two setsid'd sleepers holding the output pipe, their namespace pids written to files; the shell waits. */
    function setsidCommand(first: string, second: string): string {
      return `setsid sleep ${first} & echo $! > first.pid; setsid sh -c 'sleep ${second}' & echo $! > second.pid; echo started; wait`;
    }

    it('kills setsid children at the timeout, and the call ends though they held its stdout', { timeout: 60_000 }, async () => {
      const first = uniqueSleepSeconds();
      const second = uniqueSleepSeconds();
      strays.push(first, second);
      const started = Date.now();
      const call = run({ command: setsidCommand(first, second), timeout_ms: 3000 });
      const [firstPid] = await waitForProcesses(first);
      const [secondPid] = await waitForProcesses(second);
      expect(firstPid).toBeDefined();
      expect(secondPid).toBeDefined();
      // The pid the shell wrote is the sleeper's pid inside its namespace.
      await waitUntil(async () => (await readFile(path.join(workspace.root, 'first.pid'), 'utf8').catch(() => '')).trim() !== '');
      const writtenPid = Number((await readFile(path.join(workspace.root, 'first.pid'), 'utf8')).trim());
      expect(await innermostPid(firstPid as number)).toBe(writtenPid);
      const result = await call;
      expect(result.metadata).toMatchObject({ timed_out: true, isolation: 'namespaces' });
      expect(result.content).toMatch(/^started\n\[command timed out after 3000 ms/);
      // Generous: the point is that the call does not wait for the sleepers (1000 s).
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(await waitUntilAllStopped([firstPid as number, secondPid as number])).toBe(true);
    });

    it('kills a command that moved itself to a new session and cleared its parent-death signal', { timeout: 60_000 }, async () => {
      const seconds = uniqueSleepSeconds();
      strays.push(seconds);
      const call = run({ command: `exec setsid setpriv --pdeathsig clear sleep ${seconds}`, timeout_ms: 3000 });
      const [pid] = await waitForProcesses(seconds);
      expect(pid).toBeDefined();
      const result = await call;
      expect(result.metadata).toMatchObject({ timed_out: true });
      expect(await waitUntilAllStopped([pid as number])).toBe(true);
    });

    it('kills setsid children when the call is aborted', { timeout: 60_000 }, async () => {
      const first = uniqueSleepSeconds();
      const second = uniqueSleepSeconds();
      strays.push(first, second);
      const controller = new AbortController();
      const call = run({ command: setsidCommand(first, second) }, createToolContext(workspace.root, { signal: controller.signal }));
      const pids = [...(await waitForProcesses(first)), ...(await waitForProcesses(second))];
      expect(pids).toHaveLength(2);
      controller.abort();
      const result = await call;
      expect(result.metadata).toMatchObject({ cancelled: true, timed_out: false });
      expect(await waitUntilAllStopped(pids)).toBe(true);
    });

    it('kills setsid children when the daemon process is killed outright', { timeout: 60_000 }, async () => {
      const first = uniqueSleepSeconds();
      const second = uniqueSleepSeconds();
      strays.push(first, second);
      const daemon = startDaemon(
        workspace.root,
        'default',
        `setsid sleep ${first} > /dev/null 2>&1 & setsid setpriv --pdeathsig clear sleep ${second} > /dev/null 2>&1 & wait`,
      );
      const pids = [...(await waitForProcesses(first)), ...(await waitForProcesses(second))];
      expect(pids).toHaveLength(2);
      daemon.process.kill('SIGKILL');
      expect(await daemon.result).toBeUndefined();
      expect(await waitUntilAllStopped(pids)).toBe(true);
    });

    it('control: under the process-group fallback a setsid child outlives the timeout', { timeout: 60_000 }, async () => {
      const first = uniqueSleepSeconds();
      const second = uniqueSleepSeconds();
      strays.push(first, second);
      const result = await callTool(fallbackShellTool, { command: setsidCommand(first, second), timeout_ms: 1500 }, workspace.context);
      expect(result.metadata).toMatchObject({ timed_out: true, isolation: 'process-group' });
      expect(await findProcessesWithArgument(first)).toHaveLength(1);
    });
  });

  describe('no way back to the host /proc', () => {
    const probe = 'umount /proc; echo "umount=$?"; umount -l /proc; echo "lazy=$?"; ls /proc | grep -c "^[0-9]"';

    it('umount /proc fails: the command holds no capabilities', async () => {
      const result = await run({ command: `${probe}; grep -E '^Cap(Prm|Eff|Bnd)' /proc/self/status` });
      const lines = result.content.trim().split('\n');
      expect(lines.find((line) => line.startsWith('umount='))).toMatch(/^umount=[1-9]/);
      expect(lines.find((line) => line.startsWith('lazy='))).toMatch(/^lazy=[1-9]/);
      const count = lines.find((line) => /^\d+$/.test(line));
      expect(Number(count)).toBeLessThan(10);
      expect(result.content).toMatch(/^CapPrm:\s+0+$/m);
      expect(result.content).toMatch(/^CapEff:\s+0+$/m);
    });

    it('control: a namespace root that keeps its capabilities can umount /proc and see every host process', async () => {
      const output = await new Promise<string>((resolve) => {
        execFile('unshare', ['--user', '--map-root-user', '--pid', '--fork', '--mount-proc', '/bin/sh', '-c', probe], (_error, stdout) =>
          resolve(stdout),
        );
      });
      expect(output).toContain('umount=0');
      const count = output.trim().split('\n').pop();
      expect(Number(count)).toBeGreaterThan(10);
    });
  });

  describe('what the shell keeps', () => {
    it('writes files in the workspace as the host uid', async () => {
      const result = await run({ command: 'touch owned.txt && mkdir -p made/dir && echo hi > made/dir/file.txt' });
      expect(result.is_error).toBe(false);
      for (const relative of ['owned.txt', 'made/dir', 'made/dir/file.txt']) {
        const info = await stat(path.join(workspace.root, relative));
        expect(info.uid).toBe(process.getuid?.());
        expect(info.gid).toBe(process.getgid?.());
      }
    });

    it('runs everyday commands: ls, git, $HOME, pipes and redirects, cd, exit codes', async () => {
      await writeTestFile(workspace.root, 'sub/b.txt', 'b\n');
      await writeTestFile(workspace.root, 'sub/a.txt', 'a\n');
      const listing = await run({ command: 'ls sub' });
      expect(listing.content).toBe('a.txt\nb.txt\n');
      expect((await run({ command: 'git --version' })).content).toMatch(/^git version \d/);
      expect((await run({ command: 'echo $HOME' })).content).toBe(`${workspace.root}\n`);
      expect((await run({ command: 'cat sub/*.txt | sort -r > sorted.txt 2>&1 && cat < sorted.txt' })).content).toBe('b\na\n');
      expect((await run({ command: 'cd sub && pwd' })).content).toBe(`${path.join(workspace.root, 'sub')}\n`);
      const failing = await run({ command: 'echo out; exit 7' });
      expect(failing).toMatchObject({ is_error: true, content: 'out\n[command failed: exit code 7]' });
      expect(failing.metadata).toMatchObject({ exit_code: 7, isolation: 'namespaces' });
    });
  });

  describe('probe and fallback', () => {
    it('probes once per process', () => {
      expect(processSandbox()).toBe(processSandbox());
    });

    it('launches util-linux by absolute path, never from a relative PATH entry such as the workspace', async () => {
      const plan = await processSandbox();
      expect(plan.launcher.filter((argument) => /(^|\/)(setpriv|unshare)$/.test(argument)).every((argument) => path.isAbsolute(argument))).toBe(true);
      const planted = await writeTestFile(workspace.root, 'bin/toolhost-planted-tool', '#!/bin/sh\n');
      await chmod(planted, 0o755);
      expect(await findProgram('toolhost-planted-tool', path.relative(process.cwd(), path.dirname(planted)))).toBeUndefined();
      expect(await findProgram('toolhost-planted-tool', path.dirname(planted))).toBe(planted);
    });

    it('without bubblewrap, falls back to a PID namespace from util-linux, saying why', async () => {
      const plan = await probeProcessSandbox({ bwrap: '' });
      expect(plan).toMatchObject({ isolation: 'pid-namespace' });
      expect(plan.reason).toMatch(/bubblewrap \(`bwrap`\) was not found/);
      const missing = await probeProcessSandbox({ bwrap: path.join(workspace.root, 'no-such-bwrap') });
      expect(missing).toMatchObject({ isolation: 'pid-namespace' });
      expect(missing.reason).toMatch(/^bubblewrap: /);
    });

    it('falls back to the process group, with a reason, where no namespace can be made', async () => {
      const missing = await probeProcessSandbox({ bwrap: '', unshare: path.join(workspace.root, 'no-such-unshare') });
      expect(missing).toMatchObject({ isolation: 'process-group', launcher: [] });
      expect(missing.reason).toMatch(/no PID namespace could be created/);
      const other = await probeProcessSandbox({ platform: 'darwin' });
      expect(other).toMatchObject({ isolation: 'process-group' });
      expect(other.reason).toMatch(/Linux/);
    });

    it('the fallback still runs commands, reports its isolation and warns once', async () => {
      const lines: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
      const tool = createShellTool({ sandbox: async () => ({ ...PROCESS_GROUP_PLAN, reason: 'test reason' }) });
      const context = createToolContext(workspace.root, { logger });
      const first = await callTool(tool, { command: 'echo one' }, context);
      const second = await callTool(tool, { command: 'echo "$HOME"' }, context);
      expect(first).toMatchObject({ is_error: false, content: 'one\n', metadata: { isolation: 'process-group' } });
      expect(second.content).toBe(`${workspace.root}\n`);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 40, isolation: 'process-group', reason: 'test reason' });
    });
  });
});
