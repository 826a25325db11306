/**
 * Runs calls on the current thread: the same code path as a pool worker minus the worker.
 *
 * `createInProcessRunner` serves `--help` capture and benchmarks. `createInProcessRuntime` is the
 * whole runtime of a one-shot `toolhost call`: that process exists for one call, so booting a worker
 * pool (threads that each import the WASI host and the glue again) only adds start-up time. It
 * loads from the on-disk transpile cache, compiles the core modules only when the call runs, and
 * holds the call to its deadline with a V8 watchdog (`vm` timeout), which interrupts a guest that
 * spins as well as one that sleeps.
 *
 * Such a process also keeps wasm in V8's baseline tier (Liftoff only, ONE_SHOT_ENGINE_FLAGS): with
 * dynamic tiering, a run of a large Go component makes hundreds of functions hot, and V8 recompiles
 * them with TurboFan on background threads. Those jobs competed with the call for the CPU, and the
 * process could not exit until they finished (Node joins its platform threads at exit, even on
 * process.exit): a 0.4 s run of a 13 MB Go tool took 2-4 s wall, 1-2.5 s of it after the result was
 * printed. Liftoff code is slower on long computations, which a one-shot CLI call rarely is; the
 * daemon's workers keep tiering up.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { listensToWasm } from './call-event-channel.ts';
import { importGlue } from './glue.ts';
import { invokeComponent, type InvokeResult } from './invoke.ts';
import { loadComponent, type LoadedComponent } from './load.ts';
import { MemoryCapError } from './memory-limit.ts';
import { compileCoreModules, compileForOneCall, prepareComponent } from './module-cache.ts';
import { runPreview1Module } from './preview1/run.ts';
import { deliverCallEvent, StderrEventTap } from './stderr-events.ts';
import { hostOptionsFor, memoryPagesFor, type CallOptions, type RunOptions, type RunOutcome } from './run-types.ts';
import type { WasmRuntime } from './runtime.ts';
import { loadWasiHostFactory } from './wasi-host-factory.ts';

export type InProcessRunner = (component: LoadedComponent, options: RunOptions) => Promise<RunOutcome>;

export interface InProcessRunnerOptions {
  /** URL of the module exporting `createWasiHost`; default src/wasm/wasi/index.ts. */
  wasiHostModule?: string | undefined;
  /**
   * Interrupt a call that runs past the policy's timeout, even one spinning in guest code. This
   * aborts the thread's JavaScript at an arbitrary point (the call's WASI host is not disposed), so
   * it suits a process that ends after the call; off by default (help capture, benchmarks).
   */
  enforceDeadline?: boolean;
}

/**
 * Runs `invoke` under V8's watchdog: past `timeoutMs` V8 terminates the running code, wasm included
 * (`timed-out`); Ctrl-C does the same (`interrupted`), as the thread cannot see the signal otherwise.
 */
