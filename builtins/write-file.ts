/**
 * write_file: creates a file or replaces its whole content, creating missing parent directories.
 *
 * Race-free and durable: parent directories are created one component at a time beneath the workspace
 * root fd (src/confined-fs/make-directories.ts), the target is resolved beneath it with `O_NOFOLLOW`
 * (internal/workspace.ts), and the content goes to a fresh temp file in the held parent directory that
 * is fsynced and renamed over the target, then the directory is fsynced (src/confined-fs/replace-file.ts):
 * a crash leaves the old content or the new one, never an empty or partial file. The old file's
 * permission bits are kept. A hard-linked target (more than one link) is refused: the other name may be
 * outside the workspace, and replacing this name would silently split the two.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { errorResult, textResult, type ToolResult } from '../src/result.ts';
import { defineTool } from '../src/tool.ts';
import { makeDirectoriesBeneath } from '../src/confined-fs/make-directories.ts';
import { entryPath, openEntry } from '../src/confined-fs/open-beneath.ts';
import { replaceFileAt } from '../src/confined-fs/replace-file.ts';
import { formatBytes } from './internal/files.ts';
import { describeWorkspaceError, hardLinkMessage, locateEntry, openWorkspace, toRelativeRequest, type Workspace } from './internal/workspace.ts';
import { hostFilesOf } from './internal/host-files.ts';

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create a file in the workspace, or replace the whole content of an existing one. The path is relative to the ' +
    'workspace root; missing parent directories are created. Use it for new files or complete rewrites; to change ' +
    'part of an existing file prefer edit_file, which cannot lose the rest of the file.',
  permission: 'write',
  input: z.object({
    path: z.string().min(1).describe('File to write, relative to the workspace root (e.g. "src/new-module.ts"). Absolute paths must be inside the workspace.'),
    content: z.string().describe('The complete new content of the file (UTF-8 text). Replaces any existing content.'),
  }),
  secretParams: [],
  async execute(input, context) {
    const opening = openWorkspace(context.workspaceRoot, hostFilesOf(context.sandbox));
    if (!opening.ok) return errorResult(opening.message);
    try {
      return await writeWithin(opening.workspace, input.path, input.content);
    } finally {
      opening.workspace.close();
    }
  },
});

const ROOT_IS_DIRECTORY = 'The workspace root is a directory and cannot be written as a file; give a file path such as "notes.txt".';

/** Creates the parents, checks the target and replaces it, all beneath the workspace fd. */
async function writeWithin(workspace: Workspace, requested: string, content: string): Promise<ToolResult> {
  const request = toRelativeRequest(workspace, requested);
  if (!request.ok) return errorResult(request.message);
  if (request.relative === '.') return errorResult(ROOT_IS_DIRECTORY);
  const parent = path.posix.dirname(request.relative);
  let entry;
  try {
    if (parent !== '.') makeDirectoriesBeneath(workspace.anchorFd, parent);
    entry = locateEntry(workspace, request.relative, 'write');
  } catch (error) {
    return errorResult(describeWorkspaceError(error, requested, request.relative));
  }
  try {
    const relative = entry.relative;
    if (entry.name === '') {
      if (relative === '.') return errorResult(ROOT_IS_DIRECTORY);
      return errorResult(`"${relative}" is a directory; write_file needs a file path. Choose a file name inside it, e.g. "${relative}/file.txt".`);
    }
    const existing = fs.lstatSync(entryPath(entry.parentFd, entry.name), { throwIfNoEntry: false });
    if (existing?.isDirectory()) {
      return errorResult(`"${relative}" is a directory; write_file needs a file path. Choose a file name inside it, e.g. "${relative}/file.txt".`);
    }
    if (existing !== undefined && !existing.isFile()) return errorResult(`"${relative}" is not a regular file and cannot be written.`);
    if (existing !== undefined && existing.nlink > 1) return errorResult(hardLinkMessage(relative), { path: relative, hard_links: existing.nlink });
    // The rename only needs the directory writable: keep a read-only file read-only as a plain write would.
    if (existing !== undefined) fs.closeSync(openEntry(entry.parentFd, entry.name, fs.constants.O_WRONLY).fd);
    await replaceFileAt(entry.parentFd, entry.name, content, existing === undefined ? {} : { mode: existing.mode });
    const bytes = Buffer.byteLength(content, 'utf8');
    const existed = existing !== undefined;
    return textResult(`${existed ? 'Overwrote' : 'Created'} "${relative}" (${formatBytes(bytes)}).`, {
      path: relative,
      bytes_written: bytes,
      created: !existed,
      overwritten: existed,
    });
  } catch (error) {
    return errorResult(describeWorkspaceError(error, requested, entry.relative));
  } finally {
    entry.release();
  }
}
