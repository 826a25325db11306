/**
 * Graceful shutdown on SIGINT/SIGTERM for the long-running commands (`serve`, `mcp`). A module of its
 * own so that `toolhost mcp` installs it without loading the HTTP server.
 */
import type { Logger } from '../logger.ts';

/** How long a shutdown waits for calls in flight before cancelling them. */
export const DEFAULT_GRACE_MS = 10_000;

export interface ShutdownHandlerOptions {
  signals?: readonly NodeJS.Signals[];
  /** Default process.exit. */
  exit?: (code: number) => void;
}

/**
 * SIGINT/SIGTERM → `close()` → exit 0 (exit 1 if close throws). A second signal exits at once
 * with 1. Returns a function that removes the handlers.
 */
export function installShutdownHandlers(close: () => Promise<void>, logger: Logger, options: ShutdownHandlerOptions = {}): () => void {
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let received = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (received) {
      logger.warn({ signal }, 'second signal, exiting now');
      exit(1);
      return;
    }
    received = true;
    logger.info({ signal }, 'shutting down');
    close().then(
      () => exit(0),
      (error: unknown) => {
        logger.error({ error: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
        exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
