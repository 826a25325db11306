/**
 * The hash chain of the audit log: how a record becomes one sealed line, and how a line is checked.
 *
 * A record is one JSON object on one line. Its fields come in the order the writer gives them, then
 * `prev` (the `hash` of the record before it; GENESIS_HASH for the first record of the chain), then
 * `hash`: the sha256 (hex) of the line's exact bytes up to that field, i.e. the UTF-8 bytes of
 * `{"seq":…,…,"prev":"…"}` (the line without its `,"hash":"…"` part). So every byte of a record,
 * `prev` included, is covered by its own `hash`, and every record's `prev` is the hash of the exact
 * bytes of the one before: changing any byte breaks that record's hash; deleting, inserting or
 * reordering records breaks the `seq` run and the next record's `prev`; rewriting a record with a
 * fresh hash breaks the next record's `prev`. Truncation at the tail is caught by the head file
 * (src/audit/head-file.ts). Nothing here is secret: someone who can rewrite the whole file from a
 * record onwards can forge a consistent chain, which is why the head's hash is worth copying elsewhere.
 */
import { createHash } from 'node:crypto';

/** `prev` of the first record of a chain. */
export const GENESIS_HASH = '0'.repeat(64);

const HASH_SUFFIX = /,"hash":"([0-9a-f]{64})"\}$/;

export interface SealedRecord {
  seq: number;
  hash: string;
  /** The line, newline included: what is written in one `write`. */
  line: string;
}

export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Seals `fields` as record `seq` chained to `prev`. `fields` must be JSON-safe and must not hold
 * `seq`, `prev` or `hash` (they are placed by the chain).
 */
export function sealRecord(seq: number, fields: Readonly<Record<string, unknown>>, prev: string): SealedRecord {
  const body = JSON.stringify({ seq, ...fields, prev });
  const hash = sha256Hex(body);
  return { seq, hash, line: `${body.slice(0, -1)},"hash":"${hash}"}\n` };
}

/** What one line of the log holds once checked on its own (its chain links are checked by the caller). */
export type LineCheck =
  | { ok: true; seq: number; prev: string; hash: string; record: Record<string, unknown> }
  | { ok: false; problem: string };

/** Bytes of the `,"hash":"<64 hex>"}` a sealed line ends with. */
const HASH_SUFFIX_BYTES = ',"hash":"'.length + 64 + '"}'.length;

/**
 * Checks a line (its exact bytes, without the newline) on its own: JSON, its fields, and its hash
 * over its exact bytes. Its links to the records around it are checked by the caller (verify.ts).
 */
export function checkLine(bytes: Uint8Array): LineCheck {
  const line = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const suffix = HASH_SUFFIX.exec(line);
  if (suffix === null || bytes.byteLength < HASH_SUFFIX_BYTES) return { ok: false, problem: 'it does not end with a "hash" field (the line was changed or is not a record)' };
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return { ok: false, problem: 'it is not valid JSON (the line was changed)' };
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return { ok: false, problem: 'it is not a JSON object' };
  const fields = record as Record<string, unknown>;
  const { seq, prev, hash } = fields;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return { ok: false, problem: 'its "seq" is not a positive integer' };
  if (typeof prev !== 'string' || !/^[0-9a-f]{64}$/.test(prev)) return { ok: false, problem: 'its "prev" is not a sha256' };
  if (hash !== suffix[1]) return { ok: false, problem: 'it has more than one "hash" field' };
  // The hash covers the raw bytes (not a re-encoding of the decoded text): a flipped byte that is not valid UTF-8 counts too.
  const body = createHash('sha256').update(bytes.subarray(0, bytes.byteLength - HASH_SUFFIX_BYTES)).update('}').digest('hex');
  if (body !== hash) return { ok: false, problem: 'its hash does not match its bytes (the record was changed)' };
  return { ok: true, seq, prev, hash, record: fields };
}
