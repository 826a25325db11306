/**
 * Entry operations beneath a directory file descriptor (Linux): create and remove directories,
 * unlink, rename, hard-link and symlink entries, read links, stat and set times, for a relative path
 * that never leaves the anchor directory.
 *
 * Each resolves the path's parent directory with `lookupBeneath` (open-beneath.ts: a component-wise
 * `O_NOFOLLOW` walk that holds an fd for every step) and then acts on `entryPath(parentFd, name)`. The
 * kernel resolves `/proc/self/fd/<fd>` to the directory the fd holds and, for mkdir, rmdir, unlink,
 * rename, link, symlink, readlink and lstat, does not follow the final component, so the entry acted
 * on is the one in the held directory even while a racer renames or swaps paths. Setting times opens
 * the entry (`O_NOFOLLOW`) and works on the fd.
 *
 * Trailing slashes are ignored. A path whose final component is `.` or `..`, or that names the anchor
 * itself, is refused with `EINVAL` by the operations that create, remove or rename an entry.
 */
import fs from 'node:fs';
import { BeneathError, entryPath, type LookupOptions, type LookupResult, lookupBeneath, openEntry, type OpenEntryOptions } from './open-beneath.ts';

const { O_RDONLY } = fs.constants;

/** `a/b//` → `a/b`; a path of slashes only is kept (it is absolute, which the lookup refuses). */
export function stripTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47 /* / */) end--;
  return end === path.length ? path : path.slice(0, end);
}

/** Runs `action` on the looked-up entry and releases the lookup afterwards. */
export function withLookup<T>(anchorFd: number, path: string, options: LookupOptions, action: (entry: LookupResult) => T): T {
  const lookup = lookupBeneath(anchorFd, path, options);
  try {
    return action(lookup);
  } finally {
    lookup.release();
  }
}

function isDotName(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last === '.' || last === '..';
}

/** Like `withLookup` for an entry that must be named (not `.`, `..` or the anchor), final component not followed. */
function withNamedEntry<T>(anchorFd: number, path: string, action: (parentFd: number, name: string, entry: LookupResult) => T): T {
  const stripped = stripTrailingSlashes(path);
  if (isDotName(stripped)) throw new BeneathError('EINVAL', `"${path}" does not name an entry`);
  return withLookup(anchorFd, stripped, {}, (entry) => {
    if (entry.name === '') throw new BeneathError('EINVAL', `"${path}" does not name an entry`);
    return action(entry.parentFd, entry.name, entry);
  });
}

export function mkdirBeneath(anchorFd: number, path: string, mode = 0o777): void {
  withNamedEntry(anchorFd, path, (parentFd, name) => fs.mkdirSync(entryPath(parentFd, name), mode));
}

export function rmdirBeneath(anchorFd: number, path: string): void {
  withNamedEntry(anchorFd, path, (parentFd, name) => fs.rmdirSync(entryPath(parentFd, name)));
}

/** Removes a non-directory entry (a symlink itself, never its target). */
export function unlinkBeneath(anchorFd: number, path: string): void {
  withNamedEntry(anchorFd, path, (parentFd, name) => fs.unlinkSync(entryPath(parentFd, name)));
}

export function renameBeneath(fromAnchorFd: number, fromPath: string, toAnchorFd: number, toPath: string): void {
  withNamedEntry(fromAnchorFd, fromPath, (fromFd, fromName) =>
    withNamedEntry(toAnchorFd, toPath, (toFd, toName) => fs.renameSync(entryPath(fromFd, fromName), entryPath(toFd, toName))),
  );
}

export interface LinkedEntry {
  /** `lstat` of the source entry taken just before linking. */
  source: fs.Stats;
  /** `lstat` of the new entry taken just after linking (undefined if it vanished meanwhile). */
  link: fs.Stats | undefined;
}

/**
 * Makes `toPath` a hard link to the entry `fromPath` names (its final symlink expanded beneath the
 * anchor when `followFinal`; otherwise a symlink is linked itself, as `linkat` without
 * `AT_SYMLINK_FOLLOW` does). Returns both stats, so callers can tell whether the new name belongs to
 * the inode they looked at.
 */
export function linkBeneath(fromAnchorFd: number, fromPath: string, toAnchorFd: number, toPath: string, options: LookupOptions = {}): LinkedEntry {
  return withLookup(fromAnchorFd, stripTrailingSlashes(fromPath), options, (from) => {
    // A directory (the anchor, `.`): link() gives EPERM for those.
    if (from.name === '') throw new BeneathError('EPERM', `"${fromPath}" is a directory`);
    const source = entryPath(from.parentFd, from.name);
    return withNamedEntry(toAnchorFd, toPath, (toFd, toName) => {
      const target = entryPath(toFd, toName);
      const before = fs.lstatSync(source);
      fs.linkSync(source, target);
      return { source: before, link: fs.lstatSync(target, { throwIfNoEntry: false }) };
    });
  });
}

