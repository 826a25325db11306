import { lstat, readdir, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, errorResult, textResult } from '../src/index.ts';
import { describeFileSystemError, formatBytes } from './internal/files.ts';
import { isInsideDirectory, realWorkspaceRoot, resolveWorkspacePath, toWorkspaceRelative } from './internal/workspace.ts';

/** Most entries one listing returns. */
export const LIST_DIR_MAX_ENTRIES = 1000;

type EntryKind = 'directory' | 'file' | 'symlink' | 'other';

interface ListedEntry {
  name: string;
  kind: EntryKind;
  line: string;
}

async function describeEntry(directory: string, name: string, rootReal: string): Promise<ListedEntry> {
  const full = path.join(directory, name);
  let stats;
  try {
    stats = await lstat(full);
  } catch {
    return { name, kind: 'other', line: `${name}  (unreadable)` };
  }
  if (stats.isDirectory()) return { name, kind: 'directory', line: `${name}/` };
  if (stats.isFile()) return { name, kind: 'file', line: `${name}  ${formatBytes(stats.size)}` };
  if (stats.isSymbolicLink()) {
    let target: string;
    try {
      target = await realpath(full);
    } catch {
      // Dangling link: say so without revealing where it points.
      let raw = '';
      try {
        raw = await readlink(full);
      } catch {
        raw = '?';
      }
      const lexical = path.resolve(directory, raw);
      const shown = isInsideDirectory(rootReal, lexical) ? toWorkspaceRelative(rootReal, lexical) : '[outside the workspace]';
      return { name, kind: 'symlink', line: `${name} -> ${shown}  (symlink, target missing)` };
    }
    if (!isInsideDirectory(rootReal, target)) {
      return { name, kind: 'symlink', line: `${name} -> [outside the workspace]  (symlink, not accessible)` };
    }
    const targetStats = await stat(target).catch(() => undefined);
    const what = targetStats?.isDirectory() ? 'symlink to directory' : 'symlink';
    return { name, kind: 'symlink', line: `${name} -> ${toWorkspaceRelative(rootReal, target)}  (${what})` };
  }
  return { name, kind: 'other', line: `${name}  (special file)` };
}

export const listDirTool = defineTool({
  name: 'list_dir',
  description:
    'List the entries of a directory in the workspace (not recursive), sorted by name. The path is relative to the ' +
    'workspace root; the default "." lists the root. Directories end with "/", files show their size, symbolic links ' +
    'show "name -> target". Use it to explore the project layout; use glob to find files by pattern across directories.',
  permission: 'read_only',
  input: z.object({
    path: z
      .string()
      .default('.')
      .describe('Directory to list, relative to the workspace root (e.g. "src"). Default: "." (the workspace root).'),
  }),
  secretParams: [],
  async execute(input, context) {
    const resolution = await resolveWorkspacePath(context.workspaceRoot, input.path);
    if (!resolution.ok) return errorResult(resolution.message);
    const target = resolution.path;
    if (!target.exists) {
      return errorResult(`Directory "${input.path}" does not exist. List its parent directory to see what is there.`);
    }
    let names: string[];
    try {
      const stats = await stat(target.real);
      if (!stats.isDirectory()) {
        return errorResult(`"${target.relative}" is a file, not a directory. Use read_file to read it.`);
      }
      names = await readdir(target.real);
    } catch (error) {
      return errorResult(describeFileSystemError(error, target.relative));
    }
    const rootReal = await realWorkspaceRoot(context.workspaceRoot);
    names.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
    const shownNames = names.slice(0, LIST_DIR_MAX_ENTRIES);
    const entries = await Promise.all(shownNames.map((name) => describeEntry(target.real, name, rootReal)));
    const truncated = names.length > shownNames.length;
    const header = `${target.relative === '.' ? '. (workspace root)' : `${target.relative}/`}`;
    let content: string;
    if (entries.length === 0) {
      content = `${header}\n[empty directory]`;
    } else {
      content = [header, ...entries.map((entry) => `  ${entry.line}`)].join('\n');
    }
    if (truncated) {
      content += `\n[${names.length - shownNames.length} more entries not shown; list a subdirectory or use glob with a narrower pattern]`;
    }
    const count = (kind: EntryKind): number => entries.filter((entry) => entry.kind === kind).length;
    return textResult(content, {
      path: target.relative,
      entries: entries.length,
      total_entries: names.length,
      directories: count('directory'),
      files: count('file'),
      symlinks: count('symlink'),
      truncated,
    });
  },
});
