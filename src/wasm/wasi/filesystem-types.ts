/**
 * wasi:filesystem/types (0.2.0–0.2.3): the `descriptor` and `directory-entry-stream` resources over
 * node:fs sync calls. Errors are thrown as WASI `error-code` strings (the glue maps a thrown
 * non-Error value to `result::err`).
 *
 * Directory descriptors hold no host fd: every operation resolves its path from the grant's real
 * root (filesystem-path.ts). File descriptors hold an fd opened with `O_NOFOLLOW` and checked to lie
 * inside the grant; it is closed when the guest drops the descriptor or at `WasiHost.dispose()`.
 * Read-only grants refuse every mutation with `read-only`.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type { BigIntStats, Dirent, Stats } from 'node:fs';
import type { CallContext } from './call-context.ts';
import { type FsErrorCode, toFsError } from './filesystem-errors.ts';
import {
  checkEntryName,
  fdInsideRoot,
  type Grant,
  hostPathOf,
  lstatOrNull,
  resolvePath,
  symlinkTargetInside,
} from './filesystem-path.ts';
import { IoError, lastOperationFailed, STREAM_CLOSED } from './io-error.ts';
import { InputStream, MAX_CHUNK, OutputStream } from './io-streams.ts';

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

export type DescriptorType =
  | 'unknown'
  | 'block-device'
  | 'character-device'
  | 'directory'
  | 'fifo'
  | 'symbolic-link'
  | 'regular-file'
  | 'socket';

export interface DescriptorFlags {
  read?: boolean;
  write?: boolean;
  fileIntegritySync?: boolean;
  dataIntegritySync?: boolean;
  requestedWriteSync?: boolean;
  mutateDirectory?: boolean;
}

export interface PathFlags {
  symlinkFollow?: boolean;
}

export interface OpenFlags {
  create?: boolean;
  directory?: boolean;
  exclusive?: boolean;
  truncate?: boolean;
}

export interface Datetime {
  seconds: bigint;
  nanoseconds: number;
}

export type NewTimestamp = { tag: 'no-change' } | { tag: 'now' } | { tag: 'timestamp'; val: Datetime };

export interface DescriptorStat {
  type: DescriptorType;
  linkCount: bigint;
  size: bigint;
  dataAccessTimestamp: Datetime | undefined;
  dataModificationTimestamp: Datetime | undefined;
  statusChangeTimestamp: Datetime | undefined;
}

export interface DirectoryEntry {
  type: DescriptorType;
  name: string;
}

export interface MetadataHashValue {
  lower: bigint;
  upper: bigint;
}

/** Largest single `descriptor.read`. */
const MAX_READ = 4 * MAX_CHUNK;

function typeOf(s: Stats | BigIntStats | Dirent): DescriptorType {
  if (s.isFile()) return 'regular-file';
  if (s.isDirectory()) return 'directory';
  if (s.isSymbolicLink()) return 'symbolic-link';
  if (s.isCharacterDevice()) return 'character-device';
  if (s.isBlockDevice()) return 'block-device';
  if (s.isFIFO()) return 'fifo';
  if (s.isSocket()) return 'socket';
  return 'unknown';
}

const NS = 1_000_000_000n;
function datetime(ns: bigint): Datetime {
  return { seconds: ns / NS, nanoseconds: Number(ns % NS) };
}

function toStat(s: BigIntStats): DescriptorStat {
  return {
    type: typeOf(s),
    linkCount: s.nlink,
    size: s.size,
    dataAccessTimestamp: datetime(s.atimeNs),
    dataModificationTimestamp: datetime(s.mtimeNs),
    statusChangeTimestamp: datetime(s.ctimeNs),
  };
}

function hashOf(s: BigIntStats): MetadataHashValue {
  const digest = createHash('sha256')
    .update(`${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}`)
    .digest();
  return { lower: digest.readBigUInt64LE(0), upper: digest.readBigUInt64LE(8) };
}

/** Seconds (fractional) for node's utimes family. */
function timeArg(ts: NewTimestamp, current: number): number {
  switch (ts.tag) {
    case 'no-change':
      return current;
    case 'now':
      return Date.now() / 1000;
    case 'timestamp':
      return Number(ts.val.seconds) + ts.val.nanoseconds / 1e9;
    default:
      throw 'invalid';
  }
}

function fsCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw toFsError(error);
  }
}

const DISPOSE: symbol = (Symbol as { dispose?: symbol }).dispose ?? Symbol.for('dispose');

export class Descriptor {
  readonly grant: Grant;
  /** Path components from the grant root (symlink-free). */
  readonly rel: readonly string[];
  /** Host fd of a file; -1 for a directory and after close. */
  fd: number;
  readonly type: DescriptorType;
  readonly flags: DescriptorFlags;
  readonly ctx: CallContext;
  private readonly isDir: boolean;

