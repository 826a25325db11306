/**
 * One call of a component: a fresh WASI host, a fresh instance, `wasi:cli/run`, and the exit code
 * or trap that ended it. Shared by the worker and the in-process runner; nothing survives a call.
 * Core instances are made here (jco's `instantiateCore` hook): split-off duplicate imports are
 * pointed back at the command adapter, and a failed call is checked for an exhausted memory.
 */
import type { GlueModule } from './glue.ts';
import type { CoreModules } from './module-cache.ts';
import type { CreateWasiHost } from './wasi-host-factory.ts';
import { MEMORY_EXHAUSTED_EXPORT } from './guest-memory.ts';
import { exhaustedMemoryBytes, type CoreInstanceExports } from './memory-exhaustion.ts';
import { isWasmTrap } from './webassembly.ts';
import type { CallOptions } from './run-types.ts';
import { WasiExit, WasiTimeout } from './wasi/types.ts';
import type { NetworkActivity } from './net/events.ts';

export interface InvokeResult {
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number | null;
  truncated: boolean;
  /** A guest sleep hit the call deadline (`WasiTimeout`). */
  timedOut: boolean;
  trap?: string;
  /**
   * Set when the call failed (trap or non-zero exit) with the guest's memory exhausted: the size of
   * the memory it could not grow past, in bytes.
   */
  memoryExhaustedBytes?: number;
  /** Outgoing network requests of the call, allowed and denied; absent when there were none. */
  network?: NetworkActivity;
  /** Where the call's time went: making the WASI host and instance, then running the guest. */
  timing?: InvokeTiming;
}

/**
 * The split of one call on the thread that ran it (run-types.ts carries it to the result's
 * `metadata.timing` and the tracing spans). `startedAt` is epoch milliseconds (timeOrigin + now, so
 * it is comparable across threads); the durations are milliseconds.
 */
export interface InvokeTiming {
  startedAt: number;
  instantiateMs: number;
  runMs: number;
}

/** The timing of a call that started at `started` (performance.now()), instantiated by `instantiated`, ended now. */
export function invokeTiming(started: number, instantiated: number | undefined): InvokeTiming {
  const ended = performance.now();
  const ready = instantiated ?? ended;
  return { startedAt: performance.timeOrigin + started, instantiateMs: ready - started, runMs: ended - ready };
}

interface WebAssemblyInstanceApi {
  Instance: new (module: unknown, imports?: unknown) => { exports: Record<string, unknown> };
  Memory: abstract new (...args: never[]) => object;
  Global: abstract new (...args: never[]) => object;
}

const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyInstanceApi }).WebAssembly;

const DUPLICATE_MODULE = /^(.+)_dup\d+$/;

/**
 * Points the imports of a split-off duplicate module (`wasi_snapshot_preview1_dup1.fd_write`, see
 * duplicate-imports.ts) at the same function of the original module. Both are trampolines the glue
 * fills in later, so the guest's second `fd_write` reaches the command adapter, whose descriptor table
 * knows the files the guest opened (the reactor adapter's own table does not: "Bad file number").
 */
function routeDuplicateImports(importObject: unknown): unknown {
  if (typeof importObject !== 'object' || importObject === null) return importObject;
  const modules = importObject as Record<string, Record<string, unknown>>;
  let routed: Record<string, Record<string, unknown>> | undefined;
  for (const [moduleName, functions] of Object.entries(modules)) {
    const original = DUPLICATE_MODULE.exec(moduleName)?.[1];
    const originalFunctions = original === undefined ? undefined : modules[original];
    if (originalFunctions === undefined) continue;
    routed ??= { ...modules };
    routed[moduleName] = Object.fromEntries(Object.entries(functions).map(([name, value]) => [name, originalFunctions[name] ?? value]));
  }
  return routed ?? importObject;
}

export function isWasiExit(error: unknown): error is WasiExit {
  return (
    error instanceof WasiExit ||
    (error instanceof Error && error.name === 'WasiExit' && typeof (error as { exitCode?: unknown }).exitCode === 'number')
  );
}

/** jco's glue throws a `ComponentError` when `run` returns `err` without calling exit. */
export function isWasiTimeout(error: unknown): boolean {
  return error instanceof WasiTimeout || (error instanceof Error && error.name === 'WasiTimeout');
}

function isComponentError(error: unknown): boolean {
  return error instanceof Error && error.constructor.name === 'ComponentError';
}

export function trapMessage(error: unknown): string {
  if (isWasmTrap(error)) return error.message;
  if (error instanceof RangeError) return error.message;
  if (error instanceof Error) return `host error: ${error.name}: ${error.message}`;
  return `host error: ${String(error)}`;
}

export function invokeComponent(glue: GlueModule, modules: CoreModules, createHost: CreateWasiHost, options: CallOptions): InvokeResult {
  const started = performance.now();
  let instantiated: number | undefined;
  const host = createHost(options);
  let exitCode: number | null = 0;
  let trap: string | undefined;
  let timedOut = false;
  const instances: CoreInstanceExports[] = [];
  const instantiateCore = (module: unknown, importObject?: unknown) => {
    const instance = new webAssembly.Instance(module, routeDuplicateImports(importObject));
    const { memory, [MEMORY_EXHAUSTED_EXPORT]: exhausted } = instance.exports;
    if (memory instanceof webAssembly.Memory) {
      const seen: CoreInstanceExports = { memory: memory as NonNullable<CoreInstanceExports['memory']> };
      if (exhausted instanceof webAssembly.Global) seen.exhausted = exhausted as { value: number };
      instances.push(seen);
    }
    return instance;
  };
  try {
    const instance = glue.instantiate(
      (name) => {
        const module = modules[name];
        if (module === undefined) throw new Error(`core module ${name} is missing`);
        return module;
      },
      host.imports,
      instantiateCore,
    );
    instantiated = performance.now();
    instance.run.run();
  } catch (error) {
    if (isWasiExit(error)) exitCode = error.exitCode;
    else if (isWasiTimeout(error)) {
      exitCode = null;
      timedOut = true;
    } else if (isComponentError(error)) exitCode = 1;
    else {
      exitCode = null;
      trap = trapMessage(error);
    }
  }
  const timing = invokeTiming(started, instantiated);
  let stdout;
  let stderr;
  let network;
  try {
    stdout = host.stdout();
    stderr = host.stderr();
    network = host.networkEvents();
  } finally {
    host.dispose();
  }
  const result: InvokeResult = { stdout: stdout.bytes, stderr: stderr.bytes, exitCode, truncated: stdout.truncated || stderr.truncated, timedOut, timing };
  if (trap !== undefined) result.trap = trap;
  if (network.events.length > 0) result.network = { events: network.events, dropped: network.dropped };
  if (!timedOut && (trap !== undefined || exitCode !== 0)) {
    const exhausted = exhaustedMemoryBytes(instances, options.memoryLimitBytes);
    if (exhausted !== undefined) result.memoryExhaustedBytes = exhausted;
  }
  return result;
}
