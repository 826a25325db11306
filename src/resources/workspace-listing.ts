/**
 * One page of the workspace's files, in a stable order, resumable from any position: the listing
 * behind `resources/list` (Linux: confined like builtins/internal/walk.ts, which it follows).
 *
 * Order: depth-first, each directory's entries sorted by name (a directory's files come where its name
 * sorts). A page resumes strictly after a position (a workspace-relative path, the cursor): the walk
 * goes down that path's directories and skips what sorts before it, so no page re-walks the pages
 * before it. A page ends after `pageSize` files or after `maxExamined` entries looked at, whichever
 * comes first (a tree of empty folders cannot make one page walk without end); `resumeAfter` is then
 * the last position handled. The walk gives the event loop a turn every `ENTRIES_PER_TURN` entries.
 *
 * Confinement: directories are opened beneath the workspace fd with `O_DIRECTORY | O_NOFOLLOW`, one
 * held fd per level; symbolic links are listed (under their own name) only when they lead to a
 * regular file inside the workspace, never descended; FIFOs, sockets and devices are not listed;
 * directories named in `ignoredDirectoryNames` (the file tools' `node_modules`, `.git`) are skipped,
 * and so is anything deeper than `maxDepth`.
 */
import fs, { type Dirent } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { entryPath, lookupBeneath } from '../confined-fs/open-beneath.ts';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/** Entries handled between two turns given to the event loop. */
const ENTRIES_PER_TURN = 128;

export interface ListingOptions {
  /** Resume strictly after this workspace-relative position; undefined = from the start. */
  after?: string | undefined;
  pageSize: number;
  maxExamined: number;
  maxDepth: number;
  ignoredDirectoryNames: ReadonlySet<string>;
  signal?: AbortSignal | undefined;
  /** True for a workspace-relative path that is one of the host's hidden files (left out of the listing). */
  isHidden?: ((relative: string) => boolean) | undefined;
}

export interface ListingPage {
  /** Workspace-relative paths of regular files (and of links to regular files inside). */
  files: string[];
  /** Set when the page stopped before the end: the position to resume after. */
  resumeAfter: string | undefined;
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

/** True when the symlink at `relative` resolves, beneath the anchor, to a regular file. */
function linksToFileInside(anchorFd: number, relative: string): boolean {
  let lookup;
  try {
    lookup = lookupBeneath(anchorFd, relative, { followFinal: true });
  } catch {
    return false; // outside, dangling or looping
  }
  try {
    if (lookup.name === '') return false;
    return fs.lstatSync(entryPath(lookup.parentFd, lookup.name), { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  } finally {
    lookup.release();
  }
}

/** One page of the files beneath `anchorFd` (the workspace root's fd, owned by the caller). */
export async function listWorkspaceFiles(anchorFd: number, options: ListingOptions): Promise<ListingPage> {
  const files: string[] = [];
  let examined = 0;
  let lastHandled: string | undefined;
  let stopped = false;

  async function visit(dirFd: number, relative: string, depth: number, after: readonly string[] | undefined): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await fs.promises.readdir(entryPath(dirFd), { withFileTypes: true });
    } catch {
      return; // unreadable directory: skip it
    }
    entries.sort(byName);
    let skipping = after;
    for (const entry of entries) {
      if (skipping !== undefined) {
        const first = skipping[0] as string;
        if (entry.name < first) continue;
        if (entry.name === first) {
          const rest = skipping.slice(1);
          skipping = undefined;
          // The position itself was handled; only a directory it lies inside is entered again.
          if (rest.length === 0 || !entry.isDirectory()) continue;
          await descend(dirFd, entry.name, relative, depth, rest);
          if (stopped) return;
          lastHandled = join(relative, entry.name);
          continue;
        }
        skipping = undefined;
      }
      // A page handles at least one position (at most `maxDepth` folders deep) before the entry budget counts.
      if (options.signal?.aborted || files.length >= options.pageSize || (examined >= options.maxExamined && lastHandled !== undefined)) {
        stopped = true;
        return;
      }
      examined += 1;
      if (examined % ENTRIES_PER_TURN === 0) await nextTurn();
      const childRelative = join(relative, entry.name);
      if (options.isHidden?.(childRelative) === true) {
        lastHandled = childRelative;
        continue;
      }
      if (entry.isDirectory()) {
        if (!options.ignoredDirectoryNames.has(entry.name)) {
          await descend(dirFd, entry.name, relative, depth, undefined);
          if (stopped) return;
        }
      } else if (entry.isFile() || (entry.isSymbolicLink() && linksToFileInside(anchorFd, childRelative))) {
        files.push(childRelative);
      }
      lastHandled = childRelative;
    }
  }

  async function descend(dirFd: number, name: string, relative: string, depth: number, after: readonly string[] | undefined): Promise<void> {
    if (depth + 1 > options.maxDepth) return;
    let childFd: number;
    try {
      childFd = fs.openSync(entryPath(dirFd, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
    } catch {
      return; // no longer a directory, or unreadable
    }
    try {
      await visit(childFd, join(relative, name), depth + 1, after);
    } finally {
      closeQuietly(childFd);
    }
  }

  const after = options.after === undefined || options.after === '' ? undefined : options.after.split('/');
  await visit(anchorFd, '', 0, after);
  return { files, resumeAfter: stopped ? (lastHandled ?? options.after) : undefined };
}

function join(directory: string, name: string): string {
  return directory === '' ? name : `${directory}/${name}`;
}