  constructor(grant: Grant, rel: readonly string[], fd: number, type: DescriptorType, flags: DescriptorFlags, ctx: CallContext) {
    this.grant = grant;
    this.rel = rel;
    this.fd = fd;
    this.type = type;
    this.flags = flags;
    this.ctx = ctx;
    this.isDir = type === 'directory';
  }

  /** The root descriptor of a grant. */
  static forGrant(grant: Grant, ctx: CallContext): Descriptor {
    return new Descriptor(grant, [], -1, 'directory', { read: true, mutateDirectory: grant.mode === 'rw' }, ctx);
  }

  get hostPath(): string {
    return hostPathOf(this.grant, this.rel);
  }

  private dir(): void {
    if (!this.isDir) throw 'not-directory';
  }

  private file(): number {
    if (this.isDir) throw 'is-directory';
    if (this.fd < 0) throw 'bad-descriptor';
    return this.fd;
  }

  private mutable(): void {
    if (this.grant.mode !== 'rw') throw 'read-only';
  }

  private writableFd(): number {
    const fd = this.file();
    if (this.grant.mode !== 'rw') throw 'read-only';
    if (!this.flags.write) throw 'bad-descriptor';
    return fd;
  }

  private readableFd(): number {
    const fd = this.file();
    if (!this.flags.read) throw 'bad-descriptor';
    return fd;
  }

  private statBig(): BigIntStats {
    if (this.isDir) return fsCall(() => fs.lstatSync(this.hostPath, { bigint: true }));
    const fd = this.file();
    return fsCall(() => fs.fstatSync(fd, { bigint: true }));
  }

  private resolve(path: string, follow: boolean) {
    return resolvePath(this.grant, this.rel, path, follow);
  }

  readViaStream(offset: bigint): InputStream {
    this.readableFd();
    return new FileInputStream(this, Number(offset));
  }

  writeViaStream(offset: bigint): OutputStream {
    this.writableFd();
    return new FileOutputStream(this, Number(offset), false);
  }

  appendViaStream(): OutputStream {
    this.writableFd();
    return new FileOutputStream(this, 0, true);
  }

  advise(_offset: bigint, _length: bigint, _advice: string): void {
    this.file();
  }

  syncData(): void {
    if (this.isDir) return;
    const fd = this.file();
    fsCall(() => fs.fdatasyncSync(fd));
  }

  sync(): void {
    if (this.isDir) return;
    const fd = this.file();
    fsCall(() => fs.fsyncSync(fd));
  }

  getFlags(): DescriptorFlags {
    return this.flags;
  }

  getType(): DescriptorType {
    return this.type;
  }

  setSize(size: bigint): void {
    const fd = this.writableFd();
    fsCall(() => fs.ftruncateSync(fd, Number(size)));
  }

  setTimes(atime: NewTimestamp, mtime: NewTimestamp): void {
    this.mutable();
    if (this.isDir) {
      const host = this.hostPath;
      const st = fsCall(() => fs.lstatSync(host));
      const a = timeArg(atime, st.atimeMs / 1000);
      const m = timeArg(mtime, st.mtimeMs / 1000);
      fsCall(() => fs.lutimesSync(host, a, m));
      return;
    }
    const fd = this.file();
    const st = fsCall(() => fs.fstatSync(fd));
    const a = timeArg(atime, st.atimeMs / 1000);
    const m = timeArg(mtime, st.mtimeMs / 1000);
    fsCall(() => fs.futimesSync(fd, a, m));
  }

  read(length: bigint, offset: bigint): [Uint8Array, boolean] {
    const fd = this.readableFd();
    const want = length > BigInt(MAX_READ) ? MAX_READ : Number(length);
    if (want === 0) return [new Uint8Array(0), false];
    const buf = Buffer.allocUnsafe(want);
    const n = fsCall(() => fs.readSync(fd, buf, 0, want, Number(offset)));
    return [buf.subarray(0, n), n === 0];
  }

  write(buffer: Uint8Array, offset: bigint): bigint {
    const fd = this.writableFd();
    const pos = Number(offset);
    let done = 0;
    while (done < buffer.byteLength) {
      const from = done;
      done += fsCall(() => fs.writeSync(fd, buffer, from, buffer.byteLength - from, pos + from));
    }
    return BigInt(done);
  }

  readDirectory(): DirectoryEntryStream {
    this.dir();
    const host = this.hostPath;
    return new DirectoryEntryStream(fsCall(() => fs.readdirSync(host, { withFileTypes: true })));
  }

