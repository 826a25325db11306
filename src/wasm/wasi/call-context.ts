/**
 * Per-call state shared by the interface modules: the sleep deadline and the host fds the guest
 * holds. One per `createWasiHost`; resources carry a reference to it.
 */
export interface CallContext {
  /** `process.hrtime.bigint()` value at which the call's budget ends; undefined = unbounded. */
  readonly deadlineNs: bigint | undefined;
  /** Files opened for the guest and not yet closed (closed by `WasiHost.dispose`). */
  readonly openFiles: Set<{ close(): void }>;
  /** Cap on `openFiles.size`. */
  readonly maxOpenFds: number;
}

export const DEFAULT_MAX_OPEN_FDS = 256;

export function createCallContext(timeoutMs: number | undefined): CallContext {
  const deadlineNs =
    timeoutMs === undefined || !Number.isFinite(timeoutMs) ? undefined : process.hrtime.bigint() + BigInt(Math.max(0, Math.ceil(timeoutMs * 1e6)));
  return { deadlineNs, openFiles: new Set(), maxOpenFds: DEFAULT_MAX_OPEN_FDS };
}
