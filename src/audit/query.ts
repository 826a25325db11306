/**
 * `toolhost audit tail|query`: reading records back, newest last, with filters. Reading does not
 * check the chain (that is `verify`): a line that is not JSON is skipped and counted.
 */
import { chainFiles } from './files.ts';
import { fileLines } from './reader.ts';

export type AuditRecord = Record<string, unknown> & { seq?: number; time?: string; type?: string };

export interface AuditFilter {
  tool?: string;
  /** Matches the caller's `sub` (calls), who asked or who decided (approvals). */
  principal?: string;
  /** Epoch milliseconds, inclusive. */
  since?: number;
  /** Epoch milliseconds, inclusive. */
  until?: number;
  status?: string;
  type?: string;
}

function subOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const sub = (value as Record<string, unknown>)['sub'];
  return typeof sub === 'string' ? sub : undefined;
}

export function matchesFilter(record: AuditRecord, filter: AuditFilter): boolean {
  if (filter.type !== undefined && record.type !== filter.type) return false;
  if (filter.tool !== undefined && record['tool'] !== filter.tool) return false;
  if (filter.status !== undefined && record['status'] !== filter.status) return false;
  if (filter.principal !== undefined) {
    const subs = [record['principal'], record['requested_by'], record['decided_by']].map(subOf);
    if (!subs.includes(filter.principal)) return false;
  }
  if (filter.since !== undefined || filter.until !== undefined) {
    const time = typeof record.time === 'string' ? Date.parse(record.time) : Number.NaN;
    if (Number.isNaN(time)) return false;
    if (filter.since !== undefined && time < filter.since) return false;
    if (filter.until !== undefined && time > filter.until) return false;
  }
  return true;
}

export interface ReadRecord {
  record: AuditRecord;
  /** The line as stored (without its newline). */
  line: string;
}

function parse(bytes: Buffer): ReadRecord | undefined {
  const line = bytes.toString('utf8');
  try {
    const record = JSON.parse(line) as unknown;
    if (typeof record === 'object' && record !== null && !Array.isArray(record)) return { record: record as AuditRecord, line };
  } catch {
    // not a record
  }
  return undefined;
}

/** Every record of the chain matching `filter`, oldest first; `limit` keeps the last ones. */
export function queryAuditLog(path: string, filter: AuditFilter = {}, limit?: number): { records: ReadRecord[]; skipped: number } {
  const records: ReadRecord[] = [];
  let skipped = 0;
  for (const file of chainFiles(path)) {
    for (const line of fileLines(file)) {
      if (!line.complete) continue;
      const read = parse(line.bytes);
      if (read === undefined) skipped += 1;
      else if (matchesFilter(read.record, filter)) {
        records.push(read);
        if (limit !== undefined && records.length > limit) records.shift();
      }
    }
  }
  return { records, skipped };
}

/** Complete records of `file` from byte `offset` on, and the offset after the last complete line (for `tail -f`). */
export function recordsFrom(file: string, offset: number, read: (file: string, offset: number) => Buffer): { records: ReadRecord[]; next: number } {
  const bytes = read(file, offset);
  const end = bytes.lastIndexOf(0x0a);
  if (end === -1) return { records: [], next: offset };
  const records: ReadRecord[] = [];
  let start = 0;
  while (start <= end) {
    const newline = bytes.indexOf(0x0a, start);
    const parsed = parse(bytes.subarray(start, newline));
    if (parsed !== undefined) records.push(parsed);
    start = newline + 1;
  }
  return { records, next: offset + end + 1 };
}
