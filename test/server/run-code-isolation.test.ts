/**
 * `run_code` as an attacker would use it against a real daemon (`toolhost serve`, its own process, on
 * loopback): programs that hold the engine in native work it cannot interrupt, that spin on tool
 * calls the host refuses without I/O, that crowd the host with concurrent runs, that fill their
 * memory again and again. The code runs in executor processes, so each time `/healthz` keeps
 * answering (a generous 2 s bound; the in-thread sandbox froze it 10-36 s), a hostile run ends as an
 * is_error timeout at its deadline, the daemon's memory stays flat, the executors hold none of the
 * daemon's secrets, and none outlives a `kill -9` of the daemon. Precise timings: test/bench/run-code-liveness.ts.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RUN_CODE_EXECUTOR_RSS_BYTES, RUN_CODE_MAX_CONCURRENT, RUN_CODE_MAX_QUEUE, RUN_CODE_WARM_EXECUTORS } from '../../builtins/run-code.ts';
import { temporaryDirectory } from '../cli/run-cli.ts';
import { childPids, commandLineOf, environOf, isRunning, niceOf, probeHealthWhile, residentBytesOf, startDaemon, type DaemonProcess } from './daemon-process.ts';
import { postJson, readJson } from './helpers.ts';

/** Far above a healthy answer (milliseconds), far below the freezes the in-thread sandbox caused. */
const HEALTHZ_BOUND_MS = 2_000;

interface CallResult {
  content: string;
  is_error: boolean;
  metadata?: Record<string, unknown>;
}

async function runCode(url: string, code: string): Promise<CallResult> {
  const response = await postJson(`${url}/v1/tools/run_code/call`, { arguments: { code } });
  expect(response.status).toBe(200);
  return (await readJson(response)) as CallResult;
}

/** Executor processes of a daemon (its children running the executor entry). */
function executorsOf(daemon: DaemonProcess): number[] {
  return childPids(daemon.pid).filter((pid) => commandLineOf(pid).includes('code-executor'));
}

