/**
 * Small helpers shared by the built-in file tools: asynchronous reads from an open file descriptor
 * (the tools open files beneath the workspace fd, then read the fd on the thread pool so the event
 * loop stays free), binary detection, sizes, file system error wording.
 */
import fs from 'node:fs';

/** How many leading bytes are inspected for NUL bytes to decide whether a file is binary. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

/** Largest file read_file, edit_file and grep read whole. */
export const MAX_TEXT_FILE_BYTES = 10 * 1024 * 1024;

/** True when the buffer holds a NUL byte in its first `BINARY_SNIFF_BYTES` bytes. */
export function looksBinary(buffer: Uint8Array): boolean {
  const end = Math.min(buffer.length, BINARY_SNIFF_BYTES);
  for (let index = 0; index < end; index += 1) {
    if (buffer[index] === 0) return true;
  }
  return false;
}

/** Reads up to `length` bytes of `fd` at `position` into `buffer` at `offset` (one `pread`, on the thread pool). */
export function readAt(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.read(fd, buffer, offset, length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead)));
  });
}

/**
 * Reads `fd` from the start until end of file, or until `maxBytes` have been read (a file that grew
 * meanwhile is cut there). `sizeHint` (the `fstat` size) sizes the first buffer.
 */
export async function readDescriptor(fd: number, sizeHint: number, maxBytes: number): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(sizeHint, 0), maxBytes) + 1);
  let filled = 0;
  while (filled < maxBytes) {
    if (filled === buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes));
      buffer.copy(grown, 0, 0, filled);
      buffer = grown;
    }
    const bytesRead = await readAt(fd, buffer, filled, Math.min(buffer.length, maxBytes) - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** Reads at most the first `BINARY_SNIFF_BYTES` bytes of an open file and says whether it looks binary. */
export async function descriptorLooksBinary(fd: number): Promise<boolean> {
  const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
  const bytesRead = await readAt(fd, buffer, 0, BINARY_SNIFF_BYTES, 0);
  return looksBinary(buffer.subarray(0, bytesRead));
}

/** "512 bytes", "1.5 KB", "12.0 MB": the spelling tool results use (see src/byte-size.ts). */
export { formatBytes } from '../../src/byte-size.ts';

/** The `code` of a Node.js system error, if any. */
export function errorCodeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/** Words a file system failure on `relative` so a model can act on it. */
export function describeFileSystemError(error: unknown, relative: string): string {
  switch (errorCodeOf(error)) {
    case 'ENOENT':
      return `"${relative}" does not exist. Check the path with list_dir or glob.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied for "${relative}"; the host cannot access it. Choose another path.`;
    case 'EISDIR':
      return `"${relative}" is a directory, not a file. Use list_dir to see its contents.`;
    case 'ENOTDIR':
      return `A component of "${relative}" is a file, not a directory. Check the path with list_dir.`;
    case 'ENOSPC':
      return `No space left on the device while writing "${relative}".`;
    case 'EROFS':
      return `"${relative}" is on a read-only file system and cannot be changed.`;
    default:
      return `File system error on "${relative}": ${(error as Error).message}`;
  }
}