function invokeWithDeadline(invoke: () => InvokeResult, timeoutMs: number): InvokeResult | 'timed-out' | 'interrupted' {
  try {
    return runInNewContext('invoke()', { invoke }, { timeout: Math.max(1, Math.ceil(timeoutMs)), breakOnSigint: true }) as InvokeResult;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timed-out';
    if (code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') return 'interrupted';
    throw error;
  }
}

export function createInProcessRunner(wasiHostModuleOrOptions?: string | InProcessRunnerOptions): InProcessRunner {
  const options: InProcessRunnerOptions = typeof wasiHostModuleOrOptions === 'object' ? wasiHostModuleOrOptions : { wasiHostModule: wasiHostModuleOrOptions };
  return async (component, runOptions) => {
    const started = performance.now();
    if (runOptions.signal?.aborted) return failedOutcome({ cancelled: true, durationMs: 0 });
    let modules;
    try {
      modules = await compileCoreModules(component, memoryPagesFor(runOptions.policy));
    } catch (error) {
      if (error instanceof MemoryCapError) return memoryCapOutcome(error, performance.now() - started);
      return failedOutcome({ trap: compileFailure(error), durationMs: performance.now() - started });
    }
    let invokeWith: (callOptions: CallOptions) => InvokeResult;
    if (component.execution === 'preview1') {
      invokeWith = (callOptions) => runPreview1Module(modules, callOptions);
    } else {
      const [glue, createHost] = await Promise.all([importGlue(component.gluePath, component.glueSha256), loadWasiHostFactory(options.wasiHostModule)]);
      invokeWith = (callOptions) => invokeComponent(glue, modules, createHost, callOptions);
    }
    // The policy's timeout, or less when the caller's deadline comes first (its signal cannot be seen mid-call).
    const callerBudgetMs = runOptions.deadline === undefined ? Number.POSITIVE_INFINITY : runOptions.deadline - Date.now();
    const timeoutMs = Math.max(1, Math.round(Math.min(runOptions.policy.timeout_ms, callerBudgetMs)));
    const callStarted = performance.now();
    // Someone listens: the stderr events go straight to the listener (this thread runs the guest; they are delivered as written).
    const events = listensToWasm(runOptions.events) ? runOptions.events : undefined;
    const tap = events === undefined ? undefined : new StderrEventTap({ post: (message) => deliverCallEvent(message, events), lines: events.stderrLine !== undefined, progress: events.progress !== undefined });
    const hostOptions = hostOptionsFor(component, runOptions);
    const invoke = (): InvokeResult => invokeWith(tap === undefined ? { ...hostOptions, timeoutMs } : { ...hostOptions, timeoutMs, onStderr: tap.write });
    let result: ReturnType<typeof invokeWithDeadline>;
    try {
      result = options.enforceDeadline === true ? invokeWithDeadline(invoke, timeoutMs) : invoke();
    } finally {
      tap?.end();
    }
    const durationMs = performance.now() - callStarted;
    if (result === 'timed-out') return failedOutcome({ timedOut: true, timeoutMs, durationMs, workerThreadId: 0 });
    if (result === 'interrupted') return failedOutcome({ cancelled: true, durationMs, workerThreadId: 0 });
    const outcome: RunOutcome = { ...result, durationMs, workerThreadId: 0 };
    if (outcome.timedOut) outcome.timeoutMs = timeoutMs;
    return outcome;
  };
}

export interface InProcessRuntimeOptions {
  /** Transpile cache directory; default `defaultCacheDirectory()`. */
  cacheDirectory?: string;
  /** URL of the module exporting `createWasiHost`; default src/wasm/wasi/index.ts. */
  wasiHostModule?: string;
  /**
   * Let V8 tier hot wasm functions up to TurboFan in this process (default false: see the header; the
   * flag is process-wide and set when the runtime is created, before any module compiles).
   */
  tierUp?: boolean;
}

/** The V8 flags of a process whose wasm runs once and exits: baseline code only, no background recompiles. */
export const ONE_SHOT_ENGINE_FLAGS = '--liftoff-only';

let oneShotFlagsSet = false;

/** Sets ONE_SHOT_ENGINE_FLAGS for this process (once; later modules compile without tier-up). */
export function useOneShotEngineFlags(): void {
  if (oneShotFlagsSet) return;
  oneShotFlagsSet = true;
  setFlagsFromString(ONE_SHOT_ENGINE_FLAGS);
}

/**
 * A WasmRuntime without workers, for a process that makes a call or two and exits (`toolhost call`).
 * `load` reads the transpile cache (transpiling on a miss) and compiles nothing; each call compiles
 * the core modules it needs under its memory cap, runs on this thread and is held to its deadline.
 */
export function createInProcessRuntime(options: InProcessRuntimeOptions = {}): WasmRuntime {
  if (options.tierUp !== true) useOneShotEngineFlags();
  // no rewrites that pay off only over many calls (module-cache.ts)
  compileForOneCall();
  const run = createInProcessRunner({ wasiHostModule: options.wasiHostModule, enforceDeadline: true });
  let closed = false;
  return {
    load: (file) => loadComponent(file, options.cacheDirectory === undefined ? {} : { cacheDirectory: options.cacheDirectory }),
    prepare: prepareComponent,
    async run(component, runOptions) {
      if (closed) throw new Error('the wasm runtime is closed');
      return run(component, runOptions);
    },
    runInProcess: run,
    stats: () => ({ generations: 0, currentGenerationCalls: 0, retired: 0, moduleHandovers: 0, workersExited: 0, running: 0, queued: 0 }),
    warmUp: () => undefined,
    async close() {
      closed = true;
    },
  };
}

function failedOutcome(fields: Partial<RunOutcome> & { durationMs: number }): RunOutcome {
  return { stdout: new Uint8Array(), stderr: new Uint8Array(), exitCode: null, truncated: false, timedOut: false, ...fields };
}

/**
 * Why a call could not start because the engine refused a core module. Loads that compile (the
 * default) refuse such a file up front; with compiling left to the first call it shows here.
 */
export function compileFailure(error: unknown): string {
  return `the engine cannot compile the component: ${error instanceof Error ? error.message : String(error)}`;
}

/** A memory cap below what the module needs at start is a failed call, reported like a trap. */
export function memoryCapOutcome(error: MemoryCapError, durationMs: number): RunOutcome {
  return failedOutcome({ trap: `memory cap too small: ${error.message}`, durationMs });
}
