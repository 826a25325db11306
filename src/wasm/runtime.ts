/**
 * The wasm runtime: loads tool components and runs calls in a rotating worker pool, each call on a
 * fresh instance with its own WASI host, under the policy's timeout, memory and output caps, and
 * the runtime's concurrency limits: calls wait in one queue per tool, served round-robin, and one
 * tool holds at most its share of the workers, so a tool that spins until its timeout delays only
 * its own calls.
 */
import { availableParallelism } from 'node:os';
import { ToolHostError } from '../errors.ts';
import { AbortControllerPool } from './abort-controller-pool.ts';
import { listensToWasm, openCallEventChannel, type CallEventChannel } from './call-event-channel.ts';
import { compileFailure, createInProcessRunner, memoryCapOutcome } from './in-process.ts';
import { CallLimiter, type Release } from './limiter.ts';
import { loadComponent, type LoadedComponent } from './load.ts';
import { MemoryCapError } from './memory-limit.ts';
import { compileCoreModules, compiledKey, prepareComponent } from './module-cache.ts';
import { WorkerPool, type WorkerPoolStats } from './pool.ts';
import { hostOptionsFor, memoryPagesFor, type RunOptions, type RunOutcome } from './run-types.ts';
import type { WorkerReply, WorkerTask } from './worker-protocol.ts';

export interface WasmRuntimeOptions {
  /** Transpile cache directory; default `$TOOLHOST_CACHE_DIR` or `./.toolhost-cache`. */
  cacheDirectory?: string;
  /** Worker threads; default the machine's available parallelism. */
  threads?: number;
  /**
   * Run wasip1 commands through the preview1 command adapter as before toolhost's preview1 host: bare core
   * modules are wrapped, and adapter-wrapped components stay components (LoadOptions.preview1Adapter). For
   * comparisons and tests of the component path; default false.
   */
  preview1Adapter?: boolean;
  /** Calls running at once across all tools; default `threads`. */
  maxConcurrentCalls?: number;
  /** Calls of one tool running at once; default `defaultPerToolConcurrency(threads)`. */
  maxConcurrentCallsPerTool?: number;
  /** Calls of one tool that may wait for a slot before QUEUE_FULL; default 256. */
  maxQueuedCalls?: number;
  /** A worker generation retires after `threads * recycleAfterCalls` calls; default 10,000. */
  recycleAfterCalls?: number;
  /** A worker generation retires when process RSS grew this much since it started; default 1 GiB. */
  recycleAboveRssGrowthBytes?: number;
  /** URL of the module exporting `createWasiHost`; default src/wasm/wasi/index.ts. */
  wasiHostModule?: string;
  /**
   * Compile the core modules (under the default memory cap) as part of `load`, so a module the
   * engine refuses fails the load; default true. False leaves compiling to the first call (see
   * `prepare`): a command that loads tools to list them never compiles one.
   */
  compileOnLoad?: boolean;
}

export interface WasmRuntimeStats extends WorkerPoolStats {
  running: number;
  queued: number;
}

export interface WasmRuntime {
  /** Loads (and, unless told otherwise, compiles under the default memory cap) a tool; ToolHostError on a bad file. */
  load(file: string): Promise<LoadedComponent>;
  /**
   * Compiles a loaded tool's core modules under the default memory cap ahead of its first call (a
   * daemon does this after it is ready); ToolHostError WASM_LOAD_FAILED when the engine refuses one.
   */
  prepare(component: LoadedComponent): Promise<void>;
  /** Runs one call in the worker pool. Rejects only with ToolHostError('QUEUE_FULL') or after close. */
  run(component: LoadedComponent, options: RunOptions): Promise<RunOutcome>;
  /** Runs one call on this thread (no timeout): for `--help` capture and benchmarks. */
  runInProcess(component: LoadedComponent, options: RunOptions): Promise<RunOutcome>;
  stats(): WasmRuntimeStats;
  /** Boots the worker pool ahead of the first call (a daemon does this at start). */
  warmUp(): void;
  /** Lets running calls finish, then stops the workers. */
  close(): Promise<void>;
}

/** `load`, with concurrent loads of one file sharing the first (a host start and a hot reload may race). */
function componentLoader(options: WasmRuntimeOptions): (file: string) => Promise<LoadedComponent> {
  const loading = new Map<string, Promise<LoadedComponent>>();
  return async (file) => {
    const inFlight = loading.get(file);
    if (inFlight !== undefined) return inFlight;
    const promise = (async () => {
      // A transpile (a cache miss) runs on a thread of its own: the daemon's event loop keeps serving meanwhile.
      const component = await loadComponent(file, {
        transpileOnThread: true,
        ...(options.cacheDirectory === undefined ? {} : { cacheDirectory: options.cacheDirectory }),
        ...(options.preview1Adapter === true ? { preview1Adapter: true } : {}),
      });
      if (options.compileOnLoad !== false) await prepareComponent(component);
      return component;
    })();
    loading.set(file, promise);
    try {
      return await promise;
    } finally {
      loading.delete(file);
    }
  };
}

