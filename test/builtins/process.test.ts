/**
 * Background processes end to end through a real host: `shell` with run_in_background starts real
 * /bin/sh processes (in a PID namespace on Linux), and the `process` tool reads, waits for, writes to
 * and kills them; closing the host kills whatever is left, child processes included.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinTools } from '../../builtins/index.ts';
import { BACKGROUND_MAX_LIVE_PROCESSES, BACKGROUND_OUTPUT_BUFFER_BYTES, BACKGROUND_STDIN_BUFFER_BYTES } from '../../builtins/internal/background-processes.ts';
import { PROCESS_MAX_READ_BYTES, PROCESS_MAX_STDIN_CHARS, processTool } from '../../builtins/process.ts';
import { shellTool } from '../../builtins/shell.ts';
import { createHost } from '../../src/host.ts';
import type { Host } from '../../src/host-types.ts';
import type { ToolResult } from '../../src/result.ts';
import { callTool, createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';
import { findProcessesWithArgument, uniqueSleepSeconds, waitUntil } from './process-probes.ts';

describe('background processes', { timeout: 60_000 }, () => {
  let workspace: TestWorkspace;
  let host: Host;
  beforeEach(async () => {
    workspace = await createTestWorkspace();
    host = await createHost({ workspaceRoot: workspace.root }, { builtinTools });
  });
  afterEach(async () => {
    await host.close({ graceMs: 1_000 });
    await workspace.cleanup();
  });

  const shell = (raw: Record<string, unknown>) => host.callTool('shell', raw);
  const proc = (raw: Record<string, unknown>) => host.callTool('process', raw);
  async function start(command: string, extra: Record<string, unknown> = {}): Promise<string> {
    const result = await shell({ command, run_in_background: true, ...extra });
    expect(result.is_error, result.content).toBe(false);
    return result.metadata?.['process_id'] as string;
  }
  /** Re-reads the whole output until `pattern` shows up in it (the process runs concurrently). */
  async function readUntil(id: string, pattern: RegExp): Promise<string> {
    let seen = '';
    const found = await waitUntil(async () => {
      seen = (await proc({ action: 'output', process_id: id, offset: 0 })).content;
      return pattern.test(seen);
    }, 10_000);
    expect(found, `output so far: ${seen}`).toBe(true);
    return seen;
  }

  it('returns at once with metadata.process_id while the command keeps running', async () => {
    const marker = uniqueSleepSeconds();
    const result = await shell({ command: `sleep ${marker}`, run_in_background: true });
    expect(result.is_error).toBe(false);
    expect(result.metadata).toMatchObject({ process_id: 'p1', running: true, cwd: '.', isolation: 'namespaces' });
    expect(result.content).toContain('p1');
    expect(await waitUntil(async () => (await findProcessesWithArgument(marker)).length > 0)).toBe(true);
    const listed = await proc({ action: 'list' });
    expect(listed.metadata?.['processes']).toMatchObject([{ process_id: 'p1', command: `sleep ${marker}`, running: true }]);
    expect(listed.content).toContain('p1  running');
  });

  it('output returns only what is new since the last read, with offsets', async () => {
    const id = await start('echo first; read line; echo "second $line"; read again');
    await readUntil(id, /^first\n\[process p1 running\]$/);
    const empty = await proc({ action: 'output', process_id: id });
    expect(empty.content).toBe('(no new output)\n[process p1 running]');
    expect(empty.metadata).toMatchObject({ running: true, offset: 6, next_offset: 6, bytes: 0, more: false });
    expect(empty.metadata).not.toHaveProperty('exit_code');

    await proc({ action: 'write_stdin', process_id: id, input: 'line\n' });
    let second: ToolResult | undefined;
    expect(
      await waitUntil(async () => {
        second = await proc({ action: 'output', process_id: id });
        return second.metadata?.['bytes'] !== 0;
      }, 10_000),
    ).toBe(true);
    expect(second?.content).toBe('second line\n[process p1 running]');
    expect(second?.metadata).toMatchObject({ offset: 6, next_offset: 18 });

    const again = await proc({ action: 'output', process_id: id, offset: 0 });
    expect(again.content).toBe('first\nsecond line\n[process p1 running]');
    expect(again.metadata).toMatchObject({ offset: 0, next_offset: 18 });
  });

  it('wait returns on timeout while running, and with exit_code once the process ends', async () => {
    const id = await start('read go; echo bye; exit 7');
    const early = await proc({ action: 'wait', process_id: id, timeout_ms: 200 });
    expect(early.is_error).toBe(false);
    expect(early.metadata).toMatchObject({ running: true, wait_timed_out: true });
    expect(early.metadata).not.toHaveProperty('exit_code');
    expect(early.content).toContain('[still running after waiting 200 ms]');

    await proc({ action: 'write_stdin', process_id: id, input: 'now\n' });
    const done = await proc({ action: 'wait', process_id: id, timeout_ms: 20_000 });
    expect(done.metadata).toMatchObject({ running: false, exit_code: 7, wait_timed_out: false });
    expect(done.content).toBe('bye\n[process p1 exited with code 7]');
  });

  it('write_stdin with close_stdin ends the input; writing after that is refused', async () => {
    const id = await start('cat; echo cat-finished');
    const sent = await proc({ action: 'write_stdin', process_id: id, input: 'piped text\n', close_stdin: true });
    expect(sent).toMatchObject({ is_error: false, metadata: { running: true, bytes_written: 11, stdin_closed: true } });
    const done = await proc({ action: 'wait', process_id: id, timeout_ms: 20_000 });
    expect(done.content).toBe('piped text\ncat-finished\n[process p1 exited with code 0]');
    const late = await proc({ action: 'write_stdin', process_id: id, input: 'more' });
    expect(late.is_error).toBe(true);
    expect(late.metadata).toMatchObject({ running: false, exit_code: 0 });
    const nothing = await proc({ action: 'write_stdin', process_id: id });
    expect(nothing.is_error).toBe(true);
    expect(nothing.content).toMatch(/needs input/);
  });

  it('write_stdin to a process that never reads is refused past 1 MiB waiting, and a refused write sends nothing', async () => {
    // The process reads nothing until the file "go" appears, then counts every byte of its stdin.
    const id = await start('while [ ! -e go ]; do sleep 0.05; done; wc -c');
    const chunk = '€'.repeat(PROCESS_MAX_STDIN_CHARS); // 3 bytes a character: 192 KiB a write
    const chunkBytes = Buffer.byteLength(chunk);
    let accepted = 0;
    let refused: ToolResult | undefined;
    for (let attempt = 0; attempt < 40 && refused === undefined; attempt += 1) {
      const result = await proc({ action: 'write_stdin', process_id: id, input: chunk });
      if (result.is_error) refused = result;
      else accepted += chunkBytes;
    }
    expect(refused, 'a write past the bound must be refused').toBeDefined();
    expect(refused?.content).toMatch(/has not read the \d+ bytes already written to its stdin, and at most 1048576 bytes \(1 MiB\) may wait there; these 196608 bytes were refused and nothing was written/);
    const pending = refused?.metadata?.['stdin_pending_bytes'] as number;
    expect(refused?.metadata).toMatchObject({ running: true, stdin_buffer_limit_bytes: BACKGROUND_STDIN_BUFFER_BYTES });
    expect(pending + chunkBytes).toBeGreaterThan(BACKGROUND_STDIN_BUFFER_BYTES);
    expect(pending).toBeLessThanOrEqual(BACKGROUND_STDIN_BUFFER_BYTES);
    // Less than the bound plus one write was accepted (the rest sits in the kernel's pipe buffer).
    expect(accepted).toBeLessThan(BACKGROUND_STDIN_BUFFER_BYTES + 256 * 1024 + chunkBytes);
    // A refused write leaves stdin open: closing it still works.
    expect((await proc({ action: 'write_stdin', process_id: id, close_stdin: true })).is_error).toBe(false);
    await writeFile(path.join(workspace.root, 'go'), '');
    const done = await proc({ action: 'wait', process_id: id, timeout_ms: 30_000 });
    expect(done.metadata).toMatchObject({ running: false, exit_code: 0 });
    // Exactly the accepted writes arrived: nothing of the refused one.
    expect(done.content).toBe(`${accepted}\n[process p1 exited with code 0]`);
  });

  it('kill stops the process and every child it started', async () => {
    const marker = uniqueSleepSeconds();
    const id = await start(`sleep ${marker} & sleep ${marker} & echo started; wait`);
    await readUntil(id, /started/);
    expect(await waitUntil(async () => (await findProcessesWithArgument(marker)).length === 2)).toBe(true);
    const killed = await proc({ action: 'kill', process_id: id });
    expect(killed.is_error).toBe(false);
    expect(killed.metadata).toMatchObject({ running: false });
    expect(killed.metadata).toHaveProperty('exit_code');
    expect(killed.content).toContain('[sent SIGTERM to the process group]');
    expect(killed.metadata).toMatchObject({ sent_signals: ['SIGTERM'] });
    expect(await waitUntil(async () => (await findProcessesWithArgument(marker)).length === 0)).toBe(true);
    const again = await proc({ action: 'kill', process_id: id });
    expect(again.content).toContain('[the process had already ended]');
  });

  it('kill escalates to SIGKILL when the process ignores SIGTERM', async () => {
    const id = await start("trap '' TERM; echo trapped; while :; do sleep 0.05; done");
    await readUntil(id, /trapped/);
    const killed = await proc({ action: 'kill', process_id: id });
    expect(killed.metadata).toMatchObject({ running: false, sent_signals: ['SIGTERM', 'SIGKILL'] });
    expect(killed.content).toContain('so SIGKILL followed');
  });

  it('closing the host kills every background process group', async () => {
    const marker = uniqueSleepSeconds();
    await start(`sleep ${marker} & sleep ${marker}`);
    await start(`setsid sleep ${marker} & wait`);
    expect(await waitUntil(async () => (await findProcessesWithArgument(marker)).length === 3)).toBe(true);
    await host.close({ graceMs: 1_000 });
    expect(await waitUntil(async () => (await findProcessesWithArgument(marker)).length === 0)).toBe(true);
    const refused = await shell({ command: 'true', run_in_background: true });
    expect(refused.is_error).toBe(true);
  });

  it('a wait in flight returns with the final state when the host stops', async () => {
    const id = await start('echo waiting; sleep 1000');
    const waiting = proc({ action: 'wait', process_id: id, timeout_ms: 600_000 });
    await readUntil(id, /waiting/);
    await host.close({ graceMs: 10_000 });
    const result = await waiting;
    expect(result.metadata).toMatchObject({ running: false, wait_timed_out: false });
    expect(result.metadata).toHaveProperty('exit_code');
  });

  it(`allows ${BACKGROUND_MAX_LIVE_PROCESSES} live processes per host and refuses one more`, async () => {
    const marker = uniqueSleepSeconds();
    const ids: string[] = [];
    for (let index = 0; index < BACKGROUND_MAX_LIVE_PROCESSES; index += 1) ids.push(await start(`sleep ${marker}`));
    const refused = await shell({ command: 'true', run_in_background: true });
    expect(refused.is_error).toBe(true);
    expect(refused.content).toContain(`(${BACKGROUND_MAX_LIVE_PROCESSES})`);
    expect(refused.metadata).toMatchObject({ running: false });
    await proc({ action: 'kill', process_id: ids[0], signal: 'SIGKILL' });
    const accepted = await shell({ command: 'true', run_in_background: true });
    expect(accepted.is_error).toBe(false);
    // Another host has its own processes and its own limit.
    const other = await createHost({ workspaceRoot: workspace.root }, { builtinTools });
    try {
      expect((await other.callTool('process', { action: 'list' })).metadata).toEqual({ processes: [] });
      expect((await other.callTool('shell', { command: 'true', run_in_background: true })).metadata).toMatchObject({ process_id: 'p1' });
    } finally {
      await other.close();
    }
  });

  it('keeps a bounded ring buffer: the newest output, with the dropped bytes counted', async () => {
    const lines = 40_000; // 40,000 lines of 64 bytes = 2.56 MB, over the 1 MiB buffer
    const id = await start(`i=0; while [ $i -lt ${lines} ]; do printf '%063d\\n' $i; i=$((i+1)); done`);
    const done = await proc({ action: 'wait', process_id: id, timeout_ms: 120_000 });
    expect(done.metadata).toMatchObject({ running: false, exit_code: 0, offset: lines * 64 - BACKGROUND_OUTPUT_BUFFER_BYTES });
    expect(done.metadata?.['dropped_bytes']).toBe(lines * 64 - BACKGROUND_OUTPUT_BUFFER_BYTES);
    expect(done.metadata?.['bytes']).toBe(PROCESS_MAX_READ_BYTES);
    expect(done.metadata?.['more']).toBe(true);
    expect(done.content).toMatch(/^\[\d+ older bytes were dropped/);
    let last: ToolResult = done;
    let reads = 1;
    while (last.metadata?.['more'] === true) {
      last = await proc({ action: 'output', process_id: id });
      reads += 1;
    }
    expect(reads).toBe(Math.ceil(BACKGROUND_OUTPUT_BUFFER_BYTES / PROCESS_MAX_READ_BYTES));
    expect(last.metadata).toMatchObject({ next_offset: lines * 64, dropped_bytes: 0 });
    expect(last.content).toContain(`${String(lines - 1).padStart(63, '0')}\n[process p1 exited with code 0]`);
    const listed = await proc({ action: 'list' });
    expect(listed.metadata?.['processes']).toMatchObject([{ output_bytes: lines * 64, unread_bytes: 0 }]);
  });

  it('runs confined like shell: workspace cwd, scrubbed environment, its own PID namespace', async () => {
    await writeTestFile(workspace.root, 'sub/file.txt', 'x');
    process.env['TOOLHOST_TEST_LEAK'] = 'leaked-value';
    try {
      const id = await start('pwd; env | sort; cat /proc/1/cmdline | tr "\\0" " "; echo', { cwd: 'sub' });
      const done = await proc({ action: 'wait', process_id: id, timeout_ms: 20_000 });
      const [pwd, ...rest] = done.content.split('\n');
      expect(pwd).toBe(path.join(workspace.root, 'sub'));
      const variables = rest.filter((line) => /^[A-Z_]+=/.test(line)).map((line) => line.split('=')[0]);
      expect(new Set(variables)).toEqual(new Set(['HOME', 'LANG', 'PATH', 'PWD', 'TERM', ...variables.filter((name) => name === 'LC_ALL' || name === 'TZ' || name === 'SHLVL' || name === 'OLDPWD')]));
      expect(done.content).not.toContain('leaked-value');
      expect(done.content).toContain(`HOME=${workspace.root}`);
      // PID 1 of its namespace is bubblewrap's init: the host's processes are not there.
      expect(done.content).toMatch(/\/bwrap --die-with-parent --unshare-pid/);
    } finally {
      delete process.env['TOOLHOST_TEST_LEAK'];
    }
    const outside = await shell({ command: 'pwd', cwd: '..', run_in_background: true });
    expect(outside.is_error).toBe(true);
    expect(outside.content).toMatch(/outside the workspace/);
    expect((await proc({ action: 'list' })).metadata?.['processes']).toHaveLength(1);
  });

  it('turns unknown and missing process ids into errors a model can act on', async () => {
    const missing = await proc({ action: 'output' });
    expect(missing.is_error).toBe(true);
    expect(missing.content).toMatch(/needs process_id/);
    const unknown = await proc({ action: 'wait', process_id: 'p9' });
    expect(unknown.is_error).toBe(true);
    expect(unknown.content).toMatch(/No background process "p9".*none has been started/);
    const empty = await proc({ action: 'list' });
    expect(empty).toMatchObject({ is_error: false, metadata: { processes: [] } });
  });

  it('writes files in the workspace, not elsewhere', async () => {
    const id = await start('echo made > made.txt');
    await proc({ action: 'wait', process_id: id, timeout_ms: 20_000 });
    expect(await readFile(path.join(workspace.root, 'made.txt'), 'utf8')).toBe('made\n');
  });
});

describe('background processes outside a host', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createTestWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('say that they need a host to keep them', async () => {
    const started = await callTool(shellTool, { command: 'true', run_in_background: true }, workspace.context);
    expect(started.is_error).toBe(true);
    expect(started.content).toMatch(/need a running tool host/);
    const listed = await callTool(processTool, { action: 'list' }, workspace.context);
    expect(listed.is_error).toBe(true);
  });
});
