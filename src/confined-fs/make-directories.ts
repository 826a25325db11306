/**
 * `mkdir -p` beneath a directory file descriptor (Linux): creates the missing directories of a relative
 * path one component at a time, each with `mkdir` on `entryPath(parentFd, name)` of a directory fd the
 * confined walk (`lookupBeneath`) just resolved. The kernel's mkdir never follows the final
 * component, and every later step re-walks from the anchor with `O_NOFOLLOW`, so a directory swapped
 * for a symlink to the outside mid-way is refused, never created through.
 *
 * A symlink on the way that stays inside is followed (a dangling one creates its target, like
 * `mkdir -p`); one pointing outside is an escape (`BeneathError`, `escape: true`).
 */
import fs from 'node:fs';
import { entryPath, lookupBeneath } from './open-beneath.ts';

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/** True when `path` (relative) resolves beneath `anchorFd` to an existing directory; false when a component is missing. */
function directoryExists(anchorFd: number, path: string): boolean {
  try {
    lookupBeneath(anchorFd, `${path}/`).release();
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Makes sure the directory `path` (relative to `anchorFd`) exists, creating missing components with
 * `mode` (before umask). Throws `BeneathError` for escapes and Node errno errors (`ENOTDIR` when a
 * component is a file) otherwise.
 */
export function makeDirectoriesBeneath(anchorFd: number, path: string, mode = 0o777): void {
  if (directoryExists(anchorFd, path)) return;
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  for (let count = 1; count <= parts.length; count += 1) {
    const prefix = parts.slice(0, count).join('/');
    if (directoryExists(anchorFd, prefix)) continue;
    const lookup = lookupBeneath(anchorFd, prefix, { followFinal: true });
    try {
      if (lookup.name !== '') fs.mkdirSync(entryPath(lookup.parentFd, lookup.name), mode);
    } catch (error) {
      // Created meanwhile by someone else: the next step's lookup checks what it is.
      if (errorCode(error) !== 'EEXIST') throw error;
    } finally {
      lookup.release();
    }
  }
  // The last component may have been swapped or removed after its mkdir: check the end result.
  if (!directoryExists(anchorFd, path)) {
    throw Object.assign(new Error(`directory "${path}" vanished while it was being created`), { code: 'ENOENT' });
  }
}
