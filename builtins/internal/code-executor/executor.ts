/**
 * One `run_code` executor: a child Node process (child.ts) that runs one program at a time in QuickJS,
 * on its own thread, at a lower CPU priority than the daemon, with no environment and a small V8 heap.
 * The daemon's side of it lives here: starting it, handing it a run, answering its tool calls through
 * the daemon's call path, and the limits, which hold however the child behaves:
 *
 * - deadline and cancellation: SIGKILL, at once, even in the middle of native work (a big-integer to
 *   text, a long regex match) that the engine's interrupt handler cannot reach;
 * - memory: QuickJS's heap is capped inside the child (64 MiB of linear memory); the daemon also reads
 *   the child's resident size from /proc/<pid>/statm (Linux) every RSS_POLL_MS and kills it past
 *   `rssLimitBytes`, so V8-side growth is bounded too; a V8 heap overflow (`--max-old-space-size`)
 *   ends the child, which is reported as a memory failure;
 * - tool calls: only names the run was offered, at most `maxToolCalls`; anything else the child sends
 *   that breaks the protocol ends it as `crashed`.
 *
 * Errors are data: `run` never throws; every ending is an `ExecutorOutcome`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { parse as parsePath } from 'node:path';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { BoundedConsole } from '../quickjs-console.ts';
import { parseExecutorMessage, type ExecutorFailure, type ExecutorMessage, type ExecutorRunLimits, type RunEnding } from './protocol.ts';

/** Why a run failed: the executor's own reasons plus the daemon's (`crashed`: the process died; `busy`: no slot, retry). */
export type RunCodeFailure = ExecutorFailure | 'crashed' | 'busy';

export type ExecutorOutcome = { console: { text: string; truncated: boolean }; toolCalls: number } & (
  | { ok: true; json: string }
  | { ok: false; failure: RunCodeFailure; message: string; retryAfterMs?: number }
);

export interface ExecutorRunRequest {
  code: string;
  toolNames: readonly string[];
  limits: ExecutorRunLimits;
  /** Runs one tool call in the daemon (arguments and result as JSON). */
  callTool(name: string, argsJson: string): Promise<string>;
  /** The call's signal: aborting it (cancellation, or the deadline) kills the run. */
  signal: AbortSignal;
}

export interface CodeExecutorOptions {
  /** Resident size past which the process is killed (`memory`), bytes. */
  rssLimitBytes: number;
  /** V8 heap cap of the child (`--max-old-space-size`), MiB. */
  heapMb: number;
  /** Nice value of the child (higher is lower priority). */
  niceness: number;
}

/** How often the daemon reads a running executor's resident size. */
export const RSS_POLL_MS = 100;
/** Most characters of the child's stderr kept, to tell a V8 heap overflow from another crash. */
const STDERR_TAIL_CHARS = 4096;
const PAGE_BYTES = 4096;

/**
 * The child entry next to this module: `.js` in the build; `.ts` when this module is `.ts` (the sources,
 * in tests and development), run with Node's own type stripping where it has it (the child's modules
 * use only erasable syntax; measured: about half tsx's start-up), else through tsx.
 */
export function executorEntry(): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { filename: fileURLToPath(new URL('./child.js', here)), execArgv: [] };
  const filename = fileURLToPath(new URL('./child.ts', here));
  const strips = (process.features as { typescript?: unknown }).typescript;
  const execArgv = strips ? ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'] : ['--import', import.meta.resolve('tsx')];
  return { filename, execArgv };
}

