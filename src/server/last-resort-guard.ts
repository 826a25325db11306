/**
 * The daemon's last line of defence: an error that escaped every handler (an unhandled rejection, an
 * uncaught exception) is logged at `fatal` level with its stack and counted, and the process keeps
 * serving instead of exiting. Every known path already turns failures into results or HTTP errors; this
 * only keeps one missed path from taking down every client. Installed by the long-running commands
 * (`serve`, `mcp`) only, never by the library or the tests, so bugs still fail loudly there.
 */
import type { Logger } from '../logger.ts';

export interface LastResortGuard {
  /** How many escaped errors were caught since install. */
  readonly caught: number;
  uninstall(): void;
}

export function installLastResortGuard(logger: Logger): LastResortGuard {
  let caught = 0;
  const report = (kind: 'unhandledRejection' | 'uncaughtException', error: unknown): void => {
    caught++;
    logger.fatal(
      { kind, error: error instanceof Error ? error.stack ?? error.message : String(error), caught },
      'an error escaped every handler; it was logged and the daemon keeps serving (please report this as a bug)',
    );
  };
  const onRejection = (reason: unknown): void => report('unhandledRejection', reason);
  const onException = (error: Error): void => report('uncaughtException', error);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    get caught() {
      return caught;
    },
    uninstall() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}
