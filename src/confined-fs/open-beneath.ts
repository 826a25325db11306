/**
 * Race-free path resolution beneath a directory file descriptor (Linux), the `openat` walk Node lacks.
 *
 * Node has no `openat`, but on Linux `/proc/self/fd/<fd>/<name>` is resolved by the kernel from the
 * directory the fd refers to (the fd is a magic link to the open file, not to a path), which is what
 * `openat(fd, name)` does. Every lookup here walks one component at a time from an anchor fd:
 * - each intermediate directory is opened with `O_DIRECTORY | O_NOFOLLOW`, so the next step starts from
 *   an fd that cannot be swapped for a symlink or another directory afterwards;
 * - a symlink found on the way is read (`readlink` of that one entry) and expanded here, never by the
 *   kernel: an absolute target, or `..` above the anchor, is an escape (`EPERM`); more than 40 expansions
 *   give `ELOOP`;
 * - the final entry is opened with `O_NOFOLLOW`; `O_TRUNC` is applied with `ftruncate` only after the
 *   opened file is known to be a regular file that is not a hard link (a hard link planted inside could
 *   point at any file of the same device), so nothing outside is created or truncated.
 * A rename of the anchor's subtree by a racer inside it cannot move a lookup outside: every step holds
 * the directory it resolved. Callers close what they are given (`LookupResult.release`).
 * `openEntry` is the final step alone (for callers that looked up themselves, e.g. to learn the
 * depth); entry-beneath.ts builds the other operations (mkdir, rename, link, ...) on `lookupBeneath`.
 */
import fs from 'node:fs';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_TRUNC, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_NONBLOCK } = fs.constants;

/** How many symbolic links one lookup may expand (the kernel's limit is 40 too). */
export const MAX_SYMLINK_EXPANSIONS = 40;

/** The path the kernel resolves like `openat(dirFd, name)`. `name` is one component ('' = the directory itself). */
export function entryPath(dirFd: number, name = ''): string {
  return name === '' ? `/proc/self/fd/${dirFd}` : `/proc/self/fd/${dirFd}/${name}`;
}

/** Whether this platform offers `/proc/self/fd` lookups (Linux). Checked once. */
export const beneathLookupsAvailable: boolean = (() => {
  try {
    return fs.statSync('/proc/self/fd').isDirectory();
  } catch {
    return false;
  }
})();

export type BeneathErrorCode = 'EPERM' | 'ELOOP' | 'ENOTDIR' | 'ENOENT' | 'EINVAL' | 'EMLINK' | 'EISDIR';

/** A refusal of the lookup itself (not an error the kernel gave); shaped like a Node errno error. */
export class BeneathError extends Error {
  readonly code: BeneathErrorCode;
  /** True when the path would have left the anchor directory. */
  readonly escape: boolean;

  constructor(code: BeneathErrorCode, message: string, escape = false) {
    super(message);
    this.name = 'BeneathError';
    this.code = code;
    this.escape = escape;
  }
}

/** Opens a directory to anchor lookups (follows symlinks: the anchor itself is trusted). */
export function openAnchor(directory: string): number {
  return fs.openSync(directory, O_RDONLY | O_DIRECTORY);
}

export interface LookupOptions {
  /** Follow a symlink in the final component (expanded beneath the anchor). Default false. */
  followFinal?: boolean;
}

export interface LookupResult {
  /** The directory holding the final entry: the anchor itself or an fd this lookup opened. */
  readonly parentFd: number;
  /** The final entry's name inside `parentFd` ('' when the path names `parentFd` itself, e.g. `.` or `a/..`). */
  readonly name: string;
  /** How many directories `parentFd` lies below the anchor (0 = the anchor itself). */
  readonly depth: number;
  /** Closes `parentFd` unless it is the anchor. Call exactly once. */
  release(): void;
}

