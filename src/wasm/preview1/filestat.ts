/**
 * The preview1 `filestat`, `fdstat` and `dirent` layouts, and the file types and rights they carry.
 * Inode numbers are a hash of the host's (device, inode) pair: stable for a file across the call (Go's
 * os.SameFile, directory walkers), equal for two names of one file, and no host inode is shown.
 */
import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import type { DescriptorType } from '../wasi/filesystem-types.ts';
import type { GuestMemory } from './memory.ts';

export const FILETYPE = Object.freeze({
  UNKNOWN: 0,
  BLOCK_DEVICE: 1,
  CHARACTER_DEVICE: 2,
  DIRECTORY: 3,
  REGULAR_FILE: 4,
  SOCKET_STREAM: 6,
  SYMBOLIC_LINK: 7,
});

export function filetypeOfStats(stats: BigIntStats): number {
  if (stats.isFile()) return FILETYPE.REGULAR_FILE;
  if (stats.isDirectory()) return FILETYPE.DIRECTORY;
  if (stats.isSymbolicLink()) return FILETYPE.SYMBOLIC_LINK;
  if (stats.isCharacterDevice()) return FILETYPE.CHARACTER_DEVICE;
  if (stats.isBlockDevice()) return FILETYPE.BLOCK_DEVICE;
  if (stats.isSocket()) return FILETYPE.SOCKET_STREAM;
  return FILETYPE.UNKNOWN;
}

const FILETYPE_OF_DESCRIPTOR: Readonly<Record<DescriptorType, number>> = {
  unknown: FILETYPE.UNKNOWN,
  'block-device': FILETYPE.BLOCK_DEVICE,
  'character-device': FILETYPE.CHARACTER_DEVICE,
  directory: FILETYPE.DIRECTORY,
  fifo: FILETYPE.UNKNOWN,
  'symbolic-link': FILETYPE.SYMBOLIC_LINK,
  'regular-file': FILETYPE.REGULAR_FILE,
  socket: FILETYPE.SOCKET_STREAM,
};

export function filetypeOfDescriptor(type: string): number {
  return FILETYPE_OF_DESCRIPTOR[type as DescriptorType] ?? FILETYPE.UNKNOWN;
}

export function inodeOf(stats: BigIntStats): bigint {
  return createHash('sha256').update(`${stats.dev}:${stats.ino}`).digest().readBigUInt64LE(0);
}

/** The one device id every file is reported on (inode hashes already tell devices apart). */
const DEVICE = 1n;

export const FILESTAT_BYTES = 64;

/** Writes a `filestat` (64 bytes) for a host stat. */
export function writeFilestat(memory: GuestMemory, pointer: number, stats: BigIntStats): void {
  memory.bytes(pointer, FILESTAT_BYTES).fill(0);
  memory.setU64(pointer, DEVICE);
  memory.setU64(pointer + 8, inodeOf(stats));
  memory.setU8(pointer + 16, filetypeOfStats(stats));
  memory.setU64(pointer + 24, stats.nlink);
  memory.setU64(pointer + 32, stats.size);
  memory.setU64(pointer + 40, stats.atimeNs);
  memory.setU64(pointer + 48, stats.mtimeNs);
  memory.setU64(pointer + 56, stats.ctimeNs);
}

/** Writes the `filestat` of a stream with no file behind it (stdio): only its type. */
export function writeStreamFilestat(memory: GuestMemory, pointer: number, filetype: number): void {
  memory.bytes(pointer, FILESTAT_BYTES).fill(0);
  memory.setU8(pointer + 16, filetype);
}

