import { readFile, stat, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, errorResult, textResult } from '../src/index.ts';
import { MAX_TEXT_FILE_BYTES, describeFileSystemError, formatBytes, looksBinary } from './internal/files.ts';
import { resolveWorkspacePath } from './internal/workspace.ts';

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
    const resolution = await resolveWorkspacePath(context.workspaceRoot, input.path);
    if (!resolution.ok) return errorResult(resolution.message);
    const target = resolution.path;
    if (!target.exists) {
      return errorResult(
        `File "${input.path}" does not exist. Check the path with list_dir or glob; to create a new file use write_file.`,
      );
    }
    let buffer: Buffer;
    try {
      const stats = await stat(target.real);
      if (stats.isDirectory()) return errorResult(`"${target.relative}" is a directory, not a file. Give the path of a file to edit.`);
      if (!stats.isFile()) return errorResult(`"${target.relative}" is not a regular file and cannot be edited.`);
      if (stats.size > MAX_TEXT_FILE_BYTES) {
        return errorResult(
          `"${target.relative}" is ${formatBytes(stats.size)}, over the ${formatBytes(MAX_TEXT_FILE_BYTES)} edit limit; edit it with shell tools (e.g. sed) instead.`,
        );
      }
      buffer = await readFile(target.real);
    } catch (error) {
      return errorResult(describeFileSystemError(error, target.relative));
    }
    if (looksBinary(buffer)) {
      return errorResult(`"${target.relative}" is a binary file (${formatBytes(buffer.length)}); edit_file only edits text files.`);
    }
    const text = buffer.toString('utf8');
    const occurrences = findOccurrences(text, input.old_string);
    if (occurrences.length === 0) {
      return errorResult(notFoundMessage(target.relative, text, input.old_string), { path: target.relative, replacements: 0 });
    }
    if (occurrences.length > 1 && !input.replace_all) {
      const lines = occurrences.slice(0, 10).map((index) => lineNumberAt(text, index));
      const more = occurrences.length > lines.length ? ', ...' : '';
      return errorResult(
        `old_string matches ${occurrences.length} times in "${target.relative}" (at lines ${lines.join(', ')}${more}), ` +
          `so the edit is ambiguous. Include more surrounding lines in old_string to make it unique, or set replace_all ` +
          `to true to replace every occurrence.`,
        { path: target.relative, matches: occurrences.length, replacements: 0 },
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
    try {
      await writeFile(target.real, updated, 'utf8');
    } catch (error) {
      return errorResult(describeFileSystemError(error, target.relative));
    }
    const firstLine = lineNumberAt(text, occurrences[0] as number);
    const count = occurrences.length;
    return textResult(
      `Replaced ${count} ${count === 1 ? 'occurrence' : 'occurrences'} in "${target.relative}"${count === 1 ? ` at line ${firstLine}` : ''}.`,
      { path: target.relative, replacements: count, first_line: firstLine },
    );
  },
});
