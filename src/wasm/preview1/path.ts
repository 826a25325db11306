/**
 * The path_* functions, each resolved beneath a directory descriptor of the confined filesystem host
 * (wasi/filesystem-types.ts, src/confined-fs/): absolute paths, `..` above the directory, symlinks
 * leading out of the grant and writes into read-only grants are refused there, exactly as for a
 * component. path_open maps preview1 rights to read/write the way the preview1 command adapter does
 * (`FD_READ` reads, `FD_WRITE` writes; other rights are not enforced beyond the grant's mode).
 */
import type { DescriptorFlags, OpenFlags, PathFlags } from '../wasi/filesystem-types.ts';
import { ERRNO } from './errno.ts';
import { DirectoryFd, FileFd } from './fd-table.ts';
import { timestampsOf } from './fd.ts';
import { FDFLAGS, RIGHTS, writeFilestat } from './filestat.ts';
import { hostFunction, type ImportFunctions, type Preview1State } from './state.ts';

const LOOKUP_SYMLINK_FOLLOW = 1;

const OFLAGS = Object.freeze({ CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 });

function pathFlags(lookupFlags: number): PathFlags {
  return { symlinkFollow: (lookupFlags & LOOKUP_SYMLINK_FOLLOW) !== 0 };
}

export function pathImports(state: Preview1State): ImportFunctions {
  const { memory, fds } = state;
  const directory = (fd: number) => fds.directory(fd).descriptor;
  const path = (pointer: number, length: number) => memory.string(pointer, length);

  return {
    path_create_directory: hostFunction((fd: number, pointer: number, length: number) => {
      directory(fd).createDirectoryAt(path(pointer, length));
    }),
    path_filestat_get: hostFunction((fd: number, flags: number, pointer: number, length: number, statPointer: number) => {
      writeFilestat(memory, statPointer, directory(fd).statHostAt(pathFlags(flags), path(pointer, length)));
    }),
    path_filestat_set_times: hostFunction((fd: number, flags: number, pointer: number, length: number, atime: bigint, mtime: bigint, fstflags: number) => {
      directory(fd).setTimesAt(pathFlags(flags), path(pointer, length), ...timestampsOf(atime, mtime, fstflags));
    }),
    path_link: hostFunction((oldFd: number, oldFlags: number, oldPointer: number, oldLength: number, newFd: number, newPointer: number, newLength: number) => {
      directory(oldFd).linkAt(pathFlags(oldFlags), path(oldPointer, oldLength), directory(newFd), path(newPointer, newLength));
    }),
    path_open: hostFunction(
      (
        fd: number,
        lookupFlags: number,
        pointer: number,
        length: number,
        oflags: number,
        rightsBase: bigint,
        _rightsInheriting: bigint,
        fdflags: number,
        openedPointer: number,
      ) => {
        const parent = directory(fd);
        const guestPath = path(pointer, length);
        memory.u32(openedPointer); // checked before anything is opened
        const openFlags: OpenFlags = {
          create: (oflags & OFLAGS.CREAT) !== 0,
          directory: (oflags & OFLAGS.DIRECTORY) !== 0,
          exclusive: (oflags & OFLAGS.EXCL) !== 0,
          truncate: (oflags & OFLAGS.TRUNC) !== 0,
        };
        const flags: DescriptorFlags = {
          read: (rightsBase & RIGHTS.FD_READ) !== 0n,
          write: (rightsBase & RIGHTS.FD_WRITE) !== 0n,
          fileIntegritySync: (fdflags & FDFLAGS.SYNC) !== 0,
          dataIntegritySync: (fdflags & FDFLAGS.DSYNC) !== 0,
          requestedWriteSync: (fdflags & FDFLAGS.RSYNC) !== 0,
        };
        const opened = parent.openAt(pathFlags(lookupFlags), guestPath, openFlags, flags);
        const entry =
          opened.getType() === 'directory'
            ? new DirectoryFd(() => opened)
            : new FileFd(opened, (fdflags & FDFLAGS.APPEND) !== 0, (fdflags & FDFLAGS.NONBLOCK) !== 0);
        memory.setU32(openedPointer, fds.add(entry));
      },
    ),
    path_readlink: hostFunction((fd: number, pointer: number, length: number, buffer: number, bufferLength: number, usedPointer: number) => {
      const target = new TextEncoder().encode(directory(fd).readlinkAt(path(pointer, length)));
      const take = Math.min(target.byteLength, bufferLength >>> 0);
      memory.bytes(buffer, take).set(target.subarray(0, take));
      memory.setU32(usedPointer, take);
    }),
    path_remove_directory: hostFunction((fd: number, pointer: number, length: number) => {
      directory(fd).removeDirectoryAt(path(pointer, length));
    }),
    path_rename: hostFunction((fd: number, oldPointer: number, oldLength: number, newFd: number, newPointer: number, newLength: number) => {
      directory(fd).renameAt(path(oldPointer, oldLength), directory(newFd), path(newPointer, newLength));
    }),
    path_symlink: hostFunction((oldPointer: number, oldLength: number, fd: number, newPointer: number, newLength: number) => {
      directory(fd).symlinkAt(path(oldPointer, oldLength), path(newPointer, newLength));
    }),
    path_unlink_file: hostFunction((fd: number, pointer: number, length: number) => {
      directory(fd).unlinkFileAt(path(pointer, length));
    }),
  };
}
