/**
 * The `run_code` executor processes from the daemon's side (builtins/internal/code-executor/), with
 * real child processes: a crash mid-run, the resident-size bound, a V8 heap overflow in the child,
 * reuse of a cleanly finished executor and replacement of a killed one, the pool closing with the
 * host, and the engine package never loading into the daemon's own process.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodeExecutor, type ExecutorRunRequest } from '../../builtins/internal/code-executor/executor.ts';
import type { ExecutorRunLimits } from '../../builtins/internal/code-executor/protocol.ts';
import { createHost } from '../../src/host.ts';
import { PROJECT_ROOT, temporaryDirectory } from '../cli/run-cli.ts';
import { childPids, commandLineOf, isRunning } from '../server/daemon-process.ts';

const EXECUTOR = { rssLimitBytes: 256 * 1024 * 1024, heapMb: 64, niceness: 10 };

function limits(overrides: Partial<ExecutorRunLimits> = {}): ExecutorRunLimits {
  return { deadline: Date.now() + 60_000, memoryBytes: 64 << 20, stackBytes: 256 << 10, consoleChars: 16_384, maxToolCalls: 200, maxResultChars: 1 << 18, maxCallArgsChars: 1 << 22, ...overrides };
}

function request(code: string, overrides: Partial<ExecutorRunRequest> = {}): ExecutorRunRequest {
  return { code, toolNames: ['echo'], limits: limits(), callTool: async () => JSON.stringify({ content: 'echoed', is_error: false }), signal: new AbortController().signal, ...overrides };
}

/** This process's executor children. */
function executors(): number[] {
  return childPids(process.pid).filter((pid) => commandLineOf(pid).includes('code-executor'));
}