export const RIGHTS = Object.freeze({
  FD_DATASYNC: 1n << 0n,
  FD_READ: 1n << 1n,
  FD_SEEK: 1n << 2n,
  FD_FDSTAT_SET_FLAGS: 1n << 3n,
  FD_SYNC: 1n << 4n,
  FD_TELL: 1n << 5n,
  FD_WRITE: 1n << 6n,
  FD_ADVISE: 1n << 7n,
  FD_ALLOCATE: 1n << 8n,
  PATH_CREATE_DIRECTORY: 1n << 9n,
  PATH_CREATE_FILE: 1n << 10n,
  PATH_LINK_SOURCE: 1n << 11n,
  PATH_LINK_TARGET: 1n << 12n,
  PATH_OPEN: 1n << 13n,
  FD_READDIR: 1n << 14n,
  PATH_READLINK: 1n << 15n,
  PATH_RENAME_SOURCE: 1n << 16n,
  PATH_RENAME_TARGET: 1n << 17n,
  PATH_FILESTAT_GET: 1n << 18n,
  PATH_FILESTAT_SET_SIZE: 1n << 19n,
  PATH_FILESTAT_SET_TIMES: 1n << 20n,
  FD_FILESTAT_GET: 1n << 21n,
  FD_FILESTAT_SET_SIZE: 1n << 22n,
  FD_FILESTAT_SET_TIMES: 1n << 23n,
  PATH_SYMLINK: 1n << 24n,
  PATH_REMOVE_DIRECTORY: 1n << 25n,
  PATH_UNLINK_FILE: 1n << 26n,
  POLL_FD_READWRITE: 1n << 27n,
});

const ALL_RIGHTS = (1n << 64n) - 1n;

/** What the preview1 adapter reports for a directory (the set userlands such as wasi-libc expect). */
export const DIRECTORY_RIGHTS =
  RIGHTS.PATH_CREATE_DIRECTORY | RIGHTS.PATH_CREATE_FILE | RIGHTS.PATH_LINK_SOURCE | RIGHTS.PATH_LINK_TARGET | RIGHTS.PATH_OPEN |
  RIGHTS.FD_READDIR | RIGHTS.PATH_READLINK | RIGHTS.PATH_RENAME_SOURCE | RIGHTS.PATH_RENAME_TARGET | RIGHTS.PATH_SYMLINK |
  RIGHTS.PATH_REMOVE_DIRECTORY | RIGHTS.PATH_UNLINK_FILE | RIGHTS.PATH_FILESTAT_GET | RIGHTS.PATH_FILESTAT_SET_TIMES |
  RIGHTS.FD_FILESTAT_GET | RIGHTS.FD_FILESTAT_SET_TIMES;
export const DIRECTORY_INHERITING_RIGHTS =
  DIRECTORY_RIGHTS | RIGHTS.FD_DATASYNC | RIGHTS.FD_READ | RIGHTS.FD_SEEK | RIGHTS.FD_FDSTAT_SET_FLAGS | RIGHTS.FD_SYNC |
  RIGHTS.FD_TELL | RIGHTS.FD_WRITE | RIGHTS.FD_ADVISE | RIGHTS.FD_ALLOCATE | RIGHTS.FD_FILESTAT_GET | RIGHTS.FD_FILESTAT_SET_SIZE |
  RIGHTS.FD_FILESTAT_SET_TIMES | RIGHTS.POLL_FD_READWRITE;

/** A file's rights: everything, less reading or writing when it was not opened for them. */
export function fileRights(read: boolean, write: boolean): bigint {
  let rights = ALL_RIGHTS;
  if (!read) rights &= ~(RIGHTS.FD_READ | RIGHTS.FD_READDIR);
  if (!write) rights &= ~RIGHTS.FD_WRITE;
  return rights;
}

export const FDFLAGS = Object.freeze({ APPEND: 1, DSYNC: 2, NONBLOCK: 4, RSYNC: 8, SYNC: 16 });

export const FDSTAT_BYTES = 24;

export function writeFdstat(memory: GuestMemory, pointer: number, filetype: number, flags: number, base: bigint, inheriting: bigint): void {
  memory.bytes(pointer, FDSTAT_BYTES).fill(0);
  memory.setU8(pointer, filetype);
  memory.setU16(pointer + 2, flags);
  memory.setU64(pointer + 8, base);
  memory.setU64(pointer + 16, inheriting);
}

export const DIRENT_BYTES = 24;

/** A `dirent` header followed by its name (not NUL-terminated), as fd_readdir lays them out. */
export function encodeDirent(next: bigint, inode: bigint, name: Uint8Array, filetype: number): Uint8Array {
  const record = new Uint8Array(DIRENT_BYTES + name.byteLength);
  const view = new DataView(record.buffer);
  view.setBigUint64(0, next, true);
  view.setBigUint64(8, inode, true);
  view.setUint32(16, name.byteLength, true);
  view.setUint8(20, filetype);
  record.set(name, DIRENT_BYTES);
  return record;
}
