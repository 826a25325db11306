/**
 * The fd_* functions. Files and directories are descriptors of the confined filesystem host
 * (wasi/filesystem-types.ts): every check it makes (read-only grants, write flags, hard links, the fd
 * cap) applies unchanged. Reads go straight into guest memory; writes to stdout/stderr go to the
 * call's capped capture streams (bytes past the cap are counted and dropped, `truncated` is set).
 * stdin, stdout and stderr are streams: not seekable (`SPIPE`), file type `unknown` (not a terminal).
 */
import type { NewTimestamp } from '../wasi/filesystem-types.ts';
import { ERRNO } from './errno.ts';
import { DirectoryFd, type FdEntry, FileFd } from './fd-table.ts';
import {
  DIRECTORY_INHERITING_RIGHTS,
  DIRECTORY_RIGHTS,
  encodeDirent,
  FDFLAGS,
  FILETYPE,
  fileRights,
  filetypeOfDescriptor,
  inodeOf,
  RIGHTS,
  writeFdstat,
  writeFilestat,
  writeStreamFilestat,
} from './filestat.ts';
import { utf8 } from './memory.ts';
import { hostFunction, type ImportFunctions, type Preview1State } from './state.ts';

const WHENCE_SET = 0;
const WHENCE_CUR = 1;
const WHENCE_END = 2;

const FSTFLAGS = Object.freeze({ ATIM: 1, ATIM_NOW: 2, MTIM: 4, MTIM_NOW: 8 });

const NS = 1_000_000_000n;

/** A preview1 (`timestamp`, `fstflags`) pair as a wasi:filesystem new-timestamp. */
export function newTimestamp(time: bigint, flags: number, set: number, now: number): NewTimestamp {
  if (flags & set && flags & now) throw ERRNO.INVAL;
  if (flags & now) return { tag: 'now' };
  if (flags & set) return { tag: 'timestamp', val: { seconds: time / NS, nanoseconds: Number(time % NS) } };
  return { tag: 'no-change' };
}

export function timestampsOf(atime: bigint, mtime: bigint, flags: number): [NewTimestamp, NewTimestamp] {
  return [newTimestamp(atime, flags, FSTFLAGS.ATIM, FSTFLAGS.ATIM_NOW), newTimestamp(mtime, flags, FSTFLAGS.MTIM, FSTFLAGS.MTIM_NOW)];
}

function streamFiletype(_entry: FdEntry): number {
  return FILETYPE.UNKNOWN;
}

/** Reads into each buffer in turn from `read(target, offset-within-call)`; stops at a short read. */
function readVectored(buffers: readonly Uint8Array[], read: (target: Uint8Array, done: number) => number): number {
  let done = 0;
  for (const target of buffers) {
    if (target.byteLength === 0) continue;
    const n = read(target, done);
    done += n;
    if (n < target.byteLength) break;
  }
  return done;
}

function writeToFile(file: FileFd, buffers: readonly Uint8Array[], position: number): number {
  let done = 0;
  for (const source of buffers) {
    if (source.byteLength === 0) continue;
    done += Number(file.descriptor.write(source, BigInt(position + done)));
  }
  return done;
}