/** Resident bytes of a process, from /proc (Linux); undefined elsewhere or once it is gone. */
export async function residentBytes(pid: number): Promise<number | undefined> {
  try {
    const statm = await readFile(`/proc/${pid}/statm`, 'utf8');
    const pages = Number(statm.split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_BYTES : undefined;
  } catch {
    return undefined;
  }
}

function isTimeoutReason(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}

type KillReason = 'timeout' | 'cancelled' | 'memory' | 'crashed';

/** The state of the run in progress (one at a time). */
interface ActiveRun {
  id: number;
  request: ExecutorRunRequest;
  printed: BoundedConsole;
  toolCalls: number;
  finish(outcome: ExecutorOutcome): void;
}

export class CodeExecutor {
  /** Resolves true once the child has loaded the engine, false if it died first. */
  readonly ready: Promise<boolean>;
  /** Resolves when the process has exited (what a pool waits for before it counts the memory as free). */
  readonly exited: Promise<void>;
  /** Runs this executor has finished. */
  runs = 0;
  private readonly child: ChildProcess;
  private active: ActiveRun | undefined;
  private nextRun = 0;
  private alive = true;
  private stderrTail = '';
  private exitDescription = '';

  constructor(private readonly options: CodeExecutorOptions) {
    const { filename, execArgv } = executorEntry();
    this.child = fork(filename, [], {
      execPath: process.execPath,
      execArgv: [...execArgv, `--max-old-space-size=${options.heapMb}`],
      // Never the daemon's environment: it may hold tokens and secrets. The child needs none.
      env: {},
      cwd: parsePath(process.cwd()).root,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const pid = this.child.pid;
    if (pid !== undefined) {
      try {
        setPriority(pid, options.niceness);
      } catch {
        // Not permitted here (some containers): the process still runs, at the daemon's priority.
      }
    }
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    this.exited = new Promise<void>((resolve) => {
      const exited = (description: string): void => {
        if (!this.alive) return;
        this.alive = false;
        this.exitDescription = description;
        this.onExit();
        resolve();
      };
      // 'close' rather than 'exit': by then its stderr has been read to the end (a heap overflow's report comes last).
      this.child.once('close', (code, signal) => exited(signal !== null ? `signal ${signal}` : `exit code ${String(code)}`));
      // A process that never started (no pid) reports only 'error'; a started one also exits, after a kill.
      this.child.on('error', (error) => {
        if (this.child.pid === undefined) exited(`not started: ${error.message}`);
        else this.kill();
      });
    });
    this.ready = new Promise<boolean>((resolve) => {
      const onMessage = (raw: unknown): void => {
        if (parseExecutorMessage(raw)?.type !== 'ready') return;
        this.child.off('message', onMessage);
        resolve(true);
      };
      this.child.on('message', onMessage);
      void this.exited.then(() => resolve(false));
    });
    this.child.on('message', (raw: unknown) => this.onMessage(raw));
    this.idle(true);
  }

  get isAlive(): boolean {
    return this.alive;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Kills the process (SIGKILL); a run in progress ends as `crashed` unless a reason was already given. */
  kill(): void {
    if (!this.alive) return;
    // Referenced again until it has exited, so whoever waits on `exited` is not left with an empty event loop.
    this.child.ref();
    this.child.kill('SIGKILL');
  }

  /**
   * Runs one program on an idle executor, once it is ready: the deadline, cancellation and the memory
   * bound hold from this call on, start-up included (a child that never gets ready is killed at the
   * deadline like any other). Never throws.
   */
  run(request: ExecutorRunRequest): Promise<ExecutorOutcome> {
    if (!this.alive || this.active) return Promise.resolve(this.failed(new BoundedConsole(1), 0, 'crashed', 'The executor process was not available for a run.'));
    this.idle(false);
    const id = this.nextRun++;
    return new Promise<ExecutorOutcome>((resolve) => {
      const deadlineTimer = setTimeout(() => this.stop('timeout'), Math.max(0, request.limits.deadline - Date.now()));
      const onAbort = (): void => this.stop(isTimeoutReason(request.signal.reason) || Date.now() >= request.limits.deadline ? 'timeout' : 'cancelled');
      const rssTimer = setInterval(() => void this.checkMemory(id), RSS_POLL_MS);
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.active = {
        id,
        request,
        printed: new BoundedConsole(request.limits.consoleChars),
        toolCalls: 0,
        finish: (outcome) => {
          clearTimeout(deadlineTimer);
          clearInterval(rssTimer);
          request.signal.removeEventListener('abort', onAbort);
          this.active = undefined;
          this.runs += 1;
          if (this.alive) this.idle(true);
          resolve(outcome);
        },
      };
      if (request.signal.aborted) {
        onAbort();
        return;
      }
      // A child that dies before it is ready ends the run through the exit handler.
      void this.ready.then((ready) => {
        if (!ready || this.active?.id !== id) return;
        this.child.send({ type: 'run', run: id, code: request.code, toolNames: [...request.toolNames], limits: request.limits }, (error) => {
          if (error) this.stop('crashed');
        });
      });
    });
  }

  /** The host is stopping: a run in progress ends as cancelled, and the process is killed. */
  shutdown(): void {
    this.stop('cancelled', 'The host is shutting down; the run was stopped.');
  }

  /** An idle executor must not keep the daemon's event loop alive (a one-shot CLI call exits without waiting for it). */
  private idle(isIdle: boolean): void {
    const channel = this.child.channel as { ref(): void; unref(): void } | null | undefined;
    if (isIdle) {
      this.child.unref();
      channel?.unref();
    } else {
      this.child.ref();
      channel?.ref();
    }
  }

  /** Ends the active run for `reason` and kills the process. */
  private stop(reason: KillReason, detail?: string): void {
    const active = this.active;
    this.kill();
    if (!active) return;
    active.finish(this.failed(active.printed, active.toolCalls, reason, this.killMessage(reason, active.request.limits, detail)));
  }

  private killMessage(reason: KillReason, limits: ExecutorRunLimits, detail: string | undefined): string {
    switch (reason) {
      case 'timeout':
        return `The code did not finish before its deadline (${new Date(limits.deadline).toISOString()}); it was stopped.`;
      case 'cancelled':
        return detail ?? 'The run was cancelled.';
      case 'memory':
        return detail ?? `The code's process used more than ${Math.round(this.options.rssLimitBytes / 1024 / 1024)} MiB; it was stopped.`;
      case 'crashed':
        return detail ?? "The code's executor process stopped unexpectedly; the run did not complete.";
    }
  }

  private failed(printed: BoundedConsole, toolCalls: number, failure: RunCodeFailure, message: string): ExecutorOutcome {
    return { ok: false, failure, message, console: printed.snapshot(), toolCalls };
  }

  private async checkMemory(id: number): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined || this.active?.id !== id) return;
    const rss = await residentBytes(pid);
    if (rss !== undefined && rss > this.options.rssLimitBytes && this.active?.id === id) this.stop('memory');
  }

  /** The process is gone: a run still active ended with it (a V8 heap overflow is a memory failure). */
  private onExit(): void {
    if (!this.active) return;
    const heapOverflow = /heap out of memory|Reached heap limit/i.test(this.stderrTail);
    if (heapOverflow) {
      this.stop('memory', `The code's process ran out of its ${this.options.heapMb} MiB heap; it was stopped.`);
      return;
    }
    this.stop('crashed', `The code's executor process stopped unexpectedly (${this.exitDescription}); the run did not complete.`);
  }

  private onMessage(raw: unknown): void {
    const message = parseExecutorMessage(raw);
    const active = this.active;
    if (message === undefined) {
      this.stop('crashed', 'The code\'s executor process sent a malformed message; it was stopped.');
      return;
    }
    if (message.type === 'ready' || !active || message.run !== active.id) return;
    this.handle(active, message);
  }

  private handle(active: ActiveRun, message: Exclude<ExecutorMessage, { type: 'ready' }>): void {
    switch (message.type) {
      case 'console':
        if (message.line !== null) active.printed.keep(message.line);
        if (message.truncated) active.printed.markTruncated();
        return;
      case 'tool_call':
        this.callTool(active, message.call, message.name, message.argsJson);
        return;
      case 'done':
        active.toolCalls = Math.max(active.toolCalls, message.toolCalls);
        active.finish(this.ending(active, message.ending));
        return;
    }
  }

  private ending(active: ActiveRun, ending: RunEnding): ExecutorOutcome {
    return { ...ending, console: active.printed.snapshot(), toolCalls: active.toolCalls };
  }

  /** One `tools.x()` from the child: checked against what the run was offered, run in the daemon, answered. */
  private callTool(active: ActiveRun, call: number, name: string, argsJson: string): void {
    active.toolCalls += 1;
    const { request } = active;
    if (active.toolCalls > request.limits.maxToolCalls || !request.toolNames.includes(name)) {
      // The child refuses both before asking; a request past them means it no longer follows the protocol.
      this.stop('crashed', `The code's executor process asked for a call it may not make (${name}); it was stopped.`);
      return;
    }
    void request.callTool(name, argsJson).then((json) => {
      if (this.active?.id !== active.id || !this.alive) return;
      this.child.send({ type: 'tool_result', run: active.id, call, json }, () => undefined);
    });
  }
}
