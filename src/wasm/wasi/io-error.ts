/**
 * wasi:io/error (0.2.0–0.2.3): the `error` resource carried by `stream-error.last-operation-failed`.
 * `filesystem-error-code` / `http-error-code` look at the optional codes attached here.
 */
import type { FsErrorCode } from './filesystem-errors.ts';

export class IoError {
  readonly message: string;
  /** Set when the failure came from a filesystem stream (read by `filesystem-error-code`). */
  readonly fsCode: FsErrorCode | undefined;

  constructor(message: string, fsCode?: FsErrorCode) {
    this.message = message;
    this.fsCode = fsCode;
  }

  toDebugString(): string {
    return this.message;
  }
}

/** `stream-error` as the glue expects it thrown from a stream method. */
export type StreamError = { readonly tag: 'closed' } | { readonly tag: 'last-operation-failed'; readonly val: IoError };

export const STREAM_CLOSED: StreamError = Object.freeze({ tag: 'closed' });

export function lastOperationFailed(message: string, fsCode?: FsErrorCode): StreamError {
  return { tag: 'last-operation-failed', val: new IoError(message, fsCode) };
}

export const ioErrorImports = Object.freeze({ Error: IoError });
