/**
 * Reads the lines of an audit log's files as exact bytes, oldest file first, in fixed-size chunks
 * (memory stays bounded by the longest line, capped at MAX_LINE_BYTES: a longer one is reported, not
 * buffered). Used by verify, tail and query; never by the writer's hot path.
 */
import fs from 'node:fs';
import { chainFiles } from './files.ts';

const CHUNK_BYTES = 1024 * 1024;
/** The longest line read whole; a record is far smaller (arguments are capped at 16 KiB). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface LogLine {
  file: string;
  /** 1-based line number within `file`. */
  line: number;
  /** The line's bytes without its newline (for an over-long line: its first MAX_LINE_BYTES). */
  bytes: Buffer;
  /** False for the bytes after the last newline of a file (an interrupted write), and for an over-long line. */
  complete: boolean;
  /** True when `complete` is false because the line is longer than MAX_LINE_BYTES. */
  overlong?: boolean;
}

/** The lines of one file; nothing when it does not exist. */
export function* fileLines(file: string): Generator<LogLine> {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let overlong = false;
    let lineNumber = 0;
    for (;;) {
      const read = fs.readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(0x0a, start);
        if (newline === -1 || newline >= read) break;
        lineNumber += 1;
        const piece = chunk.subarray(start, newline);
        if (!overlong) {
          const bytes = pendingBytes === 0 ? Buffer.from(piece) : Buffer.concat([...pending, piece]);
          yield { file, line: lineNumber, bytes, complete: true };
        } else {
          yield { file, line: lineNumber, bytes: Buffer.concat(pending), complete: false, overlong: true };
        }
        pending = [];
        pendingBytes = 0;
        overlong = false;
        start = newline + 1;
      }
      if (start < read && !overlong) {
        const rest = Buffer.from(chunk.subarray(start, read));
        if (pendingBytes + rest.length > MAX_LINE_BYTES) {
          overlong = true;
          pending.push(rest.subarray(0, Math.max(0, MAX_LINE_BYTES - pendingBytes)));
          pendingBytes = MAX_LINE_BYTES;
        } else {
          pending.push(rest);
          pendingBytes += rest.length;
        }
      }
    }
    if (pendingBytes > 0 || overlong) yield { file, line: lineNumber + 1, bytes: Buffer.concat(pending), complete: false, ...(overlong ? { overlong: true } : {}) };
  } finally {
    fs.closeSync(fd);
  }
}

/** Every line of the chain of `path`, oldest file first. */
export function* chainLines(path: string): Generator<LogLine> {
  for (const file of chainFiles(path)) yield* fileLines(file);
}
