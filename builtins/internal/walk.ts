/**
 * A confined directory walk shared by glob and grep.
 *
 * Depth-first, entries sorted by name, so results are deterministic. Directories named in
 * `ignoredDirectoryNames` are pruned. Symbolic links to files are yielded only when their real
 * target is inside the workspace; symbolic links to directories are never descended (like
 * ripgrep's default), which also rules out link cycles.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInsideDirectory, toWorkspaceRelative } from './workspace.ts';

/** Directory names skipped unless the walk starts inside them. */
export const DEFAULT_IGNORED_DIRECTORIES: readonly string[] = ['node_modules', '.git'];

export interface WalkedFile {
  /** Path relative to the workspace root, `/` separators. */
  relative: string;
  /** Path relative to the walk's start directory, `/` separators. */
  fromStart: string;
  /** Real absolute path to open (a symbolic link's resolved target). */
  real: string;
  /** Size in bytes. */
  size: number;
}

export interface WalkOptions {
  /** Real path of the workspace root. */
  rootReal: string;
  /** Real path of the directory to start from (inside the root). */
  startReal: string;
  ignoredDirectoryNames?: readonly string[];
  signal?: AbortSignal;
}

function byName(left: Dirent, right: Dirent): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

/** Yields every regular file below `startReal` that stays inside the workspace. */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkedFile> {
  const ignored = new Set(options.ignoredDirectoryNames ?? DEFAULT_IGNORED_DIRECTORIES);
  async function* visit(directory: string, fromStart: string): AsyncGenerator<WalkedFile> {
    if (options.signal?.aborted) return;
    let entries: Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      return; // unreadable directory: skip it
    }
    entries.sort(byName);
    for (const entry of entries) {
      if (options.signal?.aborted) return;
      const full = path.join(directory, entry.name);
      const childFromStart = fromStart === '' ? entry.name : `${fromStart}/${entry.name}`;
      if (entry.isDirectory()) {
        if (ignored.has(entry.name)) continue;
        yield* visit(full, childFromStart);
      } else if (entry.isFile()) {
        const size = await stat(full).then((stats) => stats.size, () => -1);
        if (size < 0) continue;
        yield { relative: toWorkspaceRelative(options.rootReal, full), fromStart: childFromStart, real: full, size };
      } else if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = await realpath(full);
        } catch {
          continue; // dangling or looping link
        }
        if (!isInsideDirectory(options.rootReal, target)) continue;
        const stats = await stat(target).catch(() => undefined);
        if (!stats?.isFile()) continue;
        yield { relative: toWorkspaceRelative(options.rootReal, full), fromStart: childFromStart, real: target, size: stats.size };
      }
    }
  }
  yield* visit(options.startReal, '');
}