export function fdImports(state: Preview1State): ImportFunctions {
  const { memory, fds } = state;

  const readFrom = (fd: number, iovs: number, count: number, offset: number | undefined): number => {
    const entry = fds.get(fd);
    const buffers = memory.iovecs(iovs, count);
    if (entry.kind === 'stdin') {
      if (offset !== undefined) throw ERRNO.SPIPE;
      const read = readVectored(buffers, (target) => {
        let chunk: Uint8Array;
        try {
          chunk = entry.stream.read(BigInt(target.byteLength));
        } catch {
          return 0; // the end of stdin
        }
        target.set(chunk);
        return chunk.byteLength;
      });
      entry.remaining = Math.max(0, entry.remaining - read);
      return read;
    }
    if (entry.kind === 'directory') throw ERRNO.ISDIR;
    if (entry.kind !== 'file') throw ERRNO.BADF;
    const start = offset ?? entry.position;
    const read = readVectored(buffers, (target, done) => entry.descriptor.readInto(target, start + done));
    if (offset === undefined) entry.position += read;
    return read;
  };

  const writeTo = (fd: number, iovs: number, count: number, offset: number | undefined): number => {
    const entry = fds.get(fd);
    const buffers = memory.iovecs(iovs, count);
    if (entry.kind === 'stdout' || entry.kind === 'stderr') {
      if (offset !== undefined) throw ERRNO.SPIPE;
      let done = 0;
      for (const source of buffers) {
        if (source.byteLength === 0) continue;
        entry.stream.write(source);
        done += source.byteLength;
      }
      return done;
    }
    if (entry.kind === 'directory') throw ERRNO.ISDIR;
    if (entry.kind !== 'file') throw ERRNO.BADF;
    if (offset !== undefined) return writeToFile(entry, buffers, offset);
    if (entry.append) entry.position = Number(entry.descriptor.stat().size);
    const written = writeToFile(entry, buffers, entry.position);
    entry.position += written;
    return written;
  };

  return {
    fd_advise: hostFunction((fd: number, _offset: bigint, _length: bigint, advice: number) => {
      if (advice > 5) throw ERRNO.INVAL;
      fds.file(fd).descriptor.advise(0n, 0n, 'normal');
    }),
    fd_allocate: hostFunction((fd: number) => {
      fds.file(fd);
      throw ERRNO.NOTSUP;
    }),
    fd_close: hostFunction((fd: number) => fds.close(fd)),
    fd_datasync: hostFunction((fd: number) => {
      const entry = fds.get(fd);
      if (entry.kind !== 'file' && entry.kind !== 'directory') throw ERRNO.INVAL;
      entry.descriptor.syncData();
    }),
    fd_sync: hostFunction((fd: number) => {
      const entry = fds.get(fd);
      if (entry.kind !== 'file' && entry.kind !== 'directory') throw ERRNO.INVAL;
      entry.descriptor.sync();
    }),
    fd_fdstat_get: hostFunction((fd: number, pointer: number) => {
      const entry = fds.get(fd);
      switch (entry.kind) {
        case 'stdin':
          writeFdstat(memory, pointer, streamFiletype(entry), 0, RIGHTS.FD_READ | RIGHTS.POLL_FD_READWRITE, RIGHTS.FD_READ | RIGHTS.POLL_FD_READWRITE);
          return;
        case 'stdout':
        case 'stderr':
          writeFdstat(memory, pointer, streamFiletype(entry), 0, RIGHTS.FD_WRITE | RIGHTS.POLL_FD_READWRITE, RIGHTS.FD_WRITE | RIGHTS.POLL_FD_READWRITE);
          return;
        case 'directory':
          writeFdstat(memory, pointer, FILETYPE.DIRECTORY, 0, DIRECTORY_RIGHTS, DIRECTORY_INHERITING_RIGHTS);
          return;
        case 'file': {
          const { descriptor } = entry;
          const flags = descriptor.getFlags();
          let fdflags = 0;
          if (entry.append) fdflags |= FDFLAGS.APPEND;
          if (flags.dataIntegritySync) fdflags |= FDFLAGS.DSYNC;
          if (entry.nonblock) fdflags |= FDFLAGS.NONBLOCK;
          if (flags.requestedWriteSync) fdflags |= FDFLAGS.RSYNC;
          if (flags.fileIntegritySync) fdflags |= FDFLAGS.SYNC;
          const rights = fileRights(!!flags.read, !!flags.write);
          writeFdstat(memory, pointer, filetypeOfDescriptor(descriptor.getType()), fdflags, rights, rights);
          return;
        }
      }
    }),
    fd_fdstat_set_flags: hostFunction((fd: number, flags: number) => {
      if (flags & ~(FDFLAGS.APPEND | FDFLAGS.NONBLOCK)) throw ERRNO.INVAL;
      const entry = fds.get(fd);
      if (entry.kind !== 'file') return; // streams and directories never block here
      entry.append = (flags & FDFLAGS.APPEND) !== 0;
      entry.nonblock = (flags & FDFLAGS.NONBLOCK) !== 0;
    }),
    fd_fdstat_set_rights: hostFunction((fd: number) => {
      fds.get(fd);
      throw ERRNO.NOTSUP;
    }),
    fd_filestat_get: hostFunction((fd: number, pointer: number) => {
      const entry = fds.get(fd);
      if (entry.kind === 'file' || entry.kind === 'directory') writeFilestat(memory, pointer, entry.descriptor.statHost());
      else writeStreamFilestat(memory, pointer, streamFiletype(entry));
    }),
    fd_filestat_set_size: hostFunction((fd: number, size: bigint) => {
      fds.file(fd).descriptor.setSize(size);
    }),
    fd_filestat_set_times: hostFunction((fd: number, atime: bigint, mtime: bigint, flags: number) => {
      const entry = fds.get(fd);
      if (entry.kind !== 'file' && entry.kind !== 'directory') throw ERRNO.BADF;
      entry.descriptor.setTimes(...timestampsOf(atime, mtime, flags));
    }),
    fd_pread: hostFunction((fd: number, iovs: number, count: number, offset: bigint, readPointer: number) => {
      memory.setU32(readPointer, readFrom(fd, iovs, count, Number(offset)));
    }),
    fd_pwrite: hostFunction((fd: number, iovs: number, count: number, offset: bigint, writtenPointer: number) => {
      memory.setU32(writtenPointer, writeTo(fd, iovs, count, Number(offset)));
    }),
    fd_read: hostFunction((fd: number, iovs: number, count: number, readPointer: number) => {
      memory.setU32(readPointer, readFrom(fd, iovs, count, undefined));
    }),
    fd_write: hostFunction((fd: number, iovs: number, count: number, writtenPointer: number) => {
      memory.setU32(writtenPointer, writeTo(fd, iovs, count, undefined));
    }),
    fd_prestat_get: hostFunction((fd: number, pointer: number) => {
      const entry = fds.get(fd);
      if (!(entry instanceof DirectoryFd) || entry.preopen === undefined) throw ERRNO.BADF;
      memory.zero(pointer, 8);
      memory.setU32(pointer + 4, utf8(entry.preopen).byteLength);
    }),
    fd_prestat_dir_name: hostFunction((fd: number, pointer: number, length: number) => {
      const entry = fds.get(fd);
      if (!(entry instanceof DirectoryFd) || entry.preopen === undefined) throw ERRNO.BADF;
      const name = utf8(entry.preopen);
      if (length < name.byteLength) throw ERRNO.NAMETOOLONG;
      memory.bytes(pointer, name.byteLength).set(name);
    }),
    fd_readdir: hostFunction((fd: number, buffer: number, length: number, cookie: bigint, usedPointer: number) => {
      const entry = fds.directory(fd);
      const { descriptor } = entry;
      if (cookie === 0n || entry.listing === undefined) {
        const stream = descriptor.readDirectory();
        const listing: { name: string; type: string }[] = [];
        for (let next = stream.readDirectoryEntry(); next !== undefined; next = stream.readDirectoryEntry()) listing.push(next);
        entry.listing = listing;
      }
      const target = memory.bytes(buffer, length);
      const own = inodeOf(descriptor.statHost());
      const entries = [{ name: '.', type: 'directory' }, { name: '..', type: 'directory' }, ...entry.listing];
      let used = 0;
      for (let index = Number(cookie); index < entries.length && used < target.byteLength; index += 1) {
        const { name, type } = entries[index] as { name: string; type: string };
        let inode = own;
        if (index >= 2) {
          try {
            inode = inodeOf(descriptor.statHostAt({ symlinkFollow: false }, name));
          } catch {
            inode = 0n; // removed since it was listed
          }
        }
        const record = encodeDirent(BigInt(index + 1), inode, utf8(name), filetypeOfDescriptor(type));
        const take = Math.min(record.byteLength, target.byteLength - used);
        target.set(take === record.byteLength ? record : record.subarray(0, take), used);
        used += take;
      }
      memory.setU32(usedPointer, used);
    }),
    fd_renumber: hostFunction((from: number, to: number) => fds.renumber(from, to)),
    fd_seek: hostFunction((fd: number, offset: bigint, whence: number, resultPointer: number) => {
      const entry = fds.get(fd);
      if (entry.kind === 'directory') {
        // Rewinding a directory restarts its listing; nothing else is a position in it.
        if (whence !== WHENCE_SET || offset !== 0n) throw ERRNO.INVAL;
        entry.listing = undefined;
        memory.setU64(resultPointer, 0n);
        return;
      }
      if (entry.kind !== 'file') throw ERRNO.SPIPE;
      let base: number;
      if (whence === WHENCE_SET) base = 0;
      else if (whence === WHENCE_CUR) base = entry.position;
      else if (whence === WHENCE_END) base = Number(entry.descriptor.stat().size);
      else throw ERRNO.INVAL;
      const position = base + Number(offset);
      if (position < 0 || !Number.isSafeInteger(position)) throw ERRNO.INVAL;
      entry.position = position;
      memory.setU64(resultPointer, BigInt(position));
    }),
    fd_tell: hostFunction((fd: number, resultPointer: number) => {
      const entry = fds.get(fd);
      if (entry.kind !== 'file') throw entry.kind === 'directory' ? ERRNO.BADF : ERRNO.SPIPE;
      memory.setU64(resultPointer, BigInt(entry.position));
    }),
  };
}