interface Walk {
  anchorFd: number;
  /** Open directory fds from the anchor down; index 0 is the anchor (never closed here). */
  stack: number[];
  expansions: number;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

function top(walk: Walk): number {
  return walk.stack[walk.stack.length - 1] as number;
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed or never valid: nothing to release
  }
}

function releaseWalk(walk: Walk): void {
  for (let index = walk.stack.length - 1; index >= 1; index--) closeQuietly(walk.stack[index] as number);
  walk.stack.length = 1;
}

/** True when what remains of a path names no further entry (`''` from slashes, or `.`). */
function onlyDotsLeft(pending: readonly string[]): boolean {
  return pending.every((part) => part === '' || part === '.');
}

function splitPath(path: string): string[] {
  if (path.includes('\0')) throw new BeneathError('EINVAL', 'path contains a NUL byte');
  if (path.startsWith('/')) throw new BeneathError('EPERM', `absolute path "${path}" is not allowed here`, true);
  return path.split('/');
}

/** Reads the symlink `name` in the current directory and returns its target's components. */
function expandSymlink(walk: Walk, name: string): string[] {
  if (++walk.expansions > MAX_SYMLINK_EXPANSIONS) throw new BeneathError('ELOOP', 'too many levels of symbolic links');
  const target = fs.readlinkSync(entryPath(top(walk), name));
  if (target === '') throw new BeneathError('ENOENT', `symbolic link "${name}" is empty`);
  if (target.startsWith('/')) throw new BeneathError('EPERM', `symbolic link "${name}" points to an absolute path`, true);
  return target.split('/');
}

function isSymlink(dirFd: number, name: string): boolean {
  const stat = fs.lstatSync(entryPath(dirFd, name), { throwIfNoEntry: false });
  return stat?.isSymbolicLink() ?? false;
}

