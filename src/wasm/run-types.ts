/**
 * The shapes of a call and its outcome, shared by the pool, the worker and the in-process runner.
 */
import type { CallEvents } from '../call-events.ts';
import type { ResolvedToolPolicy } from '../policy.ts';
import { fileStem } from '../tool-name.ts';
import type { LoadedComponent } from './load.ts';
import { pagesForBytes, WASM_PAGE_BYTES } from './memory-limit.ts';
import type { WasiHostOptions } from './wasi/types.ts';
import { networkCallOptions, type InjectedHeader } from './net/call-options.ts';
import type { NetworkActivity } from './net/events.ts';
import type { InvokeTiming } from './invoke.ts';

export interface RunOptions {
  /** Arguments after argv[0]. */
  args: readonly string[];
  /** Bytes the guest reads from stdin; empty when absent. */
  stdin?: Uint8Array;
  /** The resolved policy (see `resolvePolicy`): grants and budgets of this call. */
  policy: ResolvedToolPolicy;
  /** argv[0]; default the file name without `.wasm`. */
  programName?: string;
  /** Cancels the call (the worker running it is replaced), e.g. when the host shuts down. */
  signal?: AbortSignal;
  /**
   * When the caller gives up (ms since the epoch, the host's call deadline). The pool needs only the
   * signal; a call on the caller's own thread cannot see a signal while the guest runs, so the
   * in-process runtime cuts it off at this deadline (or the policy's timeout, whichever is first).
   */
  deadline?: number;
  /**
   * The policy's `network.headers` with secrets substituted (`resolveNetworkHeaders` with the call's
   * secrets source). Absent: headers that refer to a secret make requests to their host fail.
   */
  networkHeaders?: readonly InjectedHeader[];
  /**
   * Who listens to the call while it runs: its stderr lines and progress lines (progress-line.ts) as
   * they are written. Absent (the usual case): nothing is streamed and the call costs nothing more.
   */
  events?: CallEvents;
}

export interface RunOutcome {
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** The guest's exit code; null when it trapped or timed out. */
  exitCode: number | null;
  /** True when stdout or stderr went past the output cap (the rest was dropped). */
  truncated: boolean;
  timedOut: boolean;
  /** True when the caller's signal cancelled the call. */
  cancelled?: boolean;
  /** The deadline that ended the call, when `timedOut`. */
  timeoutMs?: number;
  /** The trap message when the guest trapped (unreachable, out of bounds, stack overflow, ...). */
  trap?: string;
  /** The call failed with the guest's memory exhausted at this many bytes (its cap). */
  memoryExhaustedBytes?: number;
  /** Wall time of the call as the caller saw it, queueing excluded. */
  durationMs: number;
  /** Thread id of the worker that ran the call (0 in process). For diagnostics and tests. */
  workerThreadId?: number;
  /** Outgoing network requests, allowed and denied (for events and metrics); absent when none. */
  network?: NetworkActivity;
  /** The guest's instantiate / run split (invoke.ts); absent when the call never reached the guest. */
  timing?: InvokeTiming;
}

export function programNameOf(component: LoadedComponent, options: RunOptions): string {
  return options.programName ?? fileStem(component.file);
}

/** What one call needs besides its WASI host: the memory cap, to tell a guest that ran out of memory. */
export interface CallOptions extends WasiHostOptions {
  /** The cap of the guest's linear memory in bytes (the policy's `memory_mb`, whole pages). */
  memoryLimitBytes?: number;
}

export function hostOptionsFor(component: LoadedComponent, options: RunOptions): CallOptions {
  const { policy } = options;
  return {
    memoryLimitBytes: memoryPagesFor(policy) * WASM_PAGE_BYTES,
    args: [programNameOf(component, options), ...options.args],
    env: { ...policy.env },
    stdin: options.stdin ?? new Uint8Array(),
    preopens: policy.fs.map((grant) => ({ hostPath: grant.host, guestPath: grant.guest, mode: grant.mode })),
    networkAllow: [...policy.network.allow],
    network: networkCallOptions(policy.network, options.networkHeaders),
    outputLimitBytes: policy.output_bytes,
  };
}

export function memoryPagesFor(policy: ResolvedToolPolicy): number {
  return pagesForBytes(policy.memory_mb * 1024 * 1024);
}
