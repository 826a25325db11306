/**
 * The default audit sink: one append-only JSON Lines file, hash-chained (chain.ts), rotated by size
 * with the chain carried over, fsynced per policy, safe across a crash.
 *
 * - One writer: `<path>.lock` holds the writer's pid; a second process refuses to start
 *   (AUDIT_LOG_IN_USE) while that pid lives. A lock left by a dead process is taken over.
 * - One record = one `write` of the whole line (O_APPEND), made on the event loop in the order
 *   `append` is called, so the chain order is the write order. Durability per `fsync`:
 *   `always` resolves `append` once an fdatasync that started after the write is done (concurrent
 *   calls share one: group commit); `batch` fdatasyncs every BATCH_FSYNC_MS or BATCH_FSYNC_RECORDS
 *   records; `never` leaves it to the OS (a process crash loses nothing, a power cut may).
 * - The head file (head-file.ts) is rewritten after each fdatasync (`never`: after each write) with
 *   the last record known written, so truncation is detected by `verify`.
 * - Rotation: when a record would take the file past `max_bytes`, the file is fdatasynced and
 *   renamed to `<path>.<n+1>` (n = the highest number there), and the record starts the new file,
 *   its `prev` the hash of the renamed file's last record.
 * - Start: a torn last line (bytes after the last newline: a write cut by a crash) is truncated away
 *   and an `audit` record `repaired` says how many bytes and their sha256. The last record's own hash
 *   and the head file are checked: a last record that fails its hash, a log without its head file, or a log that ends before the
 *   head's record, is not chained onto (AUDIT_LOG_DAMAGED: run `toolhost audit verify`, move the log
 *   aside to start a new chain). The whole chain is not re-read at start (`verify` does that).
 */
import fs from 'node:fs';
import { dirname } from 'node:path';
import { ToolHostError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { checkLine, GENESIS_HASH, sealRecord, sha256Hex } from './chain.ts';
import type { AuditFsyncPolicy } from './config.ts';
import { headFileOf, lockFileOf, rotatedFiles } from './files.ts';
import { type AuditHead, encodeHead, readHead } from './head-file.ts';
import { MAX_LINE_BYTES } from './reader.ts';
import type { AuditFields, AuditSink } from './sink.ts';

export const BATCH_FSYNC_MS = 200;
export const BATCH_FSYNC_RECORDS = 100;
const FILE_MODE = 0o600;
const TAIL_CHUNK_BYTES = 64 * 1024;

export interface FileAuditSinkOptions {
  path: string;
  fsync: AuditFsyncPolicy;
  maxBytes: number;
  logger: Logger;
  /** Fields of the first record this writer writes (`{type: 'audit', event: 'started', …}`). */
  started: AuditFields;
}

/** The last complete line of the file open at `fd` whose first `size` bytes are read, or undefined when it has none. */
function lastLineOf(fd: number, size: number): Buffer | undefined {
  if (size === 0) return undefined;
  const chunks: Buffer[] = [];
  let end = size - 1; // the final newline
  let position = end;
  while (position > 0 && size - position <= MAX_LINE_BYTES) {
    const start = Math.max(0, position - TAIL_CHUNK_BYTES);
    const chunk = Buffer.allocUnsafe(position - start);
    fs.readSync(fd, chunk, 0, chunk.length, start);
    const newline = chunk.lastIndexOf(0x0a);
    if (newline !== -1) {
      chunks.unshift(chunk.subarray(newline + 1));
      return Buffer.concat(chunks);
    }
    chunks.unshift(chunk);
    position = start;
  }
  if (position === 0) return Buffer.concat(chunks).subarray(0, end);
  return undefined;
}

/** Bytes after the last newline of the file at `fd` (a torn write), 0 when it ends with one. */
function tornBytesOf(fd: number, size: number): number {
  let position = size;
  const chunk = Buffer.allocUnsafe(TAIL_CHUNK_BYTES);
  while (position > 0) {
    const start = Math.max(0, position - TAIL_CHUNK_BYTES);
    fs.readSync(fd, chunk, 0, position - start, start);
    const newline = chunk.subarray(0, position - start).lastIndexOf(0x0a);
    if (newline !== -1) return size - (start + newline + 1);
    position = start;
  }
  return size;
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed (a failed rotation)
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `<path>.lock` for this process. @throws ToolHostError('AUDIT_LOG_IN_USE') */
function acquireLock(lockFile: string, path: string): void {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = fs.openSync(lockFile, 'wx', FILE_MODE);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = Number.NaN;
    try {
      holder = Number.parseInt(fs.readFileSync(lockFile, 'utf8').trim(), 10);
    } catch {
      // removed meanwhile, or unreadable: retry
    }
    if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new ToolHostError('AUDIT_LOG_IN_USE', `The audit log ${path} is being written by process ${holder} (lock ${lockFile}). Give each daemon its own audit.path.`);
    }
    fs.rmSync(lockFile, { force: true });
  }
  throw new ToolHostError('AUDIT_LOG_IN_USE', `Could not take the audit log's lock ${lockFile}.`);
}