  createDirectoryAt(path: string): void {
    this.dir();
    this.mutable();
    checkEntryName(path);
    const r = this.resolve(path, false);
    fsCall(() => fs.mkdirSync(r.host, 0o777));
  }

  stat(): DescriptorStat {
    return toStat(this.statBig());
  }

  statAt(pathFlags: PathFlags | undefined, path: string): DescriptorStat {
    this.dir();
    const r = this.resolve(path, !!pathFlags?.symlinkFollow);
    if (r.stat === null) throw 'no-entry';
    return toStat(fsCall(() => fs.lstatSync(r.host, { bigint: true })));
  }

  setTimesAt(pathFlags: PathFlags | undefined, path: string, atime: NewTimestamp, mtime: NewTimestamp): void {
    this.dir();
    this.mutable();
    const r = this.resolve(path, !!pathFlags?.symlinkFollow);
    const st = fsCall(() => fs.lstatSync(r.host));
    const a = timeArg(atime, st.atimeMs / 1000);
    const m = timeArg(mtime, st.mtimeMs / 1000);
    fsCall(() => fs.lutimesSync(r.host, a, m));
  }

  linkAt(oldPathFlags: PathFlags | undefined, oldPath: string, newDescriptor: Descriptor, newPath: string): void {
    this.dir();
    newDescriptor.dir();
    // A hard link from a read-only grant would make its file writable through the other grant.
    this.mutable();
    newDescriptor.mutable();
    checkEntryName(newPath);
    const from = this.resolve(oldPath, !!oldPathFlags?.symlinkFollow);
    const to = newDescriptor.resolve(newPath, false);
    fsCall(() => fs.linkSync(from.host, to.host));
  }

  openAt(pathFlags: PathFlags | undefined, path: string, openFlags: OpenFlags | undefined, flags: DescriptorFlags | undefined): Descriptor {
    this.dir();
    const create = !!openFlags?.create;
    const exclusive = !!openFlags?.exclusive;
    const truncate = !!openFlags?.truncate;
    const directory = !!openFlags?.directory;
    const write = !!flags?.write;
    const read = !!flags?.read;
    if (this.grant.mode !== 'rw' && (write || create || truncate || flags?.mutateDirectory)) throw 'read-only';
    if (directory && (write || truncate)) throw 'is-directory';
    const r = this.resolve(path, !!pathFlags?.symlinkFollow);
    const st = r.stat === undefined ? lstatOrNull(r.host) : r.stat;
    if (st !== null) {
      if (create && exclusive) throw 'exist';
      if (st.isSymbolicLink()) throw 'loop';
      if (st.isDirectory()) {
        if (write || truncate) throw 'is-directory';
        return new Descriptor(this.grant, r.comps, -1, 'directory', { read, mutateDirectory: this.grant.mode === 'rw' }, this.ctx);
      }
      if (directory) throw 'not-directory';
    } else {
      if (!create) throw 'no-entry';
      if (directory) throw 'invalid';
    }
    if (this.ctx.openFiles.size >= this.ctx.maxOpenFds) throw 'insufficient-memory';
    let oflags = O_NOFOLLOW | O_NONBLOCK | (write ? (read ? O_RDWR : O_WRONLY) : O_RDONLY);
    if (create) oflags |= O_CREAT;
    if (exclusive) oflags |= O_EXCL;
    if (truncate) oflags |= O_TRUNC;
    const fd = fsCall(() => fs.openSync(r.host, oflags, 0o666));
    let type: DescriptorType;
    try {
      if (!fdInsideRoot(fd, this.grant.root)) throw 'not-permitted';
      type = typeOf(fsCall(() => fs.fstatSync(fd)));
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    if (type === 'directory') {
      // Swapped for a directory after the lstat above: hand out a directory descriptor.
      fs.closeSync(fd);
      return new Descriptor(this.grant, r.comps, -1, 'directory', { read, mutateDirectory: this.grant.mode === 'rw' }, this.ctx);
    }
    const fileFlags: DescriptorFlags = {
      read: read || !write,
      write,
      fileIntegritySync: !!flags?.fileIntegritySync,
      dataIntegritySync: !!flags?.dataIntegritySync,
      requestedWriteSync: !!flags?.requestedWriteSync,
      mutateDirectory: false,
    };
    const file = new Descriptor(this.grant, r.comps, fd, type, fileFlags, this.ctx);
    this.ctx.openFiles.add(file);
    return file;
  }

  readlinkAt(path: string): string {
    this.dir();
    const r = this.resolve(path, false);
    return fsCall(() => fs.readlinkSync(r.host));
  }

  removeDirectoryAt(path: string): void {
    this.dir();
    this.mutable();
    checkEntryName(path);
    const r = this.resolve(path, false);
    fsCall(() => fs.rmdirSync(r.host));
  }

  renameAt(oldPath: string, newDescriptor: Descriptor, newPath: string): void {
    this.dir();
    newDescriptor.dir();
    this.mutable();
    newDescriptor.mutable();
    checkEntryName(oldPath);
    checkEntryName(newPath);
    const from = this.resolve(oldPath, false);
    const to = newDescriptor.resolve(newPath, false);
    fsCall(() => fs.renameSync(from.host, to.host));
  }

  symlinkAt(oldPath: string, newPath: string): void {
    this.dir();
    this.mutable();
    checkEntryName(newPath);
    if (oldPath.length === 0) throw 'no-entry';
    if (oldPath.includes('\0')) throw 'invalid';
    const r = this.resolve(newPath, false);
    if (!symlinkTargetInside(r.comps.slice(0, -1), oldPath)) throw 'not-permitted';
    fsCall(() => fs.symlinkSync(oldPath, r.host));
  }

  unlinkFileAt(path: string): void {
    this.dir();
    this.mutable();
    checkEntryName(path);
    const r = this.resolve(path, false);
    fsCall(() => fs.unlinkSync(r.host));
  }

  isSameObject(other: Descriptor): boolean {
    if (!(other instanceof Descriptor)) return false;
    if (other === this) return true;
    const a = this.statBig();
    const b = other.statBig();
    return a.dev === b.dev && a.ino === b.ino;
  }

  metadataHash(): MetadataHashValue {
    return hashOf(this.statBig());
  }

  metadataHashAt(pathFlags: PathFlags | undefined, path: string): MetadataHashValue {
    this.dir();
    const r = this.resolve(path, !!pathFlags?.symlinkFollow);
    if (r.stat === null) throw 'no-entry';
    return hashOf(fsCall(() => fs.lstatSync(r.host, { bigint: true })));
  }

  /** Closes the host fd (the glue calls this when the guest drops the descriptor). */
  close(): void {
    const fd = this.fd;
    if (fd < 0) return;
    this.fd = -1;
    this.ctx.openFiles.delete(this);
    try {
      fs.closeSync(fd);
    } catch {
      // already closed (e.g. by dispose); nothing to do
    }
  }
}

// The glue calls `[Symbol.dispose]` when the guest drops an owned handle.
Object.defineProperty(Descriptor.prototype, DISPOSE, {
  value(this: Descriptor) {
    this.close();
  },
});

export class DirectoryEntryStream {
  private readonly entries: Dirent[];
  private index = 0;

