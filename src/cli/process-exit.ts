/**
 * Long-running commands return their exit code to main like every other command. Should a
 * library leave a handle open after a clean shutdown, this makes sure the process still ends:
 * the timer is unref'd, so it only fires when something else keeps the event loop alive.
 */
export const FORCED_EXIT_DELAY_MS = 2_000;

export function exitIfStillRunning(exitCode: number, delayMs: number = FORCED_EXIT_DELAY_MS): void {
  setTimeout(() => process.exit(exitCode), delayMs).unref();
}
