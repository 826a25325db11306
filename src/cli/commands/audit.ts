/**
 * `toolhost audit verify|tail|query`: reads the daemon's audit log (config `audit.path`, or `--path`).
 *
 * - `verify` walks the hash chain across rotated files: exit 0 when intact (a torn tail, a write cut
 *   by a crash that the daemon repairs on its next start, is reported but is not a broken record),
 *   1 with the first bad record's number, file, line and what is wrong.
 * - `tail` prints the last N records (`-n`, default 10); `-f` keeps printing new ones (rotation
 *   followed) until interrupted.
 * - `query` prints the records matching every filter given.
 */
import fs from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { resolveConfig } from '../../config.ts';
import { ToolHostError } from '../../errors.ts';
import { type AuditFilter, type AuditRecord, queryAuditLog, type ReadRecord, recordsFrom } from '../../audit/query.ts';
import { verifyAuditLog, type VerifyReport } from '../../audit/verify.ts';
import type { CommandContext } from '../command-context.ts';
import { CliError, type CliIo, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, painterFor, usageError, writeJson } from '../output.ts';

interface PathFlags {
  path?: string;
  config?: string;
  json?: boolean;
}

interface VerifyFlags extends PathFlags {
  head?: boolean;
}

interface TailFlags extends PathFlags {
  lines?: string;
  follow?: boolean;
}

interface QueryFlags extends PathFlags {
  tool?: string;
  principal?: string;
  since?: string;
  until?: string;
  status?: string;
  type?: string;
  limit?: string;
}

const FOLLOW_POLL_MS = 250;

/** `--path`, else the config's `audit.path` (--config, TOOLHOST_CONFIG). */
export function resolveAuditPath(flags: PathFlags, io: Pick<CliIo, 'cwd' | 'env'>): string {
  if (flags.path !== undefined) return resolve(io.cwd, flags.path);
  let config;
  try {
    config = resolveConfig({ ...(flags.config !== undefined ? { flags: { config: flags.config } } : {}), env: io.env, cwd: io.cwd });
  } catch (error) {
    if (ToolHostError.is(error, 'CONFIG_INVALID')) throw new CliError(error.message, { exitCode: EXIT_USAGE, cause: error });
    throw error;
  }
  if (config.audit === undefined) throw usageError('no audit log: the config has no "audit" section', 'pass --path FILE, or --config FILE with "audit": {"path": …}');
  return config.audit.path;
}

function positiveInteger(value: string | undefined, flag: string, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw usageError(`${flag} must be a positive whole number, got "${value}"`);
  return Number(value);
}

const RELATIVE_TIME = /^(\d+)(s|m|h|d)$/;
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An ISO 8601 date/time, or a time ago: `30s`, `10m`, `2h`, `7d`. */
export function parseTime(value: string, flag: string, now = Date.now()): number {
  const relative = RELATIVE_TIME.exec(value);
  if (relative?.[1] !== undefined && relative[2] !== undefined) return now - Number(relative[1]) * (UNIT_MS[relative[2]] ?? 0);
  const time = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw usageError(`${flag} must be an ISO 8601 time (2026-01-31T12:00:00Z) or a time ago (30s, 10m, 2h, 7d), got "${value}"`);
  return time;
}

function filterOf(flags: QueryFlags): AuditFilter {
  if (flags.status !== undefined && !['ok', 'error', 'refused'].includes(flags.status)) throw usageError(`--status must be ok, error or refused, got "${flags.status}"`);
  return {
    ...(flags.tool !== undefined ? { tool: flags.tool } : {}),
    ...(flags.principal !== undefined ? { principal: flags.principal } : {}),
    ...(flags.since !== undefined ? { since: parseTime(flags.since, '--since') } : {}),
    ...(flags.until !== undefined ? { until: parseTime(flags.until, '--until') } : {}),
    ...(flags.status !== undefined ? { status: flags.status } : {}),
    ...(flags.type !== undefined ? { type: flags.type } : {}),
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '-' : JSON.stringify(value);
}

function subOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '-';
  const sub = (value as Record<string, unknown>)['sub'];
  return typeof sub === 'string' ? sub : '-';
}

/** One record as one human line: `#seq time type …`. */
export function formatRecord(record: AuditRecord): string {
  const head = `#${text(record.seq)} ${text(record.time)} ${text(record.type)}`;
  switch (record.type) {
    case 'call': {
      const approval = record['approval'] as Record<string, unknown> | null | undefined;
      const decided = approval ? ` approval=${text(approval['decision'])}${approval['decided_by'] ? ` by ${subOf(approval['decided_by'])}` : ''}` : '';
      const reason = record['reason'] ? ` (${text(record['reason'])})` : '';
      return `${head} ${text(record['tool'])} ${text(record['status'])}${reason} ${text(record['duration_ms'])}ms principal=${subOf(record['principal'])} via=${text(record['transport'])}${decided}`;
    }
    case 'approval':
      return `${head} ${text(record['tool'])} ${text(record['decision'])} (${text(record['reason'])}) asked by ${subOf(record['requested_by'])}, decided by ${subOf(record['decided_by'])}`;
    case 'tool':
      return `${head} ${text(record['event'])} ${text(record['tool'] ?? record['file'])} ${text(record['tool_digest'] ?? record['error'])}`;
    default:
      return `${head} ${text(record['event'])}`;
  }
}

