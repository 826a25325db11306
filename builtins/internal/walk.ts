/**
 * A confined directory walk shared by glob and grep (Linux: race-free; see src/confined-fs/).
 *
 * The walk opens the workspace root as an anchor fd, resolves the start beneath it (`lookupBeneath`),
 * and from there descends only through directory fds it opened itself with
 * `O_DIRECTORY | O_NOFOLLOW`: names are read with `readdir(entryPath(dirFd))`, every child is opened
 * relative to its held parent, so a directory swapped for a symlink mid-walk is skipped, never
 * followed out. Each yielded file is already open (`O_NOFOLLOW | O_NONBLOCK`, checked to be a regular
 * file by `fstat`, so a FIFO is never yielded), and its `real` path is `/proc/self/fd/<fd>`: opening
 * that path opens this very file, whatever happens to its name meanwhile. The fd stays open only until
 * the consumer asks for the next file (or stops): use `real` inside the loop body, never later.
 *
 * Depth-first, entries sorted by name, so results are deterministic. Directories named in
 * `ignoredDirectoryNames` are pruned. Symbolic links to files are yielded (under the link's name) only
 * when they resolve inside the workspace, beneath the anchor; symbolic links to directories are never
 * descended (like ripgrep's default), which also rules out link cycles. A start that is a file yields
 * that file alone. The walk gives the event loop a turn every `ENTRIES_PER_TURN` entries.
 */
import fs, { type Dirent } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { entryPath, lookupBeneath, openAnchor, openEntry } from '../../src/confined-fs/open-beneath.ts';
import { isHiddenHostFile, NO_HOST_FILES } from './host-files.ts';
import { isInsideDirectory, joinRelative, toWorkspaceRelative } from './workspace.ts';
import type { HostFiles } from './host-files.ts';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/** Directory names skipped unless the walk starts inside them. */
export const DEFAULT_IGNORED_DIRECTORIES: readonly string[] = ['node_modules', '.git'];

/** Entries handled between two turns given to the event loop. */
const ENTRIES_PER_TURN = 128;

export interface WalkedFile {
  /** Path relative to the workspace root, `/` separators. */
  relative: string;
  /** Path relative to the walk's start directory, `/` separators (the file name for a file start). */
  fromStart: string;
  /** `/proc/self/fd/<fd>` of the open file: valid until the consumer asks for the next file. */
  real: string;
  /** Size in bytes. */
  size: number;
}

export interface WalkOptions {
  /** Real path of the workspace root. */
  rootReal: string;
  /** Real path of the directory (or file) to start from, inside the root. */
  startReal: string;
  ignoredDirectoryNames?: readonly string[];
  signal?: AbortSignal;
  /** The host's own files: hidden ones are skipped (host-files.ts). */
  hostFiles?: HostFiles;
}

function byName(left: Dirent, right: Dirent): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
}

