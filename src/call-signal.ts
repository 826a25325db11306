/**
 * One call's AbortSignal: aborted at the call's deadline, or when any parent signal (host shutdown, the
 * client's disconnect) aborts, and fully released when the call ends. `AbortSignal.any` plus
 * `AbortSignal.timeout` would do the same, but on Node 20 `any` leaves an entry on each long-lived
 * parent for good and keeps every timeout signal alive for its whole timeout after the call ended: a
 * daemon making thousands of calls grew by that much.
 */

export interface CallSignal {
  readonly signal: AbortSignal;
  /** Clears the timer and the listeners on the parents. Idempotent. */
  dispose(): void;
}

export function createCallSignal(timeoutMs: number, parents: readonly (AbortSignal | undefined)[]): CallSignal {
  const controller = new AbortController();
  // A parent that has already aborted decides the call: no timer, no listeners to clean up.
  const abortedParent = parents.find((parent) => parent?.aborted === true);
  if (abortedParent !== undefined) {
    controller.abort(abortedParent.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const listening: AbortSignal[] = [];
  const onParentAbort = function (this: AbortSignal): void {
    controller.abort(this.reason);
  };
  const timer = setTimeout(() => {
    controller.abort(new DOMException(`The call timed out after ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  for (const parent of parents) {
    if (parent === undefined) continue;
    parent.addEventListener('abort', onParentAbort, { once: true });
    listening.push(parent);
  }
  let disposed = false;
  return {
    signal: controller.signal,
    dispose() {
      if (disposed) return;
      disposed = true;
      clearTimeout(timer);
      for (const parent of listening) parent.removeEventListener('abort', onParentAbort);
    },
  };
}
