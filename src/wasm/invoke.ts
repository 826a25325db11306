/**
 * One call of a component: a fresh WASI host, a fresh instance, `wasi:cli/run`, and the exit code
 * or trap that ended it. Shared by the worker and the in-process runner; nothing survives a call.
 */
import type { GlueModule } from './glue.ts';
import type { CoreModules } from './module-cache.ts';
import type { CreateWasiHost } from './wasi-host-factory.ts';
import { isWasmTrap } from './webassembly.ts';
import { WasiExit, WasiTimeout, type WasiHostOptions } from './wasi/types.ts';

export interface InvokeResult {
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number | null;
  truncated: boolean;
  /** A guest sleep hit the call deadline (`WasiTimeout`). */
  timedOut: boolean;
  trap?: string;
}

function isWasiExit(error: unknown): error is WasiExit {
  return (
    error instanceof WasiExit ||
    (error instanceof Error && error.name === 'WasiExit' && typeof (error as { exitCode?: unknown }).exitCode === 'number')
  );
}

/** jco's glue throws a `ComponentError` when `run` returns `err` without calling exit. */
function isWasiTimeout(error: unknown): boolean {
  return error instanceof WasiTimeout || (error instanceof Error && error.name === 'WasiTimeout');
}

function isComponentError(error: unknown): boolean {
  return error instanceof Error && error.constructor.name === 'ComponentError';
}

function trapMessage(error: unknown): string {
  if (isWasmTrap(error)) return error.message;
  if (error instanceof RangeError) return error.message;
  if (error instanceof Error) return `host error: ${error.name}: ${error.message}`;
  return `host error: ${String(error)}`;
}

export function invokeComponent(glue: GlueModule, modules: CoreModules, createHost: CreateWasiHost, options: WasiHostOptions): InvokeResult {
  const host = createHost(options);
  let exitCode: number | null = 0;
  let trap: string | undefined;
  let timedOut = false;
  try {
    const instance = glue.instantiate((name) => {
      const module = modules[name];
      if (module === undefined) throw new Error(`core module ${name} is missing`);
      return module;
    }, host.imports);
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
  let stdout;
  let stderr;
  try {
    stdout = host.stdout();
    stderr = host.stderr();
  } finally {
    host.dispose();
  }
  const result: InvokeResult = { stdout: stdout.bytes, stderr: stderr.bytes, exitCode, truncated: stdout.truncated || stderr.truncated, timedOut };
  if (trap !== undefined) result.trap = trap;
  return result;
}
