/**
 * The host's logger: structured JSON logs (pino) when something is to be logged, and a silent logger
 * that drops everything. pino (~30 modules with its stream helpers) is loaded on the first
 * createLogger, not with this module: a process that logs nothing (a one-shot `toolhost call` without
 * --debug, a library user with the silent default) never loads it.
 */
import { createRequire } from 'node:module';
import type { Logger, pino as Pino } from 'pino';

export type { Logger };

export interface CreateLoggerOptions {
  level?: string;
  /** Write to stderr (fd 2) instead of stdout, e.g. for `toolhost mcp` over stdio. */
  stderr?: boolean;
}

let loadedPino: typeof Pino | undefined;

/** pino, loaded on first use (its CommonJS entry: createLogger is synchronous). */
function pino(): typeof Pino {
  loadedPino ??= (createRequire(import.meta.url)('pino') as { pino: typeof Pino }).pino;
  return loadedPino;
}

/** Structured JSON logs (pino). Level from the option, else TOOLHOST_LOG_LEVEL, else "info". */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const level = options.level ?? process.env['TOOLHOST_LOG_LEVEL'] ?? 'info';
  const create = pino();
  return create({ level, base: { name: 'toolhost' } }, create.destination({ fd: options.stderr ? 2 : 1, sync: true }));
}

const ignore = (): void => undefined;

/**
 * A logger that drops everything; for tests, library use without logging, and commands without
 * --debug. It has pino's logger shape at level `silent` without loading pino: every level method does
 * nothing, `child` returns another silent logger, `isLevelEnabled` is false.
 */
export function silentLogger(): Logger {
  const silent = {
    level: 'silent',
    levelVal: Number.POSITIVE_INFINITY,
    fatal: ignore,
    error: ignore,
    warn: ignore,
    info: ignore,
    debug: ignore,
    trace: ignore,
    silent: ignore,
    child: (): Logger => silentLogger(),
    bindings: () => ({}),
    setBindings: ignore,
    isLevelEnabled: () => false,
    flush: (callback?: (error?: Error) => void) => callback?.(),
  };
  return silent as unknown as Logger;
}
