/**
 * A call's events while it runs: the generic channel from any tool kind (a wasm tool's stderr, the
 * `shell` built-in, the host's own approval and quota waits) to the edge that asked for them (MCP
 * `notifications/progress` and `notifications/message`). An edge passes a `CallEvents` in
 * `CallToolOptions.events` only when someone listens (a progress token, a log level the client set):
 * without one, tools report nothing and pay nothing. Nothing here knows a tool kind's types.
 *
 * Contract for senders: `progress` values of one call should grow (an edge that needs them strictly
 * increasing, like MCP, drops the others); text is already redacted of the call's secrets; sources
 * that can be flooded by a tool cap and throttle themselves before calling in.
 */

/** One progress report: `progress` so far, of `total` when known, with an optional short message. */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface CallEvents {
  /** The call made progress (or waits: `message` says for what). */
  progress?(update: CallProgress): void;
  /** One line the tool wrote to stderr (newline removed), as it was written; progress lines are not included. */
  stderrLine?(line: string): void;
}

/** Messages of the host's own waits before a call runs. */
export const WAITING_FOR_APPROVAL = 'waiting for approval';
export const WAITING_FOR_QUOTA = 'waiting for quota';

/**
 * Forwards at most one progress report per `intervalMs` (by the clock at each report: no timers);
 * a report within the interval is dropped, as the next one supersedes it. `force` reports anyway
 * (e.g. the last one). For sources that report on every chunk of output.
 */
export function throttledProgress(report: (update: CallProgress) => void, intervalMs: number, now: () => number = Date.now): (update: CallProgress, force?: boolean) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (update, force = false) => {
    const at = now();
    if (!force && at - last < intervalMs) return;
    last = at;
    report(update);
  };
}