/** Opens `name` in the held directory `dirFd` as a directory, without following a symlink; undefined if it is not one (any more). */
function openChildDirectory(dirFd: number, name: string): number | undefined {
  try {
    return fs.openSync(entryPath(dirFd, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
}

/** Opens the entry `name` of `dirFd` for reading; the fd when it is a regular file, else undefined (nothing left open). */
function openRegularFile(dirFd: number, name: string): { fd: number; size: number } | undefined {
  let opened: { fd: number; stat: fs.Stats };
  try {
    opened = openEntry(dirFd, name, O_RDONLY);
  } catch {
    return undefined;
  }
  if (opened.stat.isFile()) return { fd: opened.fd, size: opened.stat.size };
  closeQuietly(opened.fd);
  return undefined;
}

/** Opens the file a symlink at `relative` leads to, resolved beneath the anchor; undefined when outside, missing or not a file. */
function openSymlinkTarget(anchorFd: number, relative: string): { fd: number; size: number } | undefined {
  let lookup;
  try {
    lookup = lookupBeneath(anchorFd, relative, { followFinal: true });
  } catch {
    return undefined; // outside the workspace, dangling or looping
  }
  try {
    return lookup.name === '' ? undefined : openRegularFile(lookup.parentFd, lookup.name);
  } finally {
    lookup.release();
  }
}

/** Yields every regular file below `startReal` that stays inside the workspace. */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkedFile> {
  if (!isInsideDirectory(options.rootReal, options.startReal)) return;
  const ignored = new Set(options.ignoredDirectoryNames ?? DEFAULT_IGNORED_DIRECTORIES);
  const hostFiles = options.hostFiles ?? NO_HOST_FILES;
  const hides = hostFiles.hidden.length > 0;
  /** Whether the entry at real location `realPath` is one of the host's hidden files. */
  const hidden = (realPath: string): boolean => hides && isHiddenHostFile(hostFiles, options.rootReal, realPath);
  /** The real location of an open fd (a followed symlink's target), or undefined. */
  const realOf = (fd: number): string | undefined => {
    try {
      return fs.readlinkSync(entryPath(fd));
    } catch {
      return undefined;
    }
  };
  const startRelative = toWorkspaceRelative(options.rootReal, options.startReal);
  let anchorFd: number;
  try {
    anchorFd = openAnchor(options.rootReal);
  } catch {
    return;
  }
  let handled = 0;
  async function pace(): Promise<void> {
    handled += 1;
    if (handled % ENTRIES_PER_TURN === 0) await nextTurn();
  }

  async function* visit(dirFd: number, relative: string, fromStart: string): AsyncGenerator<WalkedFile> {
    if (options.signal?.aborted) return;
    let entries: Dirent[];
    try {
      entries = await fs.promises.readdir(entryPath(dirFd), { withFileTypes: true });
    } catch {
      return; // unreadable directory: skip it
    }
    entries.sort(byName);
    for (const entry of entries) {
      if (options.signal?.aborted) return;
      await pace();
      const childRelative = joinRelative(relative, entry.name);
      const childFromStart = fromStart === '' ? entry.name : `${fromStart}/${entry.name}`;
      if (entry.isDirectory()) {
        if (ignored.has(entry.name)) continue;
        if (hidden(`${options.rootReal}/${childRelative}`)) continue;
        const childFd = openChildDirectory(dirFd, entry.name);
        if (childFd === undefined) continue;
        try {
          yield* visit(childFd, childRelative, childFromStart);
        } finally {
          closeQuietly(childFd);
        }
        continue;
      }
      let file: { fd: number; size: number } | undefined;
      if (entry.isFile()) file = openRegularFile(dirFd, entry.name);
      else if (entry.isSymbolicLink()) file = openSymlinkTarget(anchorFd, childRelative);
      if (file === undefined) continue;
      // A followed symlink is judged by its target's real location (unknown: skipped, to be safe).
      if (hides && hidden(entry.isFile() ? `${options.rootReal}/${childRelative}` : (realOf(file.fd) ?? hostFiles.hidden[0] ?? ''))) {
        closeQuietly(file.fd);
        continue;
      }
      try {
        yield { relative: childRelative, fromStart: childFromStart, real: entryPath(file.fd), size: file.size };
      } finally {
        closeQuietly(file.fd);
      }
    }
  }

  try {
    let start;
    try {
      start = lookupBeneath(anchorFd, startRelative, { followFinal: true });
    } catch {
      return; // the start is gone or leads outside
    }
    try {
      if (start.name === '') {
        yield* visit(start.parentFd, startRelative, '');
        return;
      }
      const directoryFd = openChildDirectory(start.parentFd, start.name);
      if (directoryFd !== undefined) {
        try {
          yield* visit(directoryFd, startRelative, '');
        } finally {
          closeQuietly(directoryFd);
        }
        return;
      }
      const file = openRegularFile(start.parentFd, start.name);
      if (file === undefined) return;
      try {
        yield { relative: startRelative, fromStart: start.name, real: entryPath(file.fd), size: file.size };
      } finally {
        closeQuietly(file.fd);
      }
    } finally {
      start.release();
    }
  } finally {
    closeQuietly(anchorFd);
  }
}
