/**
 * The JSON Lines sink on real files: every fsync policy under concurrent appends across rotations
 * keeps one verifiable chain and a head naming its last record; a torn tail is repaired on open and
 * recorded; a last record that fails its hash, or a log that ends before its head, is not chained onto.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_FSYNC_POLICIES, type AuditFsyncPolicy } from '../../src/audit/config.ts';
import { FileAuditSink } from '../../src/audit/file-sink.ts';
import { readHead } from '../../src/audit/head-file.ts';
import { verifyAuditLog } from '../../src/audit/verify.ts';
import { ToolHostError } from '../../src/errors.ts';
import { silentLogger } from '../../src/logger.ts';
import { temporaryDirectory } from '../server/helpers.ts';
import { allRecords, logFiles, recordsOf } from './helpers.ts';

function logPath(): string {
  const folder = join(temporaryDirectory('toolhost-sink-'), 'logs');
  mkdirSync(folder);
  return join(folder, 'audit.jsonl');
}

function open(path: string, fsync: AuditFsyncPolicy = 'always', maxBytes = 1024 * 1024): Promise<FileAuditSink> {
  return FileAuditSink.open({ path, fsync, maxBytes, logger: silentLogger(), started: { type: 'audit', event: 'started' } });
}

describe('FileAuditSink', () => {
  for (const fsync of AUDIT_FSYNC_POLICIES) {
    it(`fsync ${fsync}: concurrent appends across rotations make one chain`, async () => {
      const path = logPath();
      const sink = await open(path, fsync, 4096);
      await Promise.all(Array.from({ length: 300 }, (_, index) => sink.append({ type: 'call', tool: 'x', index, padding: 'p'.repeat(index % 50) })));
      await sink.close();
      expect(logFiles(path).length).toBeGreaterThan(5);
      const records = allRecords(path);
      expect(records).toHaveLength(302);
      expect(records.filter((record) => record.type === 'call').map((record) => record.index)).toEqual(Array.from({ length: 300 }, (_, index) => index));
      const report = verifyAuditLog(path);
      expect(report).toMatchObject({ ok: true, records: 302, last_seq: 302 });
      expect(readHead(`${path}.head`)).toEqual({ seq: 302, hash: records.at(-1).hash });
    }, 60_000);
  }

  it('repairs a torn tail on open and records it; the chain goes on', async () => {
    const path = logPath();
    const first = await open(path);
    await first.append({ type: 'call', tool: 'a' });
    await first.close();
    const torn = '{"seq":4,"time":"2026-01-01T00:00:00.000Z","type":"call","tool":"b","pr';
    appendFileSync(path, torn);
    expect(verifyAuditLog(path)).toMatchObject({ ok: true, torn_tail: { bytes: torn.length } });
    const second = await open(path);
    await second.close();
    const records = recordsOf(path);
    expect(records.slice(3).map((record) => [record.seq, record.event])).toEqual([
      [4, 'repaired'],
      [5, 'started'],
      [6, 'stopped'],
    ]);
    expect(records[3]).toMatchObject({ torn_bytes: torn.length, torn_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(verifyAuditLog(path)).toMatchObject({ ok: true, records: 6 });
    expect(verifyAuditLog(path).torn_tail).toBeUndefined();
  }, 60_000);

  it('does not chain onto a last record that fails its hash, nor onto a log shorter than its head', async () => {
    const path = logPath();
    const sink = await open(path);
    await sink.append({ type: 'call', tool: 'a' });
    await sink.close();
    const original = readFileSync(path, 'utf8');
    writeFileSync(path, original.replace('"event":"stopped"', '"event":"stoppex"'));
    await expect(open(path)).rejects.toSatisfy((error) => ToolHostError.is(error, 'AUDIT_LOG_DAMAGED') && /fails its check/.test((error as Error).message));
    writeFileSync(path, `${original.trimEnd().split('\n').slice(0, -1).join('\n')}\n`);
    await expect(open(path)).rejects.toSatisfy((error) => ToolHostError.is(error, 'AUDIT_LOG_DAMAGED') && /head file says record 3 was written/.test((error as Error).message));
    // Removing the head as well does not make the cut log acceptable.
    rmSync(`${path}.head`);
    await expect(open(path)).rejects.toSatisfy((error) => ToolHostError.is(error, 'AUDIT_LOG_DAMAGED') && /head file .* is missing/.test((error as Error).message));
    // Nothing was written by the refused opens.
    expect(readFileSync(path, 'utf8')).toBe(`${original.trimEnd().split('\n').slice(0, -1).join('\n')}\n`);
  }, 60_000);
});