function fsyncDirectory(path: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dirname(path), 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a directory; the rename itself has happened.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

interface ChainEnd {
  seq: number;
  hash: string;
}

/** The last record of the chain: the current file's, else the newest rotated file's, else none. @throws AUDIT_LOG_DAMAGED */
function chainEnd(path: string, fd: number, size: number): ChainEnd {
  const damaged = (file: string, problem: string): ToolHostError =>
    new ToolHostError('AUDIT_LOG_DAMAGED', `The last record of the audit log ${file} ${problem}; the daemon will not chain onto it. Run \`toolhost audit verify --path ${path}\`, and move the log, its rotated files and its .head file aside to start a new chain.`);
  let line = lastLineOf(fd, size);
  let file = path;
  if (line === undefined && size > 0) throw damaged(path, 'is longer than any record');
  if (line === undefined) {
    const newest = rotatedFiles(path).at(-1);
    if (newest !== undefined) {
      file = newest.file;
      const rotatedFd = fs.openSync(newest.file, 'r');
      try {
        const rotatedSize = fs.fstatSync(rotatedFd).size;
        if (rotatedSize > 0 && tornBytesOf(rotatedFd, rotatedSize) !== 0) throw damaged(newest.file, 'is incomplete (the rotated file was cut)');
        line = lastLineOf(rotatedFd, rotatedSize);
      } finally {
        fs.closeSync(rotatedFd);
      }
    }
  }
  if (line === undefined) return { seq: 0, hash: GENESIS_HASH };
  const check = checkLine(line);
  if (!check.ok) throw damaged(file, `fails its check: ${check.problem}`);
  return { seq: check.seq, hash: check.hash };
}

export class FileAuditSink implements AuditSink {
  readonly fsync: AuditFsyncPolicy;
  private readonly path: string;
  private readonly maxBytes: number;
  private readonly logger: Logger;
  private fd: number;
  /** Counts rotations: a sync that began on a file rotated away meanwhile (whose fd number may be reused) is told apart. */
  private generation = 0;
  private readonly headFd: number;
  private size: number;
  private seq: number;
  private lastHash: string;
  private failed = false;
  private closed = false;
  private syncing = false;
  private headSyncing = false;
  private waiters: (() => void)[] = [];
  private unsynced = 0;
  private batchTimer: NodeJS.Timeout | undefined;

  private constructor(options: FileAuditSinkOptions, state: { fd: number; headFd: number; size: number; end: ChainEnd }) {
    this.path = options.path;
    this.fsync = options.fsync;
    this.maxBytes = options.maxBytes;
    this.logger = options.logger;
    this.fd = state.fd;
    this.headFd = state.headFd;
    this.size = state.size;
    this.seq = state.end.seq;
    this.lastHash = state.end.hash;
  }

  /**
   * Opens (or creates) the log, repairs a torn tail, checks its end against the head file, and
   * writes the `started` record (after a `repaired` one when it repaired).
   * @throws ToolHostError('AUDIT_LOG_IN_USE' | 'AUDIT_LOG_DAMAGED' | 'AUDIT_LOG_FAILED')
   */
  static async open(options: FileAuditSinkOptions): Promise<FileAuditSink> {
    const { path } = options;
    try {
      fs.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new ToolHostError('AUDIT_LOG_FAILED', `Cannot create the audit log's folder ${dirname(path)}: ${(error as Error).message}`, { cause: error });
    }
    acquireLock(lockFileOf(path), path);
    let fd: number | undefined;
    let headFd: number | undefined;
    try {
      fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND, FILE_MODE);
      let size = fs.fstatSync(fd).size;
      const torn = tornBytesOf(fd, size);
      let repaired: AuditFields | undefined;
      if (torn > 0) {
        const dropped = Buffer.allocUnsafe(Math.min(torn, MAX_LINE_BYTES));
        fs.readSync(fd, dropped, 0, dropped.length, size - torn);
        fs.ftruncateSync(fd, size - torn);
        fs.fdatasyncSync(fd);
        size -= torn;
        repaired = { type: 'audit', event: 'repaired', file: path, torn_bytes: torn, torn_sha256: sha256Hex(dropped) };
      }
      const end = chainEnd(path, fd, size);
      const head = readHead(headFileOf(path));
      if (head !== undefined && 'problem' in head) throw new ToolHostError('AUDIT_LOG_DAMAGED', `${head.problem}; run \`toolhost audit verify --path ${path}\`.`);
      // The head is written before the first record: a log with records and no head had it removed (which would hide a cut tail).
      if (head === undefined && end.seq > 0) {
        throw new ToolHostError('AUDIT_LOG_DAMAGED', `The audit log ${path} has records but its head file ${headFileOf(path)} is missing, so a cut tail could not be detected. Run \`toolhost audit verify --path ${path}\`, and move the log and its rotated files aside to start a new chain.`);
      }
      if (head !== undefined && (head.seq > end.seq || (head.seq === end.seq && head.seq > 0 && head.hash !== end.hash))) {
        throw new ToolHostError(
          'AUDIT_LOG_DAMAGED',
          `The audit log ${path} ends at record ${end.seq} but its head file says record ${head.seq} was written (hash ${head.hash.slice(0, 12)}…): records were removed. Run \`toolhost audit verify --path ${path}\`, and move the log, its rotated files and its .head file aside to start a new chain.`,
        );
      }
      headFd = fs.openSync(headFileOf(path), fs.constants.O_RDWR | fs.constants.O_CREAT, FILE_MODE);
      const sink = new FileAuditSink(options, { fd, headFd, size, end });
      sink.writeHead({ seq: end.seq, hash: end.hash });
      fs.fdatasyncSync(headFd);
      if (repaired !== undefined) {
        options.logger.warn({ file: path, torn_bytes: torn }, 'audit log: removed a torn last line (a write cut by a crash)');
        void sink.append(repaired);
      }
      await sink.append(options.started);
      if (sink.failed) throw new ToolHostError('AUDIT_LOG_FAILED', `Cannot write the audit log ${path}; see the log above.`);
      return sink;
    } catch (error) {
      if (fd !== undefined) fs.closeSync(fd);
      if (headFd !== undefined) fs.closeSync(headFd);
      fs.rmSync(lockFileOf(path), { force: true });
      if (error instanceof ToolHostError) throw error;
      throw new ToolHostError('AUDIT_LOG_FAILED', `Cannot open the audit log ${path}: ${(error as Error).message}`, { cause: error });
    }
  }

  get writable(): boolean {
    return !this.failed && !this.closed;
  }

  append(fields: AuditFields): Promise<void> {
    if (this.failed || this.closed) return Promise.resolve();
    const sealed = sealRecord(this.seq + 1, { time: new Date().toISOString(), ...fields }, this.lastHash);
    const bytes = Buffer.from(sealed.line, 'utf8');
    try {
      if (this.size > 0 && this.size + bytes.length > this.maxBytes) this.rotate();
      let written = 0;
      // One write of the whole line; the loop only runs again after a short write (disk full, a signal).
      while (written < bytes.length) written += fs.writeSync(this.fd, bytes, written, bytes.length - written);
    } catch (error) {
      this.fail(error);
      return Promise.resolve();
    }
    this.size += bytes.length;
    this.seq = sealed.seq;
    this.lastHash = sealed.hash;
    switch (this.fsync) {
      case 'never':
        this.writeHead({ seq: this.seq, hash: this.lastHash });
        return Promise.resolve();
      case 'batch':
        this.unsynced += 1;
        if (this.unsynced >= BATCH_FSYNC_RECORDS) this.sync();
        else this.batchTimer ??= setTimeout(() => this.sync(), BATCH_FSYNC_MS).unref();
        return Promise.resolve();
      case 'always':
        return new Promise((resolve) => {
          this.waiters.push(resolve);
          this.sync();
        });
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.append({ type: 'audit', event: 'stopped' });
    this.closed = true;
    clearTimeout(this.batchTimer);
    try {
      if (!this.failed) {
        fs.fdatasyncSync(this.fd);
        this.writeHead({ seq: this.seq, hash: this.lastHash });
        fs.fdatasyncSync(this.headFd);
      }
    } catch (error) {
      this.logger.error({ file: this.path, error: (error as Error).message }, 'audit log: final sync failed');
    }
    for (const resolve of this.waiters.splice(0)) resolve();
    closeQuietly(this.fd);
    closeQuietly(this.headFd);
    fs.rmSync(lockFileOf(this.path), { force: true });
  }

  /** One fdatasync for everything written so far; then the head, then whoever waited. Concurrent requests share the next one. */
  private sync(): void {
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    if (this.syncing || this.closed) return;
    this.syncing = true;
    this.unsynced = 0;
    const waiters = this.waiters;
    this.waiters = [];
    const generation = this.generation;
    const head = { seq: this.seq, hash: this.lastHash };
    fs.fdatasync(this.fd, (error) => {
      this.syncing = false;
      // A sync of a file rotated away meanwhile: rotation synced it itself.
      if (error && generation === this.generation && !this.closed) this.fail(error);
      else if (!this.closed) this.writeHead(head, true);
      for (const resolve of waiters) resolve();
      if (this.waiters.length > 0 || this.unsynced >= BATCH_FSYNC_RECORDS) this.sync();
      else if (this.unsynced > 0) this.batchTimer ??= setTimeout(() => this.sync(), BATCH_FSYNC_MS).unref();
    });
  }

  /** Rewrites the head block in place (one positioned write); `durable` also fdatasyncs it, in the background. */
  private writeHead(head: AuditHead, durable = false): void {
    try {
      const block = encodeHead(head);
      fs.writeSync(this.headFd, block, 0, block.length, 0);
    } catch (error) {
      this.fail(error);
      return;
    }
    if (!durable || this.headSyncing) return;
    this.headSyncing = true;
    fs.fdatasync(this.headFd, (error) => {
      this.headSyncing = false;
      if (error && !this.closed) this.fail(error);
    });
  }

  /** Closes the full file under its next number and starts a new one; the chain goes on across. */
  private rotate(): void {
    fs.fdatasyncSync(this.fd);
    fs.closeSync(this.fd);
    this.generation += 1;
    const next = (rotatedFiles(this.path).at(-1)?.number ?? 0) + 1;
    const rotated = `${this.path}.${next}`;
    fs.renameSync(this.path, rotated);
    this.fd = fs.openSync(this.path, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND | fs.constants.O_EXCL, FILE_MODE);
    fsyncDirectory(this.path);
    this.size = 0;
    this.logger.info({ file: this.path, rotated_to: rotated }, 'audit log rotated');
  }

  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.logger.error({ file: this.path, error: error instanceof Error ? error.message : String(error) }, 'audit log: a record could not be written; calls are refused until the daemon is restarted');
  }
}