describe.runIf(process.platform === 'linux')('run_code executors', { timeout: 60_000 }, () => {
  const started: CodeExecutor[] = [];
  function executor(options = EXECUTOR): CodeExecutor {
    const created = new CodeExecutor(options);
    started.push(created);
    return created;
  }
  afterEach(async () => {
    for (const created of started.splice(0)) {
      created.kill();
      await created.exited;
    }
  });

  it('answers tool calls and keeps console output of a run that is then killed from outside (crashed)', async () => {
    const subject = executor();
    expect(await subject.ready).toBe(true);
    let calls = 0;
    const outcome = await subject.run(
      request('console.log("before"); await tools.echo({}); console.log("after the call"); for (;;) {}', {
        callTool: async () => {
          calls += 1;
          // The run is spinning once its call is answered: something outside kills the process.
          setTimeout(() => process.kill(subject.pid as number, 'SIGKILL'), 200);
          return JSON.stringify({ content: 'echoed', is_error: false });
        },
      }),
    );
    expect(calls).toBe(1);
    expect(outcome).toMatchObject({ ok: false, failure: 'crashed', toolCalls: 1, console: { text: 'before\nafter the call' } });
    expect(outcome.ok ? '' : outcome.message).toMatch(/stopped unexpectedly \(signal SIGKILL\)/);
  });

  it('kills a run whose process grows past the resident-size bound (memory)', async () => {
    // A bound below what Node itself needs: the first reading during the run is over it.
    const subject = executor({ ...EXECUTOR, rssLimitBytes: 16 * 1024 * 1024 });
    expect(await subject.ready).toBe(true);
    const outcome = await subject.run(request('for (;;) {}'));
    expect(outcome).toMatchObject({ ok: false, failure: 'memory' });
    expect(outcome.ok ? '' : outcome.message).toMatch(/more than 16 MiB/);
    await subject.exited;
    expect(subject.isAlive).toBe(false);
  });

  it("reports a V8 heap overflow in the executor as memory (a tool result larger than the child's heap)", async () => {
    const subject = executor({ ...EXECUTOR, heapMb: 16 });
    expect(await subject.ready).toBe(true);
    const huge = JSON.stringify({ content: 'y'.repeat(48 * 1024 * 1024), is_error: false });
    const outcome = await subject.run(request('const r = await tools.echo({}); return r.content.length', { callTool: async () => huge }));
    expect(outcome).toMatchObject({ ok: false, failure: 'memory' });
    expect(outcome.ok ? '' : outcome.message).toMatch(/16 MiB heap/);
  });

  it('refuses a result over the size limit inside the executor, and stops at the deadline even in native work', async () => {
    const subject = executor();
    expect(await subject.ready).toBe(true);
    expect(await subject.run(request('return "y".repeat(300000)', { limits: limits({ maxResultChars: 1000 }) }))).toMatchObject({ ok: false, failure: 'result_too_large' });
    const native = await subject.run(request("return 'ab'.repeat(1 << 22).lastIndexOf('ba'.repeat(1 << 10) + 'x')", { limits: limits({ deadline: Date.now() + 1_500 }) }));
    expect(native).toMatchObject({ ok: false, failure: 'timeout' });
    await subject.exited;
  });

  it('a host reuses a cleanly finished executor, replaces a killed one, and kills all of them when it closes', async () => {
    const workspace = temporaryDirectory('toolhost-run-code-executor-');
    const host = await createHost({ workspaceRoot: workspace.path, limits: { timeoutMs: 4_000 } });
    try {
      expect(await host.callTool('run_code', { code: 'return 1' })).toMatchObject({ is_error: false });
      const first = executors();
      expect(first).toHaveLength(1);
      expect(await host.callTool('run_code', { code: 'throw new Error("an error in the code is a clean end")' })).toMatchObject({ is_error: true, metadata: { failure: 'exception' } });
      expect(await host.callTool('run_code', { code: 'return 2' })).toMatchObject({ is_error: false, content: '2' });
      expect(executors().sort()).toEqual(first.sort());
      expect(await host.callTool('run_code', { code: 'for (;;) {}' })).toMatchObject({ is_error: true, metadata: { failure: 'timeout' } });
      await vi.waitFor(() => expect(first.filter(isRunning)).toEqual([]), { timeout: 10_000, interval: 50 });
      // Its replacement is started when it is gone, and serves the next run.
      await vi.waitFor(() => expect(executors()).toHaveLength(1), { timeout: 10_000, interval: 50 });
      const replacement = executors();
      expect(await host.callTool('run_code', { code: 'return 3' })).toMatchObject({ is_error: false, content: '3' });
      expect(executors()).toEqual(replacement);
      const later = executors();
      await host.close({ graceMs: 5_000 });
      expect(later.filter(isRunning)).toEqual([]);
    } finally {
      await host.close();
      workspace.remove();
    }
  });

  it('closing the host stops a running program at once, as cancelled, and leaves no executor', async () => {
    const workspace = temporaryDirectory('toolhost-run-code-close-');
    const host = await createHost({ workspaceRoot: workspace.path, limits: { timeoutMs: 60_000 } });
    try {
      const running = host.callTool('run_code', { code: 'for (;;) {}' });
      await vi.waitFor(() => expect(executors()).toHaveLength(1), { timeout: 20_000, interval: 50 });
      const pids = executors();
      await host.close({ graceMs: 30_000 });
      expect(await running).toMatchObject({ is_error: true, metadata: { failure: 'cancelled' } });
      expect((await running).content).toMatch(/shutting down/);
      expect(pids.filter(isRunning)).toEqual([]);
    } finally {
      workspace.remove();
    }
  });

  it('the daemon process never loads the engine package: only executors do', () => {
    // A host in a fresh process, recording every module it resolves while it runs code.
    const script = `
      import { registerHooks } from 'node:module';
      const resolved = [];
      registerHooks({ resolve(specifier, context, next) { resolved.push(specifier); return next(specifier, context); } });
      const { createHost } = await import(${JSON.stringify(join(PROJECT_ROOT, 'src/host.ts'))});
      const host = await createHost({ workspaceRoot: process.argv[1] });
      const result = await host.callTool('run_code', { code: 'return 6 * 7' });
      await host.close();
      console.log(JSON.stringify({ result, pool: resolved.some((specifier) => specifier.includes('code-executor/pool')), quickjs: resolved.filter((specifier) => /quickjs-emscripten|quickjs-sandbox|@jitl/.test(specifier)) }));
    `;
    const workspace = temporaryDirectory('toolhost-run-code-imports-');
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, workspace.path], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 60_000 });
      const lastLine = run.stdout.trim().split('\n').at(-1) ?? '';
      expect(lastLine, run.stderr).toMatch(/^\{/);
      const report = JSON.parse(lastLine) as { result: { content: string }; pool: boolean; quickjs: string[] };
      expect(report.result.content).toBe('42');
      // The hook sees the daemon's own modules (the executor pool)...
      expect(report.pool).toBe(true);
      // ...and no engine module (quickjs-emscripten, or the sandbox that imports it).
      expect(report.quickjs).toEqual([]);
    } finally {
      workspace.remove();
    }
  });
});
