import { pino, type Logger } from 'pino';

export type { Logger };

export interface CreateLoggerOptions {
  level?: string;
  /** Write to stderr (fd 2) instead of stdout, e.g. for `toolhost mcp` over stdio. */
  stderr?: boolean;
}

/** Structured JSON logs (pino). Level from the option, else TOOLHOST_LOG_LEVEL, else "info". */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const level = options.level ?? process.env['TOOLHOST_LOG_LEVEL'] ?? 'info';
  return pino({ level, base: { name: 'toolhost' } }, pino.destination({ fd: options.stderr ? 2 : 1, sync: true }));
}

/** A logger that drops everything; for tests and library use without logging. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
