/**
 * edit_file: exact string replacement in a text file of the workspace.
 *
 * The file is resolved beneath the workspace root fd and opened with `O_NOFOLLOW | O_NONBLOCK`
 * (internal/workspace.ts); it is checked (`fstat`: a regular file, not a hard link, not too large) and
 * read from that fd. The edited text replaces it like write_file does: a fsynced temp file in the held
 * parent directory renamed over it (src/confined-fs/replace-file.ts), so a crash leaves the old or
 * the new text, never a mix, and its permission bits are kept. If the file was replaced by another
 * writer between the read and the rename, the edit is refused instead of overwriting that change.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { errorResult, textResult, type ToolResult } from '../src/result.ts';
import { defineTool } from '../src/tool.ts';
import { entryPath, openEntry } from '../src/confined-fs/open-beneath.ts';
import { replaceFileAt } from '../src/confined-fs/replace-file.ts';
import { MAX_TEXT_FILE_BYTES, errorCodeOf, formatBytes, looksBinary, readDescriptor } from './internal/files.ts';
import { describeWorkspaceError, hardLinkMessage, locateEntry, openWorkspace, toRelativeRequest, type LocatedEntry, type Workspace } from './internal/workspace.ts';
import { hostFilesOf } from './internal/host-files.ts';

/** Start indexes of every non-overlapping occurrence of `needle` in `haystack`. */
function findOccurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length)) {
    found.push(index);
  }
  return found;
}

/** 1-based line number of a character index. */
function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let position = text.indexOf('\n'); position !== -1 && position < index; position = text.indexOf('\n', position + 1)) {
    line += 1;
  }
  return line;
}

function notFoundMessage(relative: string, text: string, oldString: string): string {
  let hint = '';
  if (text.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n')) {
    hint = ' The file uses CRLF (\\r\\n) line endings; old_string must use them too.';
  } else if (oldString.trim() !== oldString && text.includes(oldString.trim())) {
    hint = ' The text matches when its leading/trailing whitespace is removed: check spaces, tabs and newlines at its ends.';
  }
  return (
    `old_string was not found in "${relative}". It must match the file exactly, including whitespace, indentation ` +
    `and line breaks. Read the file with read_file and copy the text to replace verbatim.${hint}`
  );
}

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Edit a text file in the workspace by exact string replacement. The path is relative to the workspace root. ' +
    'old_string must appear in the file exactly once (copy it verbatim from read_file output, with enough surrounding ' +
    'lines to be unique) and is replaced by new_string; set replace_all to replace every occurrence instead. ' +
    'Use it for targeted changes to existing files; use write_file to create a file.',
  permission: 'write',
  input: z.object({
    path: z.string().min(1).describe('File to edit, relative to the workspace root (e.g. "src/index.ts"). Absolute paths must be inside the workspace.'),
    old_string: z
      .string()
      .min(1)
      .describe('The exact text to replace, including whitespace and indentation. Must occur exactly once unless replace_all is true.'),
    new_string: z.string().describe('The text to put in place of old_string. Must differ from old_string; may be empty to delete.'),
    replace_all: z.boolean().default(false).describe('Replace every occurrence of old_string instead of requiring exactly one. Default: false.'),
  }),
  secretParams: [],
  async execute(input, context) {
    if (input.old_string === input.new_string) {
      return errorResult('old_string and new_string are identical, so the edit would change nothing. Give the new text in new_string.');
    }
    const opening = openWorkspace(context.workspaceRoot, hostFilesOf(context.sandbox));
    if (!opening.ok) return errorResult(opening.message);
    try {
      return await editWithin(opening.workspace, input);
    } finally {
      opening.workspace.close();
    }
  },
});

interface EditInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all: boolean;
}

/** Locates the file beneath the workspace fd, then edits it in its held parent directory. */
async function editWithin(workspace: Workspace, input: EditInput): Promise<ToolResult> {
  const request = toRelativeRequest(workspace, input.path);
  if (!request.ok) return errorResult(request.message);
  let entry: LocatedEntry;
  try {
    entry = locateEntry(workspace, request.relative, 'write');
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return missingFile(input.path);
    return errorResult(describeWorkspaceError(error, input.path));
  }
  try {
    return await editEntry(entry, input);
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === 'ENOENT') return missingFile(input.path);
    return errorResult(describeWorkspaceError(error, input.path, entry.relative));
  } finally {
    entry.release();
  }
}

