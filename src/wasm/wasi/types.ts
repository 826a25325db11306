/**
 * The contract between the per-call WASI host (src/wasm/wasi/) and the runtime that instantiates
 * jco's `--instantiation sync` glue (src/wasm/). The glue reads UNVERSIONED import keys
 * (`'wasi:cli/stdout'`), so `WasiHost.imports` is keyed that way.
 */
import type { NetworkCallOptions } from '../net/call-options.ts';
import type { NetworkEventLog } from '../net/events.ts';

export type WasiFsMode = 'ro' | 'rw';

export interface WasiPreopen {
  /** Absolute host directory. */
  hostPath: string;
  /** Guest path the directory appears at, e.g. `/data`. */
  guestPath: string;
  mode: WasiFsMode;
}

export interface WasiHostOptions {
  /** argv including argv[0] (the tool name). */
  args: readonly string[];
  /** Exactly the environment the guest sees (policy grants; default empty). */
  env: Readonly<Record<string, string>>;
  /** Bytes the guest reads from stdin; empty when absent. */
  stdin?: Uint8Array;
  /** Filesystem grants; none by default. */
  preopens: readonly WasiPreopen[];
  /** Host names the guest may reach over sockets/wasi:http; empty = no network. */
  networkAllow: readonly string[];
  /**
   * The full network grant (budgets, injected headers, pinned addresses; see src/wasm/net/call-options.ts).
   * When absent, `networkAllow` with the default budgets.
   */
  network?: NetworkCallOptions;
  /** Byte cap per output stream; bytes beyond it are counted and dropped. */
  outputLimitBytes: number;
  /**
   * Remaining wall-clock budget of the call in ms, counted from `createWasiHost`. Guest sleeps
   * (`wasi:io/poll`, `pollable.block`) never run past it: such a sleep ends at the deadline and throws
   * `WasiTimeout`. Undefined = sleeps are not bounded by the host.
   */
  timeoutMs?: number;
  /**
   * Sees every byte the guest writes to stderr, as it writes it (before the output cap), on the
   * thread running the guest. Set only when someone listens to the call (src/wasm/stderr-events.ts);
   * not posted between threads (a worker sets it itself).
   */
  onStderr?: (bytes: Uint8Array) => void;
}

export interface CapturedOutput {
  /** The first `outputLimitBytes` bytes the guest wrote. */
  bytes: Uint8Array;
  /** Everything the guest tried to write, including dropped bytes. */
  totalBytes: number;
  truncated: boolean;
}

export interface WasiHost {
  /** Import object for jco's sync-instantiation glue, keyed by unversioned interface name. */
  readonly imports: Record<string, unknown>;
  stdout(): CapturedOutput;
  stderr(): CapturedOutput;
  /** The call's outgoing network requests, allowed and denied (for events and metrics). */
  networkEvents(): NetworkEventLog;
  /**
   * Closes the host file descriptors the guest left open. Call once after the call ended (in a
   * `finally`); the host must not be used afterwards. Cheap when nothing was opened.
   */
  dispose(): void;
}

/** Thrown by `wasi:cli/exit` to unwind the guest; ends only this call. */
export class WasiExit extends Error {
  readonly exitCode: number;
  constructor(exitCode: number) {
    super(`guest exited with code ${exitCode}`);
    this.name = 'WasiExit';
    this.exitCode = exitCode;
  }
}

/** Thrown when a guest sleep would outlast the call's `timeoutMs`; ends only this call. */
export class WasiTimeout extends Error {
  constructor() {
    super('guest sleep exceeded the call deadline');
    this.name = 'WasiTimeout';
  }
}
