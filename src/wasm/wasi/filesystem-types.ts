/**
 * wasi:filesystem/types (0.2.0–0.2.3): the `descriptor` and `directory-entry-stream` resources over
 * node:fs sync calls. Errors are thrown as WASI `error-code` strings (the glue maps a thrown
 * non-Error value to `result::err`).
 *
 * Every descriptor holds a host fd: a directory descriptor the fd of its directory (opened when the
 * preopen is handed out or when the guest opens it), so a later rename of its path cannot redirect
 * it; a file descriptor the fd of its file. Every `*-at` operation resolves its path beneath the
 * directory descriptor's fd (filesystem-path.ts, src/confined-fs/), never through a host path string.
 * Writing or setting times through a hard-linked file is refused unless the guest made its links
 * (filesystem-links.ts). Read-only grants refuse every mutation with `read-only`. The fds of one call
 * (preopens included) are capped by `CallContext.maxOpenFds`; each is closed when the guest drops its
 * descriptor or at `WasiHost.dispose()`.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type { BigIntStats, Dirent, Stats } from 'node:fs';
import {
  linkBeneath,
  mkdirBeneath,
  readlinkBeneath,
  renameBeneath,
  rmdirBeneath,
  setTimesBeneath,
  statBeneath,
  symlinkBeneath,
  unlinkBeneath,
  withLookup,
} from '../../confined-fs/entry-beneath.ts';
import { entryPath, openEntry } from '../../confined-fs/open-beneath.ts';
import type { CallContext } from './call-context.ts';
import { type FsErrorCode, toFsError } from './filesystem-errors.ts';
import { guestLinksOf } from './filesystem-links.ts';
import { checkGuestPath, fsCall, type Grant } from './filesystem-path.ts';
import { IoError, lastOperationFailed, STREAM_CLOSED } from './io-error.ts';
import { InputStream, MAX_CHUNK, OutputStream } from './io-streams.ts';

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_DIRECTORY } = fs.constants;

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

const DISPOSE: symbol = (Symbol as { dispose?: symbol }).dispose ?? Symbol.for('dispose');

/** A host fd shared by descriptors (a grant's root, see filesystem-preopens.ts); -1 once closed. */
export interface SharedFd {
  readonly fd: number;
}

export class Descriptor {
  readonly grant: Grant;
  /** Directories between the grant root and this descriptor when it was opened (0 for a preopen). */
  readonly depth: number;
  readonly type: DescriptorType;
  readonly flags: DescriptorFlags;
  readonly ctx: CallContext;
  private readonly isDir: boolean;
  /** The fd this descriptor owns (closed with it), or a shared one it only borrows. */
  private owned: number;
  private readonly shared: SharedFd | undefined;
  private dropped = false;

  constructor(grant: Grant, depth: number, fd: number | SharedFd, type: DescriptorType, flags: DescriptorFlags, ctx: CallContext) {
    this.grant = grant;
    this.depth = depth;
    this.type = type;
    this.flags = flags;
    this.ctx = ctx;
    this.isDir = type === 'directory';
    this.owned = typeof fd === 'number' ? fd : -1;
    this.shared = typeof fd === 'number' ? undefined : fd;
  }

  /** Host fd of the file or directory; -1 after close. */
  get fd(): number {
    if (this.dropped) return -1;
    return this.shared === undefined ? this.owned : this.shared.fd;
  }

  /**
   * A root descriptor of a grant over the grant's shared root fd. The preview1 adapter asks for the
   * preopens repeatedly and drops the handles it got, so each call gets new descriptors that only
   * borrow the fd; the fd is closed with the call.
   */
  static forGrant(grant: Grant, root: SharedFd, ctx: CallContext): Descriptor {
    return new Descriptor(grant, 0, root, 'directory', { read: true, mutateDirectory: grant.mode === 'rw' }, ctx);
  }

  /** The fd of this directory descriptor. */
  private dir(): number {
    if (!this.isDir) throw 'not-directory';
    if (this.fd < 0) throw 'bad-descriptor';
    return this.fd;
  }

  private file(): number {
    if (this.isDir) throw 'is-directory';
    if (this.fd < 0) throw 'bad-descriptor';
    return this.fd;
  }

