/**
 * Runs a call on the current thread: the same code path as a pool worker minus the worker. For
 * `--help` capture and benchmarks. A guest that never returns blocks this thread: there is no
 * timeout here, use the pool for untrusted calls.
 */
import { importGlue } from './glue.ts';
import { invokeComponent } from './invoke.ts';
import type { LoadedComponent } from './load.ts';
import { MemoryCapError } from './memory-limit.ts';
import { compileCoreModules } from './module-cache.ts';
import { hostOptionsFor, memoryPagesFor, type RunOptions, type RunOutcome } from './run-types.ts';
import { loadWasiHostFactory } from './wasi-host-factory.ts';

export type InProcessRunner = (component: LoadedComponent, options: RunOptions) => Promise<RunOutcome>;

export function createInProcessRunner(wasiHostModule?: string): InProcessRunner {
  return async (component, options) => {
    const started = performance.now();
    let modules;
    try {
      modules = await compileCoreModules(component, memoryPagesFor(options.policy));
    } catch (error) {
      if (error instanceof MemoryCapError) return memoryCapOutcome(error, performance.now() - started);
      throw error;
    }
    const [glue, createHost] = await Promise.all([importGlue(component.gluePath), loadWasiHostFactory(wasiHostModule)]);
    const callStarted = performance.now();
    const result = invokeComponent(glue, modules, createHost, { ...hostOptionsFor(component, options), timeoutMs: options.policy.timeout_ms });
    const outcome: RunOutcome = { ...result, durationMs: performance.now() - callStarted, workerThreadId: 0 };
    if (outcome.timedOut) outcome.timeoutMs = options.policy.timeout_ms;
    return outcome;
  };
}

/** A memory cap below what the module needs at start is a failed call, reported like a trap. */
export function memoryCapOutcome(error: MemoryCapError, durationMs: number): RunOutcome {
  return {
    stdout: new Uint8Array(),
    stderr: new Uint8Array(),
    exitCode: null,
    truncated: false,
    timedOut: false,
    trap: `memory cap too small: ${error.message}`,
    durationMs,
  };
}
