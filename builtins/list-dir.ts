/**
 * list_dir: lists one directory of the workspace (not recursive), sorted by name.
 *
 * The directory is resolved beneath the workspace root fd and opened with `O_NOFOLLOW | O_NONBLOCK`
 * (internal/workspace.ts); its names are read through that fd (`readdir` of `entryPath(dirFd)`) and
 * each entry is `lstat`ed in the held directory, so a directory swapped for a symlink mid-call is
 * never listed through. A symlink entry shows its target relative to the workspace when the target
 * resolves inside it (beneath the root fd), and only "[outside the workspace]" otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { errorResult, textResult, type ToolResult } from '../src/result.ts';
import { defineTool } from '../src/tool.ts';
import { BeneathError, entryPath } from '../src/confined-fs/open-beneath.ts';
import { formatBytes } from './internal/files.ts';
import { HostFileError, hostFilesOf, isHiddenHostFile } from './internal/host-files.ts';
import {
  describeWorkspaceError,
  joinRelative,
  locateEntry,
  openRequestedEntry,
  openWorkspace,
  type LocatedEntry,
  type Workspace,
} from './internal/workspace.ts';

/** Most entries one listing returns. */
export const LIST_DIR_MAX_ENTRIES = 1000;

type EntryKind = 'directory' | 'file' | 'symlink' | 'other';

interface ListedEntry {
  name: string;
  kind: EntryKind;
  line: string;
}

/** Where the symlink `name` of the directory `directory` (workspace-relative) leads, for display. */
function describeSymlink(workspace: Workspace, dirFd: number, directory: string, name: string): ListedEntry {
  let target: LocatedEntry;
  try {
    target = locateEntry(workspace, joinRelative(directory, name));
  } catch (error) {
    if (error instanceof BeneathError && error.escape) {
      return { name, kind: 'symlink', line: `${name} -> [outside the workspace]  (symlink, not accessible)` };
    }
    if (error instanceof HostFileError) return { name, kind: 'symlink', line: `${name} -> [one of toolhost's own files]  (symlink, not accessible)` };
    // Missing or looping on the way: show where it points, if that is inside, without following it.
    let raw = '?';
    try {
      raw = fs.readlinkSync(entryPath(dirFd, name));
    } catch {
      // keep '?'
    }
    const lexical = raw.startsWith('/') ? '..' : path.posix.normalize(path.posix.join(directory, raw));
    const shown = lexical === '..' || lexical.startsWith('../') ? '[outside the workspace]' : lexical;
    return { name, kind: 'symlink', line: `${name} -> ${shown}  (symlink, target missing)` };
  }
  try {
    const stats = target.name === '' ? fs.fstatSync(target.parentFd) : fs.lstatSync(entryPath(target.parentFd, target.name), { throwIfNoEntry: false });
    if (stats === undefined) return { name, kind: 'symlink', line: `${name} -> ${target.relative}  (symlink, target missing)` };
    const what = stats.isDirectory() ? 'symlink to directory' : 'symlink';
    return { name, kind: 'symlink', line: `${name} -> ${target.relative}  (${what})` };
  } finally {
    target.release();
  }
}

/** One line for the entry `name` of the held directory `dirFd` (workspace-relative `directory`). */
function describeEntry(workspace: Workspace, dirFd: number, directory: string, name: string): ListedEntry {
  let stats: fs.Stats | undefined;
  try {
    stats = fs.lstatSync(entryPath(dirFd, name), { throwIfNoEntry: false });
  } catch {
    stats = undefined;
  }
  if (stats === undefined) return { name, kind: 'other', line: `${name}  (unreadable)` };
  if (stats.isDirectory()) return { name, kind: 'directory', line: `${name}/` };
  if (stats.isFile()) return { name, kind: 'file', line: `${name}  ${formatBytes(stats.size)}` };
  if (stats.isSymbolicLink()) return describeSymlink(workspace, dirFd, directory, name);
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
    const opening = openWorkspace(context.workspaceRoot, hostFilesOf(context.sandbox));
    if (!opening.ok) return errorResult(opening.message);
    try {
      return await listWithin(opening.workspace, input.path);
    } finally {
      opening.workspace.close();
    }
  },
});

function missingDirectory(requested: string): ToolResult {
  return errorResult(`Directory "${requested}" does not exist. List its parent directory to see what is there.`);
}

/** Opens the requested directory beneath the workspace fd and lists it through that fd. */
async function listWithin(workspace: Workspace, requested: string): Promise<ToolResult> {
  const opened = openRequestedEntry(workspace, requested);
  if (!opened.ok) return opened.missing ? missingDirectory(requested) : errorResult(opened.message);
  const { fd: dirFd, stats, relative } = opened;
  try {
    if (!stats.isDirectory()) return errorResult(`"${relative}" is a file, not a directory. Use read_file to read it.`);
    let names: string[];
    try {
      names = await fs.promises.readdir(entryPath(dirFd));
    } catch (error) {
      return errorResult(describeWorkspaceError(error, requested, relative));
    }
    // The host's hidden files are absent here, as in the shell's sandbox.
    const directoryReal = relative === '.' ? workspace.rootReal : path.join(workspace.rootReal, relative);
    names = names.filter((name) => !isHiddenHostFile(workspace.hostFiles, workspace.rootReal, path.join(directoryReal, name)));
    names.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
    const shownNames = names.slice(0, LIST_DIR_MAX_ENTRIES);
    const entries = shownNames.map((name) => describeEntry(workspace, dirFd, relative, name));
    const truncated = names.length > shownNames.length;
    const header = `${relative === '.' ? '. (workspace root)' : `${relative}/`}`;
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
      path: relative,
      entries: entries.length,
      total_entries: names.length,
      directories: count('directory'),
      files: count('file'),
      symlinks: count('symlink'),
      truncated,
    });
  } finally {
    fs.closeSync(dirFd);
  }
}
