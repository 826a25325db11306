/**
 * Confinement of guest paths inside a grant (preopen). Node has no `openat`, so every guest path is
 * resolved here, component by component, from the grant's real host directory:
 * - absolute guest paths are refused (`not-permitted`);
 * - `..` cannot climb above the descriptor the path is relative to (`not-permitted`);
 * - every intermediate component is `lstat`ed; symlinks are expanded by this code (never by the
 *   kernel), an absolute target is refused and a relative one is resolved under the same rules, so
 *   no path ever leaves the grant's real directory; more than 40 expansions give `loop`;
 * - the final component is followed only when asked; callers open it with `O_NOFOLLOW` and check
 *   the opened fd's real path (`/proc/self/fd`) against the grant root, which closes the window
 *   between this check and the open for files.
 */
import { existsSync, lstatSync, readlinkSync, type Stats } from 'node:fs';
import type { WasiFsMode } from './types.ts';
import { toFsError } from './filesystem-errors.ts';

export interface Grant {
  /** Real (symlink-free) absolute host directory of the grant. */
  readonly root: string;
  readonly mode: WasiFsMode;
}

export const MAX_SYMLINK_EXPANSIONS = 40;

export function hostPathOf(grant: Grant, comps: readonly string[]): string {
  if (comps.length === 0) return grant.root;
  return grant.root === '/' ? `/${comps.join('/')}` : `${grant.root}/${comps.join('/')}`;
}

export interface Resolved {
  /** Components from the grant root, symlink-free except possibly the last. */
  readonly comps: string[];
  readonly host: string;
  /**
   * `lstat` of the final component when the walk looked at it: `null` = it does not exist,
   * undefined = not looked at (the final component was not followed, or the path ends in `.`/`..`).
   */
  readonly stat: Stats | null | undefined;
}

export function lstatOrNull(host: string): Stats | null {
  try {
    return lstatSync(host, { throwIfNoEntry: false }) ?? null;
  } catch (error) {
    throw toFsError(error);
  }
}

/**
 * Resolves `path` relative to the directory `base` (components from the grant root). `follow`:
 * whether a symlink in the final component is followed. Throws a WASI error code.
 */
export function resolvePath(grant: Grant, base: readonly string[], path: string, follow: boolean): Resolved {
  if (path.length === 0) throw 'no-entry';
  if (path.charCodeAt(0) === 47 /* / */) throw 'not-permitted';
  if (path.includes('\0')) throw 'invalid';
  const floor = base.length;
  const stack = base.slice();
  let parts = path.split('/');
  let end = parts.length;
  while (end > 1 && parts[end - 1] === '') end--;
  if (end !== parts.length) parts.length = end;
  let i = 0;
  let expansions = 0;
  let stat: Stats | null | undefined;
  while (i < parts.length) {
    const name = parts[i++]!;
    stat = undefined;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (stack.length <= floor) throw 'not-permitted';
      stack.pop();
      continue;
    }
    stack.push(name);
    const isLast = i === parts.length;
    if (isLast && !follow) break;
    const host = hostPathOf(grant, stack);
    const st = lstatOrNull(host);
    if (st === null) {
      if (isLast) {
        stat = null;
        break;
      }
      throw 'no-entry';
    }
    if (st.isSymbolicLink()) {
      if (++expansions > MAX_SYMLINK_EXPANSIONS) throw 'loop';
      let target: string;
      try {
        target = readlinkSync(host);
      } catch (error) {
        throw toFsError(error);
      }
      if (target.length === 0) throw 'no-entry';
      if (target.charCodeAt(0) === 47) throw 'not-permitted';
      stack.pop();
      parts = target.split('/').concat(parts.slice(i));
      i = 0;
      continue;
    }
    if (!isLast && !st.isDirectory()) throw 'not-directory';
    stat = st;
  }
  return { comps: stack, host: hostPathOf(grant, stack), stat };
}

/**
 * For operations that create, remove or rename the final entry: the path must name an entry, not
 * `.`/`..` (POSIX gives EINVAL/EEXIST/ENOTEMPTY there; refusing keeps a guest from removing the
 * directory it holds, or the grant root).
 */
export function checkEntryName(path: string): void {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  const start = path.lastIndexOf('/', end - 1) + 1;
  const last = path.slice(start, end);
  if (last === '.' || last === '..') throw 'invalid';
}

/**
 * Whether a symlink at `linkDir` (components from the grant root) with the relative target
 * `target` stays inside the grant, lexically. Resolution re-checks every use anyway.
 */
export function symlinkTargetInside(linkDir: readonly string[], target: string): boolean {
  if (target.charCodeAt(0) === 47) return false;
  let depth = linkDir.length;
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (depth === 0) return false;
      depth--;
    } else depth++;
  }
  return true;
}

const procFdAvailable = existsSync('/proc/self/fd');

/**
 * Whether an opened fd really lies inside `root` (Linux: its `/proc/self/fd` link). True when the
 * platform offers no such check.
 */
export function fdInsideRoot(fd: number, root: string): boolean {
  if (!procFdAvailable) return true;
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return false;
  }
  if (root === '/') return true;
  return real === root || real.startsWith(`${root}/`);
}