  constructor(entries: Dirent[]) {
    this.entries = entries;
  }

  readDirectoryEntry(): DirectoryEntry | undefined {
    const entry = this.entries[this.index];
    if (entry === undefined) return undefined;
    this.index++;
    return { type: typeOf(entry), name: entry.name };
  }
}

function streamFailure(error: unknown): unknown {
  const code = toFsError(error);
  if (typeof code !== 'string') return code;
  return lastOperationFailed(`filesystem: ${code}`, code as FsErrorCode);
}

export class FileInputStream extends InputStream {
  private readonly desc: Descriptor;
  private pos: number;

  constructor(desc: Descriptor, pos: number) {
    super();
    this.desc = desc;
    this.pos = pos;
  }

  protected override readChunk(max: number): Uint8Array {
    const fd = this.desc.fd;
    if (fd < 0) throw STREAM_CLOSED;
    const buf = Buffer.allocUnsafe(max);
    let n: number;
    try {
      n = fs.readSync(fd, buf, 0, max, this.pos);
    } catch (error) {
      throw streamFailure(error);
    }
    if (n === 0) throw STREAM_CLOSED;
    this.pos += n;
    return buf.subarray(0, n);
  }
}

export class FileOutputStream extends OutputStream {
  private readonly desc: Descriptor;
  private pos: number;
  private readonly append: boolean;

  constructor(desc: Descriptor, pos: number, append: boolean) {
    super();
    this.desc = desc;
    this.pos = pos;
    this.append = append;
  }

  protected override writeBytes(bytes: Uint8Array): void {
    const fd = this.desc.fd;
    if (fd < 0) throw STREAM_CLOSED;
    try {
      if (this.append) this.pos = fs.fstatSync(fd).size;
      let done = 0;
      while (done < bytes.byteLength) {
        done += fs.writeSync(fd, bytes, done, bytes.byteLength - done, this.pos + done);
      }
      this.pos += done;
    } catch (error) {
      throw streamFailure(error);
    }
  }
}

function filesystemErrorCode(error: unknown): FsErrorCode | undefined {
  return error instanceof IoError ? error.fsCode : undefined;
}

export const filesystemTypesImports = Object.freeze({ Descriptor, DirectoryEntryStream, filesystemErrorCode });