describe.runIf(process.platform === 'linux')('run_code isolation, through a real daemon', { timeout: 180_000 }, () => {
  let workspace: { path: string; remove: () => void };
  /** A short call deadline, for the hostile runs. */
  let strict: DaemonProcess;
  /** A long one, for well-behaved load. */
  let roomy: DaemonProcess;
  const roomyConfig = (): string => join(workspace.path, 'roomy.json');

  beforeAll(async () => {
    workspace = temporaryDirectory('toolhost-run-code-isolation-');
    writeFileSync(join(workspace.path, 'a.txt'), 'alpha\n');
    // glob is denied by an approval rule: the host refuses it at once, without I/O.
    const strictConfig = join(workspace.path, 'strict.json');
    writeFileSync(strictConfig, JSON.stringify({ limits: { timeout_ms: 4_000 }, approvals: [{ tool: 'glob', action: 'deny' }] }));
    writeFileSync(roomyConfig(), JSON.stringify({ limits: { timeout_ms: 60_000 } }));
    const secretEnv = { TOOLHOST_SECRET_API_KEY: 'daemon-secret-never-in-executors' };
    [strict, roomy] = await Promise.all([
      startDaemon(['--config', strictConfig], { cwd: workspace.path, env: secretEnv }),
      startDaemon(['--config', roomyConfig()], { cwd: workspace.path }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([strict?.stop(), roomy?.stop()]);
    workspace?.remove();
  });

  it('kills native work the engine cannot interrupt at the deadline, while /healthz keeps answering', async () => {
    const hostile = [
      // A quadratic substring search: one builtin call, ~40 s of native work.
      "return 'ab'.repeat(1 << 22).lastIndexOf('ba'.repeat(1 << 10) + 'x')",
      // Big integers to and from text: seconds of native work per statement.
      'let n = 0; for (const e of [300000n, 300001n, 300002n, 300003n]) n += String(10n ** e).length; return n',
      'let r = 0n; for (let i = 0; i < 40; i++) r += BigInt("9".repeat(300000 + i)) % 7n; return String(r)',
    ];
    const { value: results, latencies } = await probeHealthWhile(strict.url, Promise.all(hostile.map((code) => runCode(strict.url, code))));
    for (const [index, result] of results.entries()) {
      expect(result, hostile[index]).toMatchObject({ is_error: true, metadata: { failure: 'timeout' } });
      expect(result.content).toMatch(/deadline/);
    }
    expect(latencies.length).toBeGreaterThan(5);
    expect(Math.max(...latencies)).toBeLessThan(HEALTHZ_BOUND_MS);
    expect(await runCode(strict.url, 'return "still serving"')).toMatchObject({ is_error: false, content: '"still serving"' });
  });

  it('spinning on tool calls the host refuses without I/O holds only the executor', async () => {
    const hostile = [
      // Denied by an approval rule, answered at once.
      'for (;;) { try { await tools.glob({pattern: "*"}); } catch (error) {} }',
      // Refused by argument validation, answered at once; past 200 calls the guest's own refusal is synchronous too.
      'for (;;) { try { await tools.read_file({}); } catch (error) {} }',
    ];
    const { value: results, latencies } = await probeHealthWhile(strict.url, Promise.all(hostile.map((code) => runCode(strict.url, code))));
    for (const result of results) {
      expect(result).toMatchObject({ is_error: true, metadata: { failure: 'timeout', tool_calls: 200 } });
    }
    expect(Math.max(...latencies)).toBeLessThan(HEALTHZ_BOUND_MS);
  });

  it('runs 8 concurrent well-behaved programs (0.95 s of computing each) while /healthz keeps answering', async () => {
    const busy = 'const started = Date.now(); let spins = 0; while (Date.now() - started < 950) spins++; return spins > 0';
    const { value: results, latencies } = await probeHealthWhile(roomy.url, Promise.all(Array.from({ length: 8 }, () => runCode(roomy.url, busy))));
    // On a loaded machine a queued run may wait past the queue's limit: it is then refused as busy (retryable), never run late.
    for (const result of results) {
      if (result.is_error) expect(result).toMatchObject({ metadata: { failure: 'busy', retryable: true } });
      else expect(result).toMatchObject({ is_error: false, content: 'true' });
    }
    expect(results.filter((result) => !result.is_error).length).toBeGreaterThanOrEqual(RUN_CODE_MAX_CONCURRENT);
    expect(Math.max(...latencies)).toBeLessThan(HEALTHZ_BOUND_MS);
  });

  it('caps concurrent runs: past the queue a run is refused as busy, with metadata.retry_after_ms to retry after', async () => {
    const total = RUN_CODE_MAX_CONCURRENT + RUN_CODE_MAX_QUEUE + 4;
    // Each holds its slot for 2 s while using no CPU (a shell call sleeping).
    const results = await Promise.all(Array.from({ length: total }, () => runCode(roomy.url, 'await tools.shell({command: "sleep 2"}); return "slept"')));
    const busy = results.filter((result) => result.metadata?.['failure'] === 'busy');
    const ran = results.filter((result) => !result.is_error);
    expect(busy.length).toBeGreaterThanOrEqual(4);
    expect(ran.length).toBeGreaterThanOrEqual(RUN_CODE_MAX_CONCURRENT);
    expect(busy.length + ran.length).toBe(total);
    for (const refused of busy) {
      expect(refused.metadata).toMatchObject({ retryable: true });
      expect(refused.metadata?.['retry_after_ms']).toBeGreaterThan(0);
      expect(refused.content).toMatch(/safe to retry/);
    }
  });

  it("bounds memory: 40 concurrent runs that fill and hold their sandbox leave the daemon's RSS flat, with executors and their memory capped", async () => {
    // 56 MiB written (so it is resident) and held while awaiting a tool: in the daemon's own process this was +2 GB for 40 runs.
    const hog = 'const kept = []; for (let i = 0; i < 14; i++) kept.push(new Uint8Array(1 << 22).fill(i + 1)); await tools.shell({command: "sleep 2"}); return kept.length';
    await runCode(roomy.url, 'return 1');
    const before = residentBytesOf(roomy.pid);
    let daemonPeak = before;
    let mostExecutors = 0;
    let executorBytesPeak = 0;
    const sample = (): void => {
      daemonPeak = Math.max(daemonPeak, residentBytesOf(roomy.pid));
      const executors = executorsOf(roomy);
      mostExecutors = Math.max(mostExecutors, executors.length);
      const bytes = executors.reduce((sum, pid) => sum + (isRunning(pid) ? residentBytesOf(pid) : 0), 0);
      executorBytesPeak = Math.max(executorBytesPeak, bytes);
    };
    const sampler = setInterval(() => {
      try {
        sample();
      } catch {
        // A process exited between listing and reading.
      }
    }, 200);
    let results: CallResult[];
    try {
      results = await Promise.all(Array.from({ length: 40 }, () => runCode(roomy.url, hog)));
    } finally {
      clearInterval(sampler);
    }
    const ran = results.filter((result) => !result.is_error);
    for (const result of ran) expect(result.content).toBe('14');
    for (const result of results.filter((result) => result.is_error)) expect(result).toMatchObject({ metadata: { failure: 'busy', retryable: true } });
    expect(ran.length).toBeGreaterThanOrEqual(RUN_CODE_MAX_CONCURRENT);
    expect(results.length - ran.length).toBeGreaterThanOrEqual(40 - RUN_CODE_MAX_CONCURRENT - RUN_CODE_MAX_QUEUE);
    expect(daemonPeak - before).toBeLessThan(400 * 1024 * 1024);
    expect(residentBytesOf(roomy.pid) - before).toBeLessThan(400 * 1024 * 1024);
    // The running ones and the warm one (and one still exiting at most), each under its RSS bound.
    const most = RUN_CODE_MAX_CONCURRENT + RUN_CODE_WARM_EXECUTORS + 1;
    expect(mostExecutors).toBeGreaterThan(0);
    expect(mostExecutors).toBeLessThanOrEqual(most);
    expect(executorBytesPeak).toBeGreaterThan(RUN_CODE_MAX_CONCURRENT * 56 * 1024 * 1024 * 0.5);
    expect(executorBytesPeak).toBeLessThanOrEqual(most * RUN_CODE_EXECUTOR_RSS_BYTES);
  });

  it("executors hold none of the daemon's environment, run at a lower priority, in a neutral directory", async () => {
    const running = runCode(strict.url, 'for (;;) {}');
    await vi.waitFor(() => expect(executorsOf(strict).length).toBeGreaterThan(0), { timeout: 20_000, interval: 50 });
    expect(environOf(strict.pid).join('\n')).toContain('daemon-secret-never-in-executors');
    for (const pid of executorsOf(strict)) {
      // Only what Node's fork adds for the IPC channel.
      expect(environOf(pid).filter((entry) => !entry.startsWith('NODE_CHANNEL_'))).toEqual([]);
      expect(niceOf(pid)).toBeGreaterThanOrEqual(10);
    }
    expect(await running).toMatchObject({ is_error: true, metadata: { failure: 'timeout' } });
  });

  it('leaves no executor behind when the daemon is killed with SIGKILL, even one deep in native work', async () => {
    const victim = await startDaemon(['--config', roomyConfig()], { cwd: workspace.path });
    try {
      const flag = join(workspace.path, 'native-started.flag');
      const native = runCode(
        victim.url,
        "await tools.shell({command: 'touch native-started.flag'}); return 'ab'.repeat(1 << 22).lastIndexOf('ba'.repeat(1 << 10) + 'x')",
      ).catch(() => undefined);
      // The flag is written just before the native work starts; the warm executor is up by then too.
      await vi.waitFor(() => expect(existsSync(flag)).toBe(true), { timeout: 20_000, interval: 50 });
      const executors = executorsOf(victim);
      expect(executors.length).toBeGreaterThanOrEqual(1);
      victim.child.kill('SIGKILL');
      await victim.exited;
      await native;
      await vi.waitFor(() => expect(executors.filter(isRunning)).toEqual([]), { timeout: 10_000, interval: 50 });
    } finally {
      await victim.stop();
    }
  });
});