function printRecords(io: CliIo, records: readonly ReadRecord[], json: boolean | undefined): void {
  if (records.length === 0) return;
  io.stdout.write(`${records.map((entry) => (json ? entry.line : formatRecord(entry.record))).join('\n')}\n`);
}

function verifyText(report: VerifyReport, path: string, io: CliIo): string {
  const paint = painterFor(io.stdout, io.env);
  const lines: string[] = [];
  if (report.bad !== undefined) {
    lines.push(`${paint('red', 'audit log damaged')} at record ${report.bad.seq} (${report.bad.file}${report.bad.line > 0 ? ` line ${report.bad.line}` : ''}): ${report.bad.problem}`);
    if (report.records > 0) lines.push(`records 1–${report.last_seq} before it are intact`);
  } else {
    const range = report.records > 0 ? ` (records ${report.first_seq}–${report.last_seq})` : '';
    lines.push(`${paint('green', 'audit log intact')}: ${report.records} records${range} in ${report.files.length} file(s) of ${path}`);
    if (report.last_hash !== undefined) lines.push(`last record ${report.last_seq}: sha256 ${report.last_hash} (keep it elsewhere to detect a rewritten log)`);
  }
  if (report.torn_tail !== undefined) {
    lines.push(`${paint('yellow', 'torn tail')}: ${report.torn_tail.bytes} bytes after the last complete record of ${report.torn_tail.file} (a write cut by a crash; the daemon removes them on its next start and records that)`);
  }
  for (const warning of report.warnings) lines.push(`${paint('yellow', 'warning')}: ${warning}`);
  return `${lines.join('\n')}\n`;
}

function readFrom(file: string, offset: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.max(0, size - offset));
    if (buffer.length > 0) fs.readSync(fd, buffer, 0, buffer.length, offset);
    return buffer;
  } finally {
    fs.closeSync(fd);
  }
}

/** Prints records appended to `path` until SIGINT/SIGTERM; a rotation (the file replaced) starts over at the new file. */
async function follow(path: string, io: CliIo, json: boolean | undefined): Promise<void> {
  let inode = fs.statSync(path, { throwIfNoEntry: false })?.ino;
  let offset = fs.statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
      const stats = fs.statSync(path, { throwIfNoEntry: false });
      if (stats === undefined) continue;
      if (stats.ino !== inode) {
        inode = stats.ino;
        offset = 0;
      }
      if (stats.size <= offset) continue;
      const { records, next } = recordsFrom(path, offset, readFrom);
      offset = next;
      printRecords(io, records, json);
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function addPathOptions(command: Command): Command {
  return command
    .option('--path <file>', 'the audit log (default: audit.path of the config file)')
    .option('--config <file>', 'JSON config file whose audit.path to read (env TOOLHOST_CONFIG)')
    .option('--json', 'print JSON (records as stored, one per line)');
}

export function defineAuditCommand(audit: Command, context: CommandContext): Command {
  audit.addHelpText(
    'after',
    '\nThe daemon (`toolhost serve` with the config key "audit") writes one hash-chained JSON Lines record per call, approval decision and tool change.',
  );
  addPathOptions(audit.command('verify').description('check the hash chain across rotated files: exit 0 intact, 1 with the first bad record'))
    .option('--no-head', 'verify without the head file (a copy of the log): a cut tail is then not detected')
    .action(
      context.action(async (flags: VerifyFlags) => {
        const path = resolveAuditPath(flags, context.io);
        const report = verifyAuditLog(path, { noHead: flags.head === false });
        if (flags.json) writeJson(context.io, report);
        else context.io.stdout.write(verifyText(report, path, context.io));
        return report.ok ? EXIT_OK : EXIT_FAILURE;
      }),
    );
  addPathOptions(audit.command('tail').description('print the last records; -f follows new ones'))
    .option('-n, --lines <n>', 'how many records (default 10)')
    .option('-f, --follow', 'keep printing records as they are written (until Ctrl-C)')
    .action(
      context.action(async (flags: TailFlags) => {
        const path = resolveAuditPath(flags, context.io);
        const count = positiveInteger(flags.lines, '--lines', 10);
        printRecords(context.io, queryAuditLog(path, {}, count).records, flags.json);
        if (flags.follow) await follow(path, context.io, flags.json);
        return EXIT_OK;
      }),
    );
  addPathOptions(audit.command('query').description('print the records matching filters (tool, principal, time, status, type)'))
    .option('--tool <name>', 'records of this tool')
    .option('--principal <sub>', 'records whose caller (or, for approvals, asker or decider) has this subject')
    .option('--since <time>', 'records at or after: ISO 8601, or a time ago (30s, 10m, 2h, 7d)')
    .option('--until <time>', 'records at or before: ISO 8601, or a time ago')
    .option('--status <status>', 'calls that ended ok, error or refused')
    .option('--type <type>', 'call, approval, tool or audit')
    .option('--limit <n>', 'only the last n matches')
    .action(
      context.action(async (flags: QueryFlags) => {
        const path = resolveAuditPath(flags, context.io);
        const filter = filterOf(flags);
        const { records } = queryAuditLog(path, filter, positiveInteger(flags.limit, '--limit', undefined));
        printRecords(context.io, records, flags.json);
        return EXIT_OK;
      }),
    );
  return audit;
}