/** Steps into the directory `name` of the current directory, expanding a symlink into `pending`. */
function stepInto(walk: Walk, name: string, pending: string[]): void {
  let fd: number;
  try {
    fd = fs.openSync(entryPath(top(walk), name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    if ((code === 'ELOOP' || code === 'ENOTDIR') && isSymlink(top(walk), name)) {
      pending.unshift(...expandSymlink(walk, name));
      return;
    }
    throw error;
  }
  walk.stack.push(fd);
}

/**
 * Resolves `path` (relative) beneath `anchorFd` down to the directory holding its final entry.
 * `..` never climbs above the anchor. Throws `BeneathError` for refusals, Node errno errors otherwise.
 */
export function lookupBeneath(anchorFd: number, path: string, options: LookupOptions = {}): LookupResult {
  const walk: Walk = { anchorFd, stack: [anchorFd], expansions: 0 };
  const pending = splitPath(path);
  try {
    let finalName = '';
    while (pending.length > 0) {
      const name = pending.shift() as string;
      if (name === '' || name === '.') {
        finalName = '';
        continue;
      }
      if (name === '..') {
        if (walk.stack.length <= 1) throw new BeneathError('EPERM', `path "${path}" leads outside its directory`, true);
        closeQuietly(walk.stack.pop() as number);
        finalName = '';
        continue;
      }
      const isLast = onlyDotsLeft(pending);
      if (isLast) {
        const trailingSlash = pending.length > 0;
        if ((options.followFinal || trailingSlash) && isSymlink(top(walk), name)) {
          const expanded = expandSymlink(walk, name);
          if (trailingSlash) expanded.push('');
          pending.splice(0, pending.length, ...expanded);
          continue;
        }
        if (trailingSlash) {
          stepInto(walk, name, pending);
          finalName = '';
          pending.length = 0;
          continue;
        }
        finalName = name;
        continue;
      }
      stepInto(walk, name, pending);
    }
    const parentFd = top(walk);
    const depth = walk.stack.length - 1;
    const owned = depth > 0;
    walk.stack.pop();
    releaseWalk(walk);
    let released = false;
    return {
      parentFd,
      name: finalName,
      depth,
      release() {
        if (released || !owned) return;
        released = true;
        closeQuietly(parentFd);
      },
    };
  } catch (error) {
    releaseWalk(walk);
    throw error;
  }
}

export interface OpenEntryOptions {
  /** Permission bits for a created file (default 0o666, before umask). */
  mode?: number;
  /**
   * Allow writing through a regular file with more than one hard link: `true`, or a check of the
   * opened file's `fstat` (e.g. links the caller made itself). Default false (`EMLINK`).
   */
  allowHardLinks?: boolean | ((stat: fs.Stats) => boolean);
}

export interface OpenBeneathOptions extends LookupOptions, OpenEntryOptions {}

export interface OpenedEntry {
  fd: number;
  stat: fs.Stats;
}

function writesTo(flags: number): boolean {
  return (flags & (O_WRONLY | O_RDWR)) !== 0;
}

function hardLinkAllowed(stat: fs.Stats, allow: OpenEntryOptions['allowHardLinks']): boolean {
  return typeof allow === 'function' ? allow(stat) : allow === true;
}

/**
 * Opens the entry `name` of the directory `dirFd` (one component, as a `lookupBeneath` result gives
 * it; '' = the directory itself) with `flags`, under the same rules as `openBeneath`: `O_NOFOLLOW`
 * is always added, `O_TRUNC` is applied with `ftruncate` only to a regular file that passed the
 * hard-link check, and a FIFO is opened non-blocking.
 */
export function openEntry(dirFd: number, name: string, flags: number, options: OpenEntryOptions = {}): OpenedEntry {
  const truncate = (flags & O_TRUNC) !== 0;
  const openFlags = (flags & ~O_TRUNC) | O_NOFOLLOW | O_NONBLOCK;
  if (name === '' && (flags & O_CREAT) !== 0 && (flags & O_EXCL) !== 0) {
    throw new BeneathError('EISDIR', 'the path names a directory');
  }
  // `/proc/self/fd/<fd>` itself is a (magic) symlink that O_NOFOLLOW refuses; `<fd>/.` is the directory.
  const fd = fs.openSync(entryPath(dirFd, name === '' ? '.' : name), openFlags, options.mode ?? 0o666);
  try {
    const stat = fs.fstatSync(fd);
    if (writesTo(flags) && stat.isFile() && stat.nlink > 1 && !hardLinkAllowed(stat, options.allowHardLinks)) {
      throw new BeneathError('EMLINK', `"${name}" is a hard link (${stat.nlink} links); writing through it is refused`);
    }
    if (truncate && writesTo(flags)) {
      if (!stat.isFile()) throw new BeneathError(stat.isDirectory() ? 'EISDIR' : 'EINVAL', `"${name}" is not a regular file`);
      // An empty file (e.g. just created) needs no truncation; ext4 makes a needless one costly later.
      if (stat.size === 0) return { fd, stat };
      fs.ftruncateSync(fd, 0);
      return { fd, stat: fs.fstatSync(fd) };
    }
    return { fd, stat };
  } catch (error) {
    closeQuietly(fd);
    throw error;
  }
}

/**
 * Opens `path` beneath `anchorFd` with `flags` (`O_NOFOLLOW` is always added; `O_TRUNC` is applied only
 * after the checks). Opening for write refuses hard-linked files (`EMLINK`) unless allowed, and
 * anything but a regular file when truncating. A FIFO is opened non-blocking so it cannot hang the caller.
 * A path naming the anchor or a directory on the way (`.`, `a/..`, `a/`) opens that directory.
 */
export function openBeneath(anchorFd: number, path: string, flags: number, options: OpenBeneathOptions = {}): OpenedEntry {
  const lookup = lookupBeneath(anchorFd, path, options);
  try {
    return openEntry(lookup.parentFd, lookup.name, flags, options);
  } finally {
    lookup.release();
  }
}