  private held(): number {
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
    const fd = this.held();
    return fsCall(() => fs.fstatSync(fd, { bigint: true }));
  }

  /** The host stat of this descriptor (for the preview1 host, which reports inode and device ids). */
  statHost(): BigIntStats {
    return this.statBig();
  }

  /** The host stat of `path` beneath this directory, resolved as `statAt` does. */
  statHostAt(pathFlags: PathFlags | undefined, path: string): BigIntStats {
    const fd = this.dir();
    checkGuestPath(path);
    return fsCall(() => statBeneath(fd, path, { followFinal: !!pathFlags?.symlinkFollow, bigint: true }));
  }

  /**
   * Reads into `target` at file `offset` (the preview1 host reads straight into guest memory); the
   * bytes read, 0 at the end of the file. Checked as `read` is.
   */
  readInto(target: Uint8Array, offset: number): number {
    const fd = this.readableFd();
    if (target.byteLength === 0) return 0;
    return fsCall(() => fs.readSync(fd, target, 0, Math.min(target.byteLength, MAX_READ), offset));
  }

  /** Whether writing (or setting times) through a file with this stat is allowed (hard links). */
  private readonly hardLinkAllowed = (stat: Stats): boolean => guestLinksOf(this.ctx).allows(stat);

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
    const fd = this.held();
    const st = fsCall(() => fs.fstatSync(fd));
    if (st.isFile() && st.nlink > 1 && !this.hardLinkAllowed(st)) throw 'too-many-links';
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
    const fd = this.dir();
    // `/proc/self/fd/<fd>` is opened as the directory the fd holds, wherever it was moved.
    return new DirectoryEntryStream(fsCall(() => fs.readdirSync(entryPath(fd), { withFileTypes: true })));
  }

  createDirectoryAt(path: string): void {
    const fd = this.dir();
    this.mutable();
    checkGuestPath(path);
    fsCall(() => mkdirBeneath(fd, path, 0o777));
  }

  stat(): DescriptorStat {
    return toStat(this.statBig());
  }

  statAt(pathFlags: PathFlags | undefined, path: string): DescriptorStat {
    const fd = this.dir();
    checkGuestPath(path);
    return toStat(fsCall(() => statBeneath(fd, path, { followFinal: !!pathFlags?.symlinkFollow, bigint: true })));
  }

  setTimesAt(pathFlags: PathFlags | undefined, path: string, atime: NewTimestamp, mtime: NewTimestamp): void {
    const fd = this.dir();
    this.mutable();
    checkGuestPath(path);
    const times = (st: Stats): [number, number] => [timeArg(atime, st.atimeMs / 1000), timeArg(mtime, st.mtimeMs / 1000)];
    fsCall(() => setTimesBeneath(fd, path, times, { followFinal: !!pathFlags?.symlinkFollow, allowHardLinks: this.hardLinkAllowed }));
  }

  linkAt(oldPathFlags: PathFlags | undefined, oldPath: string, newDescriptor: Descriptor, newPath: string): void {
    const fd = this.dir();
    const newFd = newDescriptor.dir();
    // A hard link from a read-only grant would make its file writable through the other grant.
    this.mutable();
    newDescriptor.mutable();
    checkGuestPath(oldPath);
    checkGuestPath(newPath);
    const linked = fsCall(() => linkBeneath(fd, oldPath, newFd, newPath, { followFinal: !!oldPathFlags?.symlinkFollow }));
    guestLinksOf(this.ctx).record(linked);
  }

  openAt(pathFlags: PathFlags | undefined, path: string, openFlags: OpenFlags | undefined, flags: DescriptorFlags | undefined): Descriptor {
    const fd = this.dir();
    const create = !!openFlags?.create;
    const exclusive = !!openFlags?.exclusive;
    const truncate = !!openFlags?.truncate;
    const directory = !!openFlags?.directory;
    const write = !!flags?.write;
    const read = !!flags?.read;
    if (this.grant.mode !== 'rw' && (write || create || truncate || flags?.mutateDirectory)) throw 'read-only';
    if (directory && (write || truncate)) throw 'is-directory';
    checkGuestPath(path);
    if (this.ctx.openFiles.size >= this.ctx.maxOpenFds) throw 'insufficient-memory';
    let oflags = write ? (read ? O_RDWR : O_WRONLY) : O_RDONLY;
    // A directory is never created by open: an existing one is opened, a missing one is `invalid`.
    if (directory) oflags |= O_DIRECTORY;
    else if (create) oflags |= exclusive ? O_CREAT | O_EXCL : O_CREAT;
    if (truncate) oflags |= O_TRUNC;
    const openVia = (followFinal: boolean) =>
      withLookup(fd, path, { followFinal }, (entry) => {
        const opened = openEntry(entry.parentFd, entry.name, oflags, { allowHardLinks: this.hardLinkAllowed });
        return { opened, depth: this.depth + entry.depth + (entry.name === '' ? 0 : 1) };
      });
    const { opened, depth } = fsCall(() => {
      try {
        try {
          // Most final entries are no symlink: open without following (`O_NOFOLLOW` gives ELOOP for
          // a symlink, ENOTDIR with `O_DIRECTORY`), and expand it beneath the directory only then.
          return openVia(false);
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          if (pathFlags?.symlinkFollow && (code === 'ELOOP' || code === 'ENOTDIR')) return openVia(true);
          throw error;
        }
      } catch (error) {
        if (directory && create && (error as { code?: unknown }).code === 'ENOENT') throw 'invalid';
        throw error;
      }
    });
    const type = typeOf(opened.stat);
    if (directory && create && exclusive) {
      fs.closeSync(opened.fd);
      throw 'exist';
    }
    const descriptorFlags: DescriptorFlags =
      type === 'directory'
        ? { read, mutateDirectory: this.grant.mode === 'rw' }
        : {
            read: read || !write,
            write,
            fileIntegritySync: !!flags?.fileIntegritySync,
            dataIntegritySync: !!flags?.dataIntegritySync,
            requestedWriteSync: !!flags?.requestedWriteSync,
            mutateDirectory: false,
          };
    const descriptor = new Descriptor(this.grant, depth, opened.fd, type, descriptorFlags, this.ctx);
    this.ctx.openFiles.add(descriptor);
    return descriptor;
  }

  readlinkAt(path: string): string {
    const fd = this.dir();
    checkGuestPath(path);
    return fsCall(() => readlinkBeneath(fd, path));
  }

  removeDirectoryAt(path: string): void {
    const fd = this.dir();
    this.mutable();
    checkGuestPath(path);
    fsCall(() => rmdirBeneath(fd, path));
  }

  renameAt(oldPath: string, newDescriptor: Descriptor, newPath: string): void {
    const fd = this.dir();
    const newFd = newDescriptor.dir();
    this.mutable();
    newDescriptor.mutable();
    checkGuestPath(oldPath);
    checkGuestPath(newPath);
    fsCall(() => renameBeneath(fd, oldPath, newFd, newPath));
  }

  symlinkAt(oldPath: string, newPath: string): void {
    const fd = this.dir();
    this.mutable();
    checkGuestPath(newPath);
    // Links stay inside the grant, counted from its root (`this.depth` directories above `fd`).
    fsCall(() => symlinkBeneath(fd, oldPath, newPath, { anchorDepth: this.depth }));
  }

  unlinkFileAt(path: string): void {
    const fd = this.dir();
    this.mutable();
    checkGuestPath(path);
    fsCall(() => unlinkBeneath(fd, path));
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
    const fd = this.dir();
    checkGuestPath(path);
    return hashOf(fsCall(() => statBeneath(fd, path, { followFinal: !!pathFlags?.symlinkFollow, bigint: true })));
  }

  /** Closes the host fd (the glue calls this when the guest drops the descriptor); a borrowed fd stays open. */
  close(): void {
    if (this.dropped) return;
    this.dropped = true;
    const fd = this.owned;
    if (fd < 0) return;
    this.owned = -1;
    this.ctx.openFiles.delete(this);
    try {
      fs.closeSync(fd);
    } catch {
      // already closed; nothing to do
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
