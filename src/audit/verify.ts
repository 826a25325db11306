/**
 * `toolhost audit verify`: walks the whole chain of an audit log (rotated files oldest first, then
 * the current file) and reports the first record where it breaks, by its number (`seq`), file and
 * line, and what is wrong: a changed byte (the record's hash), a record missing, added or out of
 * order (`seq` run and `prev` link), a chain that does not start at record 1 (an earlier file
 * removed), or a log cut short before the record its head file names (truncation).
 *
 * A torn tail (bytes after the last newline of the current file: a write interrupted by a crash) is
 * not a broken record: it is reported as `torn_tail`, and the log counts as intact up to it (the
 * daemon truncates it on its next start and records that it did), unless the head file says the
 * record was complete, which makes it a truncation.
 */
import { basename } from 'node:path';
import { checkLine, GENESIS_HASH } from './chain.ts';
import { headFileOf } from './files.ts';
import { type AuditHead, readHead } from './head-file.ts';
import { chainLines } from './reader.ts';

export interface BadRecord {
  /** The number (`seq`) the first bad record has, or would have had in an intact chain. */
  seq: number;
  file: string;
  line: number;
  problem: string;
}

export interface VerifyReport {
  ok: boolean;
  /** Complete records read. */
  records: number;
  first_seq: number | undefined;
  last_seq: number | undefined;
  /** The hash of the last record read (what the next one must name as `prev`). */
  last_hash: string | undefined;
  head: AuditHead | undefined;
  files: string[];
  torn_tail?: { file: string; bytes: number };
  bad?: BadRecord;
  warnings: string[];
}

export interface VerifyOptions {
  /** Verify without the head file (a copy of the log): a truncated tail then goes unnoticed. */
  noHead?: boolean;
}

export function verifyAuditLog(path: string, options: VerifyOptions = {}): VerifyReport {
  const warnings: string[] = [];
  const files = new Set<string>();
  let head: AuditHead | undefined;
  let headProblem: string | undefined;
  if (options.noHead !== true) {
    const read = readHead(headFileOf(path));
    if (read !== undefined && 'problem' in read) headProblem = read.problem;
    else head = read;
  }
  const report = (fields: Partial<VerifyReport> & { ok: boolean }): VerifyReport => ({
    records,
    first_seq: firstSeq,
    last_seq: lastSeq,
    last_hash: lastHash === GENESIS_HASH ? undefined : lastHash,
    head,
    files: [...files],
    warnings,
    ...fields,
  });
  let records = 0;
  let firstSeq: number | undefined;
  let lastSeq: number | undefined;
  let lastHash = GENESIS_HASH;
  let headHashSeen: string | undefined;
  let torn: { file: string; line: number; bytes: number } | undefined;
  for (const line of chainLines(path)) {
    files.add(line.file);
    const expected = (lastSeq ?? 0) + 1;
    const bad = (problem: string): VerifyReport => report({ ok: false, bad: { seq: expected, file: line.file, line: line.line, problem } });
    if (torn !== undefined) return report({ ok: false, bad: { seq: expected, file: torn.file, line: torn.line, problem: 'an incomplete line lies before the end of the log (records were cut or spliced)' } });
    if (!line.complete) {
      if (line.overlong === true) return bad('the line is longer than any record (the file was changed)');
      torn = { file: line.file, line: line.line, bytes: line.bytes.length };
      continue;
    }
    const check = checkLine(line.bytes);
    if (!check.ok) return bad(check.problem);
    if (lastSeq === undefined) {
      if (check.seq !== 1 || check.prev !== GENESIS_HASH) {
        return report({ ok: false, bad: { seq: 1, file: line.file, line: line.line, problem: `the chain starts at record ${check.seq}, not at record 1: the records before it are missing (an earlier file was removed or cut)` } });
      }
    } else if (check.seq > expected) {
      return bad(check.seq === expected + 1 ? `record ${expected} is missing (the next line is record ${check.seq})` : `records ${expected}–${check.seq - 1} are missing (the next line is record ${check.seq})`);
    } else if (check.seq < expected) {
      return bad(`record ${check.seq} appears where record ${expected} belongs (records were reordered or repeated)`);
    } else if (check.prev !== lastHash) {
      return bad(`its "prev" does not match the hash of record ${lastSeq} (one of them was rewritten or replaced)`);
    }
    records += 1;
    firstSeq ??= check.seq;
    lastSeq = check.seq;
    lastHash = check.hash;
    if (head !== undefined && check.seq === head.seq) headHashSeen = check.hash;
  }
  if (torn !== undefined) {
    const inRotated = torn.file !== path;
    if (inRotated) return report({ ok: false, bad: { seq: (lastSeq ?? 0) + 1, file: torn.file, line: torn.line, problem: 'a rotated file ends in an incomplete line (it was cut)' } });
  }
  const tornTail = torn === undefined ? {} : { torn_tail: { file: torn.file, bytes: torn.bytes } };
  if (options.noHead !== true) {
    if (headProblem !== undefined) return report({ ok: false, ...tornTail, bad: { seq: (lastSeq ?? 0) + 1, file: headFileOf(path), line: 1, problem: `the head file is damaged: ${headProblem}` } });
    if (head === undefined) {
      if (records > 0 || torn !== undefined) {
        return report({ ok: false, ...tornTail, bad: { seq: (lastSeq ?? 0) + 1, file: headFileOf(path), line: 1, problem: `the head file ${basename(headFileOf(path))} is missing, so a cut tail cannot be ruled out (verify a copy with --no-head)` } });
      }
    } else if (head.seq > (lastSeq ?? 0)) {
      const where = torn ?? { file: [...files].at(-1) ?? path, line: 0 };
      const missing = head.seq === (lastSeq ?? 0) + 1 ? `record ${head.seq} was` : `records ${(lastSeq ?? 0) + 1}–${head.seq} were`;
      return report({ ok: false, ...tornTail, bad: { seq: (lastSeq ?? 0) + 1, file: where.file, line: where.line, problem: `the log ends at record ${lastSeq ?? 0} but its head file says ${missing} written: the log was truncated` } });
    } else if (head.seq > 0 && headHashSeen !== head.hash) {
      return report({ ok: false, ...tornTail, bad: { seq: head.seq, file: headFileOf(path), line: 1, problem: `record ${head.seq} does not have the hash the head file names (the record was rewritten)` } });
    }
  } else {
    warnings.push('verified without the head file: a log cut short at its tail is not detected');
  }
  if (records === 0 && torn === undefined) warnings.push(`no audit records in ${path}`);
  return report({ ok: true, ...tornTail });
}
