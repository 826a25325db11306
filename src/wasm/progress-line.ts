/**
 * The one way a wasm tool reports progress: a line of its own on stderr,
 *
 *     toolhost-progress: <progress>[/<total>] [<message>]
 *
 * at the very start of the line (no leading space), the prefix exactly as written (lower case), one
 * or more spaces, then `progress` and the optional `total` as non-negative decimal numbers (digits,
 * an optional `.` and digits; at most 15 digits before the point and 6 after), then optionally one or
 * more spaces and a free-text message (the rest of the line; at most MAX_PROGRESS_MESSAGE_CHARS kept).
 * A trailing `\r` is ignored. Examples: `toolhost-progress: 3/10 files copied`, `toolhost-progress: 0.5`.
 *
 * Such a line is not part of the tool's stderr: it is removed from the stderr the result keeps, and
 * streamed as progress when the caller asked for it. A line that does not match exactly (another
 * case, a leading space, a number with a sign or an exponent, a total of 0, longer than
 * MAX_PROGRESS_LINE_BYTES) is plain stderr. Parsing is one bounded, anchored regular expression on a
 * capped line: linear time.
 */
import type { CallProgress } from '../call-events.ts';

export const PROGRESS_LINE_PREFIX = 'toolhost-progress:';
/** A progress line longer than this (in bytes, newline excluded) is plain stderr. */
export const MAX_PROGRESS_LINE_BYTES = 512;
/** The longest message kept from a progress line. */
export const MAX_PROGRESS_MESSAGE_CHARS = 200;

const NUMBER = '(\\d{1,15}(?:\\.\\d{1,6})?)';
const PROGRESS_LINE = new RegExp(`^toolhost-progress: {1,16}${NUMBER}(?:/${NUMBER})?(?: {1,16}([^\\r\\n]*))?\\r?$`);

/** The progress a stderr line (without its newline) reports, or undefined for any other line. */
export function parseProgressLine(line: string): CallProgress | undefined {
  if (!line.startsWith(PROGRESS_LINE_PREFIX) || line.length > MAX_PROGRESS_LINE_BYTES) return undefined;
  const match = PROGRESS_LINE.exec(line);
  if (match === null) return undefined;
  const progress = Number(match[1]);
  const update: CallProgress = { progress };
  if (match[2] !== undefined) {
    const total = Number(match[2]);
    if (!(total > 0)) return undefined;
    update.total = total;
  }
  const message = match[3]?.trim();
  if (message) update.message = message.slice(0, MAX_PROGRESS_MESSAGE_CHARS);
  return update;
}

const PREFIX_BYTES = new TextEncoder().encode(PROGRESS_LINE_PREFIX);
const NEWLINE = 0x0a;
const lineDecoder = new TextDecoder('utf-8', { fatal: false });

/**
 * `stderr` without its progress lines (the same bytes when it has none: one native search for the
 * prefix, then a pass over the lines only if it occurs). Linear in the length.
 */
export function withoutProgressLines(stderr: Uint8Array): Uint8Array {
  if (stderr.length < PREFIX_BYTES.length) return stderr;
  const bytes = Buffer.from(stderr.buffer, stderr.byteOffset, stderr.byteLength);
  if (bytes.indexOf(PREFIX_BYTES) === -1) return stderr;
  const kept: Uint8Array[] = [];
  let removed = false;
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline === -1 ? bytes.length : newline + 1;
    const lineEnd = newline === -1 ? bytes.length : newline;
    const isProgress =
      lineEnd - start <= MAX_PROGRESS_LINE_BYTES &&
      bytes[start] === PREFIX_BYTES[0] &&
      parseProgressLine(lineDecoder.decode(bytes.subarray(start, lineEnd))) !== undefined;
    if (isProgress) removed = true;
    else kept.push(bytes.subarray(start, end));
    start = end;
  }
  return removed ? new Uint8Array(Buffer.concat(kept)) : stderr;
}
