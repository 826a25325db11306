/**
 * Durable, atomic file replacement inside a held directory fd (Linux).
 *
 * `replaceFileAt(dirFd, name, data)` writes `data` to a new temp file in the same directory (random
 * name, `O_CREAT | O_EXCL | O_NOFOLLOW`, so it is always a fresh regular file in that directory), fsyncs
 * it, renames it over `name`, then fsyncs the directory. A crash at any point leaves the old content
 * or the new one, never an empty or partial file; the only possible trace is a leftover temp file
 * (`.toolhost-write-<hex>.tmp`), which on any failure the host sees is removed. The rename replaces the
 * directory entry itself: a symlink or hard link planted at `name` is replaced, never written through.
 *
 * Contents are written and synced asynchronously (the thread pool), so a large write never blocks the
 * event loop; opening, renaming and unlinking are single synchronous syscalls on `entryPath`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { entryPath } from './open-beneath.ts';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/** Prefix of the temp files `replaceFileAt` creates (dot files, so listings sort them apart). */
export const TEMP_FILE_PREFIX = '.toolhost-write-';

export interface ReplaceFileOptions {
  /** Permission bits of the new file (e.g. the old file's); default 0o666 before umask. */
  mode?: number;
  /**
   * Called synchronously right before the rename, after the data is on disk; throwing aborts the
   * replacement (the temp file is removed). Use it to check that `name` is still what was read.
   */
  beforeRename?: () => void;
}

function writeChunk(fd: number, data: Uint8Array, offset: number): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.write(fd, data, offset, data.length - offset, null, (error, written) => (error ? reject(error) : resolve(written)));
  });
}

function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fsync(fd, (error) => (error ? reject(error) : resolve())));
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
}

function unlinkQuietly(path: string): void {
  try {
    fs.unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Writes all of `data` to `fd` from its current offset. */
export async function writeAll(fd: number, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) offset += await writeChunk(fd, data, offset);
}

/**
 * Replaces the entry `name` of the directory `dirFd` with a regular file holding `data`, atomically
 * and durably (see the module comment). Throws Node errno errors (`EISDIR` when `name` is a directory).
 */
export async function replaceFileAt(dirFd: number, name: string, data: Uint8Array | string, options: ReplaceFileOptions = {}): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const temporary = `${TEMP_FILE_PREFIX}${randomBytes(8).toString('hex')}.tmp`;
  const temporaryPath = entryPath(dirFd, temporary);
  const fd = fs.openSync(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, options.mode ?? 0o666);
  let open = true;
  try {
    if (options.mode !== undefined) fs.fchmodSync(fd, options.mode & 0o7777);
    await writeAll(fd, bytes);
    await fsyncFd(fd);
    fs.closeSync(fd);
    open = false;
    options.beforeRename?.();
    fs.renameSync(temporaryPath, entryPath(dirFd, name));
  } catch (error) {
    if (open) closeQuietly(fd);
    unlinkQuietly(temporaryPath);
    throw error;
  }
  try {
    await fsyncFd(dirFd);
  } catch (error) {
    // Some file systems cannot fsync a directory; the rename itself has happened.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EBADF') throw error;
  }
}
