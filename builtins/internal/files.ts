/** Small helpers shared by the built-in file tools: binary detection, sizes, file system error wording. */
import { open } from 'node:fs/promises';

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

/** Reads at most the first `BINARY_SNIFF_BYTES` bytes of a file and says whether it looks binary. */
export async function fileLooksBinary(filePath: string): Promise<boolean> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** "512 bytes", "1.5 KB", "12.0 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}

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