function missingFile(requested: string): ToolResult {
  return errorResult(`File "${requested}" does not exist. Check the path with list_dir or glob; to create a new file use write_file.`);
}

/** Reads the entry through an fd, applies the replacement and replaces the file durably. */
async function editEntry(entry: LocatedEntry, input: EditInput): Promise<ToolResult> {
  const relative = entry.relative;
  if (entry.name === '') return errorResult(`"${relative}" is a directory, not a file. Give the path of a file to edit.`);
  const { fd, stat: stats } = openEntry(entry.parentFd, entry.name, fs.constants.O_RDONLY);
  let buffer: Buffer;
  try {
    if (stats.isDirectory()) return errorResult(`"${relative}" is a directory, not a file. Give the path of a file to edit.`);
    if (!stats.isFile()) return errorResult(`"${relative}" is not a regular file and cannot be edited.`);
    if (stats.nlink > 1) return errorResult(hardLinkMessage(relative), { path: relative, hard_links: stats.nlink });
    // The rename only needs the directory writable: keep a read-only file read-only as a plain write would.
    fs.closeSync(fs.openSync(entryPath(fd), fs.constants.O_WRONLY));
    if (stats.size > MAX_TEXT_FILE_BYTES) {
      return errorResult(
        `"${relative}" is ${formatBytes(stats.size)}, over the ${formatBytes(MAX_TEXT_FILE_BYTES)} edit limit; edit it with shell tools (e.g. sed) instead.`,
      );
    }
    buffer = await readDescriptor(fd, stats.size, MAX_TEXT_FILE_BYTES + 1);
  } finally {
    fs.closeSync(fd);
  }
  if (buffer.length > MAX_TEXT_FILE_BYTES) {
    return errorResult(`"${relative}" grew over the ${formatBytes(MAX_TEXT_FILE_BYTES)} edit limit while it was read; edit it with shell tools instead.`);
  }
  if (looksBinary(buffer)) {
    return errorResult(`"${relative}" is a binary file (${formatBytes(buffer.length)}); edit_file only edits text files.`);
  }
  const text = buffer.toString('utf8');
  const occurrences = findOccurrences(text, input.old_string);
  if (occurrences.length === 0) {
    return errorResult(notFoundMessage(relative, text, input.old_string), { path: relative, replacements: 0 });
  }
  if (occurrences.length > 1 && !input.replace_all) {
    const lines = occurrences.slice(0, 10).map((index) => lineNumberAt(text, index));
    const more = occurrences.length > lines.length ? ', ...' : '';
    return errorResult(
      `old_string matches ${occurrences.length} times in "${relative}" (at lines ${lines.join(', ')}${more}), ` +
        `so the edit is ambiguous. Include more surrounding lines in old_string to make it unique, or set replace_all ` +
        `to true to replace every occurrence.`,
      { path: relative, matches: occurrences.length, replacements: 0 },
    );
  }
  // Splice by index: String.prototype.replace would interpret "$&" and friends in new_string.
  let updated = '';
  let position = 0;
  for (const index of occurrences) {
    updated += text.slice(position, index) + input.new_string;
    position = index + input.old_string.length;
  }
  updated += text.slice(position);
  await replaceFileAt(entry.parentFd, entry.name, updated, {
    mode: stats.mode,
    beforeRename: () => {
      const current = fs.lstatSync(entryPath(entry.parentFd, entry.name), { throwIfNoEntry: false });
      if (current === undefined || current.ino !== stats.ino || current.dev !== stats.dev) {
        throw Object.assign(new Error(`"${relative}" was replaced by another writer while it was being edited; read it again and retry.`), {
          code: 'ECHANGED',
        });
      }
    },
  });
  const firstLine = lineNumberAt(text, occurrences[0] as number);
  const count = occurrences.length;
  return textResult(
    `Replaced ${count} ${count === 1 ? 'occurrence' : 'occurrences'} in "${relative}"${count === 1 ? ` at line ${firstLine}` : ''}.`,
    { path: relative, replacements: count, first_line: firstLine },
  );
}
