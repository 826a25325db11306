/**
 * The host's `run_code` executors (a HostResource: one pool per host, closed with it): at most
 * `maxConcurrent` runs at once, each in its own executor process, with up to `maxQueue` more waiting
 * (FIFO, at most `queueTimeoutMs`) for a slot; beyond that a run is refused with failure `busy` and a
 * `retryAfterMs` hint. So the memory all runs can hold is bounded by maxConcurrent x the executor's
 * RSS bound, plus `maxIdle` idle executors.
 *
 * Warm executors: up to `maxIdle` started (or starting) processes wait idle, so a run does not always
 * pay Node's start-up. An executor is reused only after a run that ended cleanly (a result, or an
 * error in the code); one that was killed (deadline, cancellation, memory) or crashed is gone, and a
 * replacement is started lazily, when it is gone, if the idle set has room. A slot is given back only
 * once a killed process has exited, so the memory bound holds while processes die.
 *
 * `close` kills every executor, idle or running, and refuses later runs; the executors also die on
 * their own when the daemon does (see child.ts).
 */
import { DEFAULT_RETRY_HINT_MS, QuotaLimiter } from '../../../src/quotas/limiter.ts';
import type { HostResource } from '../../../src/tool.ts';
import { CodeExecutor, type CodeExecutorOptions, type ExecutorOutcome, type ExecutorRunRequest } from './executor.ts';

export interface CodeExecutorPoolOptions {
  maxConcurrent: number;
  maxQueue: number;
  queueTimeoutMs: number;
  maxIdle: number;
  /** Runs one executor serves before it is replaced (bounds any slow growth of a long-lived process). */
  maxRunsPerExecutor: number;
  executor: CodeExecutorOptions;
}

/** Failures after which an executor is still clean: the code ended by itself, inside the engine. */
const CLEAN_FAILURES: ReadonlySet<string> = new Set(['syntax', 'exception', 'never_settles', 'result_too_large']);

function emptyConsole(): { text: string; truncated: boolean } {
  return { text: '', truncated: false };
}

function shuttingDown(): ExecutorOutcome {
  return { ok: false, failure: 'cancelled', message: 'The host is shutting down; the code was not run.', console: emptyConsole(), toolCalls: 0 };
}

/** A run refused for want of a slot: safe to retry after `retryAfterMs`. */
function busy(why: string, retryAfterMs: number): ExecutorOutcome {
  return {
    ok: false,
    failure: 'busy',
    message: `${why} It is safe to retry it after about ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s (metadata.retry_after_ms = ${retryAfterMs}).`,
    retryAfterMs,
    console: emptyConsole(),
    toolCalls: 0,
  };
}

export class CodeExecutorPool implements HostResource {
  private readonly slots: QuotaLimiter;
  /** Idle executors, ready or still starting (a run waits for `ready`). */
  private readonly idle: CodeExecutor[] = [];
  private readonly all = new Set<CodeExecutor>();
  private closed = false;

  constructor(private readonly options: CodeExecutorPoolOptions) {
    this.slots = new QuotaLimiter({ concurrency: options.maxConcurrent, queue: options.maxQueue, queueTimeoutMs: options.queueTimeoutMs });
  }

  /** Runs a program in an executor once a slot is free; never throws. */
  async run(request: ExecutorRunRequest): Promise<ExecutorOutcome> {
    const slot = await this.slots.acquire(request.signal);
    if (!slot.ok) {
      if (this.closed) return shuttingDown();
      if (slot.reason === 'cancelled') return this.abortedBeforeStart(request);
      const { maxConcurrent, maxQueue, queueTimeoutMs } = this.options;
      const why =
        slot.reason === 'queue_timeout'
          ? `This run waited ${Math.round(queueTimeoutMs / 1000)} s for one of the host's ${maxConcurrent} run_code slots`
          : `The host is already running ${maxConcurrent} run_code programs with ${maxQueue} more waiting`;
      return busy(`${why}, so this one was not run.`, slot.retryAfterMs);
    }
    let executor: CodeExecutor | undefined;
    try {
      if (this.closed) return shuttingDown();
      if (request.signal.aborted) return this.abortedBeforeStart(request);
      executor = this.take();
      const outcome = await executor.run(request);
      if (this.keep(executor, outcome)) executor = undefined;
      return outcome;
    } finally {
      const done = executor;
      if (done === undefined) slot.release();
      else {
        done.kill();
        void done.exited.then(() => {
          slot.release();
          this.replenish();
        });
      }
    }
  }

  /** Kills every executor and refuses later runs. */
  async close(): Promise<void> {
    this.closed = true;
    this.slots.close();
    const executors = [...this.all];
    for (const executor of executors) executor.shutdown();
    this.idle.length = 0;
    await Promise.all(executors.map((executor) => executor.exited));
  }

  /** A warm executor, else a new one. */
  private take(): CodeExecutor {
    let executor: CodeExecutor | undefined;
    while ((executor = this.idle.shift()) !== undefined && !executor.isAlive);
    return executor ?? this.spawn();
  }

  /** Whether a finished executor goes back to the idle set (the caller kills it otherwise). */
  private keep(executor: CodeExecutor, outcome: ExecutorOutcome): boolean {
    const clean = outcome.ok || CLEAN_FAILURES.has(outcome.failure);
    if (!clean || executor.runs >= this.options.maxRunsPerExecutor) return false;
    return this.keepIdle(executor);
  }

  /** Keeps an executor idle when there is room: `maxIdle`, plus one for each run waiting for a slot (it takes one at once). */
  private keepIdle(executor: CodeExecutor): boolean {
    const room = this.options.maxIdle + this.slots.state().waiting;
    if (this.closed || !executor.isAlive || this.idle.length >= room) return false;
    this.idle.push(executor);
    return true;
  }

  private spawn(): CodeExecutor {
    const executor = new CodeExecutor(this.options.executor);
    this.all.add(executor);
    void executor.exited.then(() => {
      this.all.delete(executor);
      const index = this.idle.indexOf(executor);
      if (index !== -1) this.idle.splice(index, 1);
    });
    return executor;
  }

  /** After an executor was killed: starts a replacement when the idle set has room. */
  private replenish(): void {
    if (this.closed || this.idle.length >= this.options.maxIdle + this.slots.state().waiting) return;
    this.keepIdle(this.spawn());
  }

  /** The call's signal ended it before it ran: its deadline passed while it waited (busy, retryable), or it was cancelled. */
  private abortedBeforeStart(request: ExecutorRunRequest): ExecutorOutcome {
    const timedOut = Date.now() >= request.limits.deadline || (request.signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError';
    if (!timedOut) return { ok: false, failure: 'cancelled', message: 'The run was cancelled.', console: emptyConsole(), toolCalls: 0 };
    return busy(`The call's deadline passed while it waited for one of the host's ${this.options.maxConcurrent} run_code slots, so the code was not run.`, DEFAULT_RETRY_HINT_MS);
  }
}