/** Runs one call on a pool worker, held to the policy's timeout and the caller's signal (either terminates the worker). */
function poolRunner(pool: WorkerPool): (component: LoadedComponent, runOptions: RunOptions) => Promise<RunOutcome> {
  const controllers = new AbortControllerPool();
  return async (component, runOptions) => {
    const started = performance.now();
    const pages = memoryPagesFor(runOptions.policy);
    let modules;
    try {
      modules = await compileCoreModules(component, pages);
    } catch (error) {
      if (error instanceof MemoryCapError) return memoryCapOutcome(error, performance.now() - started);
      return failedOutcome({ trap: compileFailure(error), durationMs: performance.now() - started });
    }
    const task: WorkerTask = { key: compiledKey(component, pages), execution: component.execution, gluePath: component.gluePath, glueSha256: component.glueSha256, host: hostOptionsFor(component, runOptions) };
    const timeoutMs = runOptions.policy.timeout_ms;
    task.host.timeoutMs = timeoutMs;
    const controller = controllers.take();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    // The caller's signal is forwarded by a listener that is removed after the call, not joined with
    // AbortSignal.any: on Node 20 every composite leaves a WeakRef in each of its sources, and the
    // caller's signal descends from the host's long-lived shutdown signal, so those never go away.
    const forwardCancel = () => controller.abort();
    runOptions.signal?.addEventListener('abort', forwardCancel, { once: true });
    if (runOptions.signal?.aborted) controller.abort();
    // Someone listens (a progress token, a log level): the call's stderr events come over a channel of their own.
    const events = listensToWasm(runOptions.events) ? runOptions.events : undefined;
    let channel: CallEventChannel | undefined;
    const send = (sent: WorkerTask): Promise<WorkerReply> => {
      if (events === undefined) return pool.run(sent, controller.signal);
      channel?.close();
      channel = openCallEventChannel(events);
      return pool.run({ ...sent, events: channel.task }, controller.signal);
    };
    let reply: WorkerReply;
    try {
      reply = await send(task);
      if (reply.kind === 'missing-modules') reply = await send({ ...task, modules });
      if (reply.kind === 'done') await channel?.ended();
    } catch (error) {
      const durationMs = performance.now() - started;
      if (timedOut && isAbort(error)) return failedOutcome({ timedOut: true, timeoutMs, durationMs });
      if (runOptions.signal?.aborted && isAbort(error)) return failedOutcome({ cancelled: true, durationMs });
      return failedOutcome({ trap: `worker failed: ${(error as Error).message ?? String(error)}`, durationMs });
    } finally {
      clearTimeout(timer);
      channel?.close();
      runOptions.signal?.removeEventListener('abort', forwardCancel);
      controllers.give(controller);
    }
    const durationMs = performance.now() - started;
    if (reply.kind !== 'done') return failedOutcome({ trap: 'worker failed: modules were not accepted', durationMs });
    const outcome: RunOutcome = { ...reply.result, durationMs, workerThreadId: reply.threadId };
    if (outcome.timedOut) outcome.timeoutMs = timeoutMs;
    return outcome;
  };
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || /aborted/i.test(error.message));
}

function failedOutcome(fields: Partial<RunOutcome> & { durationMs: number }): RunOutcome {
  return { stdout: new Uint8Array(), stderr: new Uint8Array(), exitCode: null, truncated: false, timedOut: false, ...fields };
}

/**
 * Workers one tool may hold by default: half the pool, rounded up (1 of 2, 2 of 3 or 4, 4 of 8), so
 * at least half the pool, rounded down, always stays free for the other tools; a pool of one worker
 * cannot keep any free. A tool that is alone pays for it in throughput (it uses half the pool);
 * `limits.per_tool_concurrency` = `limits.pool_size` trades the isolation back for it.
 */
export function defaultPerToolConcurrency(threads: number): number {
  return Math.max(1, Math.ceil(threads / 2));
}

export function createWasmRuntime(options: WasmRuntimeOptions = {}): WasmRuntime {
  const threads = options.threads ?? Math.max(1, availableParallelism());
  const limiter = new CallLimiter({
    capacity: options.maxConcurrentCalls ?? threads,
    perKeyCapacity: options.maxConcurrentCallsPerTool ?? defaultPerToolConcurrency(threads),
    queueLimit: options.maxQueuedCalls ?? 256,
  });
  const pool = new WorkerPool({
    threads,
    recycleAfterCalls: options.recycleAfterCalls ?? 10_000,
    recycleAboveRssGrowthBytes: options.recycleAboveRssGrowthBytes ?? 1024 * 1024 * 1024,
    wasiHostModule: options.wasiHostModule,
  });
  const runInProcess = createInProcessRunner(options.wasiHostModule);
  const load = componentLoader(options);
  const runInPool = poolRunner(pool);
  let closed = false;

  async function run(component: LoadedComponent, runOptions: RunOptions): Promise<RunOutcome> {
    if (closed) throw new Error('the wasm runtime is closed');
    const queuedAt = performance.now();
    let release: Release;
    try {
      release = await limiter.acquire(component.file, `wasm tool ${component.file}`, runOptions.signal);
    } catch (error) {
      // Cancelled while queued: the call left the queue and never reached a worker.
      if (runOptions.signal?.aborted) return failedOutcome({ cancelled: true, durationMs: performance.now() - queuedAt });
      throw error;
    }
    try {
      return await runInPool(component, runOptions);
    } finally {
      release();
    }
  }

  return {
    load,
    prepare: prepareComponent,
    run,
    runInProcess,
    stats: () => ({ ...pool.stats(), running: limiter.active, queued: limiter.queued }),
    warmUp: () => {
      if (!closed) pool.warmUp();
    },
    async close() {
      closed = true;
      await pool.close();
    },
  };
}
