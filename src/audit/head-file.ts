/**
 * The head file `<path>.head`: the seq and hash of the last record the writer wrote (after it was
 * fsynced, under `always` and `batch`), so `toolhost audit verify` can tell a log cut short at its
 * tail from one that simply ends there. It is one fixed-size block (HEAD_BYTES) rewritten in place
 * with one positioned write, so it is never seen half old, half new after a crash.
 *
 * It records only what the writer knew to be written: after a crash the log may hold a few records
 * past the head (written, not yet acknowledged), never fewer. A log that ends before the head's
 * record was cut short (or, under `never`, lost its last records in a power failure).
 */
import fs from 'node:fs';

export const HEAD_BYTES = 256;

export interface AuditHead {
  seq: number;
  hash: string;
}

export function encodeHead(head: AuditHead): Buffer {
  const text = JSON.stringify({ seq: head.seq, hash: head.hash });
  return Buffer.from(`${text.padEnd(HEAD_BYTES - 1, ' ')}\n`, 'utf8');
}

/** The head in `file`; undefined when there is none; `{problem}` when it is not a head. */
export function readHead(file: string): AuditHead | { problem: string } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { problem: (error as Error).message };
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null) {
      const { seq, hash } = value as Record<string, unknown>;
      if (typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 && typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash)) return { seq, hash };
    }
  } catch {
    // reported below
  }
  return { problem: `${file} is not an audit head file` };
}