export interface SymlinkBeneathOptions {
  /** How many directories the anchor lies below the directory links must stay in (default 0). */
  anchorDepth?: number;
}

/**
 * Whether a relative symlink `target` placed `linkDepth` directories below a confinement root stays
 * inside it, read lexically (a use of the link is resolved beneath its anchor again anyway).
 */
export function symlinkTargetInside(linkDepth: number, target: string): boolean {
  if (target.startsWith('/')) return false;
  let depth = linkDepth;
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (depth === 0) return false;
      depth--;
    } else depth++;
  }
  return true;
}

/**
 * Creates the symlink `path` → `target`. Refuses (`EPERM`, escape) an absolute target and one that
 * climbs above the confinement root (`anchorDepth` directories above the anchor), so links made here
 * stay inside even when a process that does not resolve them beneath follows them.
 */
export function symlinkBeneath(anchorFd: number, target: string, path: string, options: SymlinkBeneathOptions = {}): void {
  if (target === '') throw new BeneathError('ENOENT', 'empty symbolic link target');
  if (target.includes('\0')) throw new BeneathError('EINVAL', 'symbolic link target contains a NUL byte');
  withNamedEntry(anchorFd, path, (parentFd, name, entry) => {
    if (!symlinkTargetInside((options.anchorDepth ?? 0) + entry.depth, target)) {
      throw new BeneathError('EPERM', `symbolic link target "${target}" leads outside its directory`, true);
    }
    fs.symlinkSync(target, entryPath(parentFd, name));
  });
}

export function readlinkBeneath(anchorFd: number, path: string): string {
  return withLookup(anchorFd, stripTrailingSlashes(path), {}, (entry) => {
    if (entry.name === '') throw new BeneathError('EINVAL', `"${path}" is not a symbolic link`);
    return fs.readlinkSync(entryPath(entry.parentFd, entry.name));
  });
}

/** `lstat` of the entry (its final symlink expanded beneath the anchor when `followFinal`). */
export function statBeneath(anchorFd: number, path: string, options?: LookupOptions): fs.Stats;
export function statBeneath(anchorFd: number, path: string, options: LookupOptions & { bigint: true }): fs.BigIntStats;
export function statBeneath(anchorFd: number, path: string, options: LookupOptions & { bigint?: boolean } = {}): fs.Stats | fs.BigIntStats {
  const bigint = options.bigint === true;
  const statOf = (entry: LookupResult): fs.Stats | fs.BigIntStats =>
    entry.name === '' ? fs.fstatSync(entry.parentFd, { bigint }) : fs.lstatSync(entryPath(entry.parentFd, entry.name), { bigint });
  // Most final entries are no symlink: look once without following, and again only for a symlink.
  const stat = withLookup(anchorFd, path, {}, statOf);
  if (!options.followFinal || !stat.isSymbolicLink()) return stat;
  return withLookup(anchorFd, path, { followFinal: true }, statOf);
}

export interface SetTimesOptions extends LookupOptions {
  /** As for `openEntry`: setting times through a hard-linked file is refused (`EMLINK`) unless allowed. */
  allowHardLinks?: OpenEntryOptions['allowHardLinks'];
}

/**
 * Sets access and modification times (seconds) of the entry, computed by `times` from its current
 * stat. The entry is opened (`O_NOFOLLOW`) and changed through the fd; a symlink (not followed) or an
 * entry that cannot be opened for reading gets `lutimes` on its name after an `lstat`.
 */
export function setTimesBeneath(
  anchorFd: number,
  path: string,
  times: (current: fs.Stats) => [atime: number, mtime: number],
  options: SetTimesOptions = {},
): void {
  withLookup(anchorFd, path, options, (entry) => {
    let opened: { fd: number; stat: fs.Stats } | undefined;
    try {
      opened = openEntry(entry.parentFd, entry.name, O_RDONLY);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== 'ELOOP' && code !== 'EACCES' && code !== 'ENXIO' && code !== 'EPERM') throw error;
    }
    if (opened !== undefined) {
      const { fd, stat } = opened;
      try {
        if (stat.isFile() && stat.nlink > 1 && !allowed(stat, options.allowHardLinks)) {
          throw new BeneathError('EMLINK', `"${path}" is a hard link (${stat.nlink} links); changing it is refused`);
        }
        const [atime, mtime] = times(stat);
        fs.futimesSync(fd, atime, mtime);
      } finally {
        fs.closeSync(fd);
      }
      return;
    }
    const target = entryPath(entry.parentFd, entry.name);
    const stat = fs.lstatSync(target);
    if (stat.isFile() && stat.nlink > 1 && !allowed(stat, options.allowHardLinks)) {
      throw new BeneathError('EMLINK', `"${path}" is a hard link (${stat.nlink} links); changing it is refused`);
    }
    const [atime, mtime] = times(stat);
    fs.lutimesSync(target, atime, mtime);
  });
}

function allowed(stat: fs.Stats, allow: OpenEntryOptions['allowHardLinks']): boolean {
  return typeof allow === 'function' ? allow(stat) : allow === true;
}
