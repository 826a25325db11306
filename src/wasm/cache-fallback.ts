/**
 * A read-only transpile cache (a folder baked into a container image and mounted read-only, a
 * read-only root filesystem) still serves its entries, and what it lacks is transpiled into a
 * private temporary folder instead of failing the load.
 *
 * `writableCacheDirectory(dir)` answers, once per folder per process, where new entries go: `dir`
 * when this process can create a file there, else a fresh folder from `mkdtemp` under the OS temp
 * directory (`toolhost-cache-XXXXXX`, mode 0700, unpredictable, so no other user can have planted it
 * with an integrity key of their own; removed when the process exits), with one warning
 * (`TOOLHOST_CACHE_READ_ONLY`). Only the
 * errors of a folder that cannot be written (EROFS, EACCES, EPERM) fall back; any other is thrown.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const READ_ONLY_CODES = new Set(['EROFS', 'EACCES', 'EPERM']);

/** Whether `error` says a folder or file cannot be written (read-only mount, permissions). */
export function isReadOnlyError(error: unknown): boolean {
  return READ_ONLY_CODES.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

const decided = new Map<string, Promise<string>>();

async function decide(cacheDirectory: string): Promise<string> {
  const probe = join(cacheDirectory, `.write-probe-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(cacheDirectory, { recursive: true });
    const handle = await open(probe, 'wx', 0o600);
    await handle.close();
    await unlink(probe);
    return cacheDirectory;
  } catch (error) {
    if (!isReadOnlyError(error)) throw error;
    const fallback = await mkdtemp(join(tmpdir(), 'toolhost-cache-'));
    // This process's alone: gone with it.
    process.once('exit', () => rmSync(fallback, { recursive: true, force: true }));
    process.emitWarning(
      `toolhost: the cache folder ${cacheDirectory} cannot be written (${(error as NodeJS.ErrnoException).code}); its entries are used, and tools it lacks are transpiled into ${fallback} for this process`,
      { code: 'TOOLHOST_CACHE_READ_ONLY' },
    );
    return fallback;
  }
}

/** Where this process writes new transpile entries for `cacheDirectory` (see the header); decided once per folder. */
export function writableCacheDirectory(cacheDirectory: string): Promise<string> {
  let answer = decided.get(cacheDirectory);
  if (answer === undefined) {
    answer = decide(cacheDirectory);
    decided.set(cacheDirectory, answer);
    answer.catch(() => decided.delete(cacheDirectory));
  }
  return answer;
}
