/**
 * read_file: returns a text file of the workspace, whole or by lines.
 *
 * The file is opened beneath the workspace root fd (confined walk, `O_NOFOLLOW | O_NONBLOCK`, see
 * internal/workspace.ts) and everything after that works on the open fd: `fstat` decides file vs.
 * directory vs. special file (a FIFO is refused, never read, so it cannot hang the call), and the
 * content is read asynchronously from the fd. A hard-linked file is read like any other: a hard link
 * can only be made by someone who could already read its target (Linux `protected_hardlinks`).
 */
import fs, { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { errorResult, textResult, type ToolResult } from '../src/result.ts';
import { defineTool } from '../src/tool.ts';
import { MAX_TEXT_FILE_BYTES, descriptorLooksBinary, formatBytes, looksBinary, readDescriptor } from './internal/files.ts';
import { describeWorkspaceError, openRequestedEntry, openWorkspace, type Workspace } from './internal/workspace.ts';
import { hostFilesOf } from './internal/host-files.ts';

/** Lines returned when the caller gives no `limit`. */
export const READ_FILE_DEFAULT_LIMIT = 2000;
/** Most characters one read returns; longer selections stop at a whole line and say how to continue. */
export const READ_FILE_MAX_OUTPUT_CHARS = 256 * 1024;

/** Character index where each line starts; a final newline does not start an extra line. */
function lineStarts(text: string): number[] {
  if (text.length === 0) return [];
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1 && index + 1 < text.length; index = text.indexOf('\n', index + 1)) {
    starts.push(index + 1);
  }
  return starts;
}

interface StreamedLines {
  text: string;
  startLine: number;
  endLine: number;
  /** True when the file has more content after `endLine`. */
  more: boolean;
}

/**
 * Reads lines `startLine`..`startLine + limit - 1` of a large file without loading it whole,
 * keeping line endings exactly. Stops reading as soon as the selection is complete.
 */
async function streamLines(fd: number, startLine: number, limit: number, signal: AbortSignal): Promise<StreamedLines> {
  const stream = createReadStream('', { fd, autoClose: false, start: 0, highWaterMark: 1024 * 1024, signal });
  const decoder = new StringDecoder('utf8');
  const lastLine = startLine + limit - 1;
  let currentLine = 1;
  let collected = '';
  let collectedChars = 0;
  let endLine = startLine - 1;
  try {
    for await (const chunk of stream) {
      const text = decoder.write(chunk as Buffer);
      let position = 0;
      while (position < text.length) {
        const newline = text.indexOf('\n', position);
        const pieceEnd = newline === -1 ? text.length : newline + 1;
        if (currentLine >= startLine && currentLine <= lastLine) {
          const room = READ_FILE_MAX_OUTPUT_CHARS - collectedChars;
          const piece = text.slice(position, pieceEnd);
          if (piece.length > room) {
            // The selection would grow too long: stop before this line (or cut the first line).
            if (endLine < startLine) {
              collected += piece.slice(0, room);
              endLine = startLine;
            }
            return { text: collected, startLine, endLine, more: true };
          }
          collected += piece;
          collectedChars += piece.length;
          endLine = currentLine;
        } else if (currentLine > lastLine) {
          return { text: collected, startLine, endLine, more: true };
        }
        if (newline === -1) break;
        currentLine += 1;
        position = pieceEnd;
      }
    }
    return { text: collected, startLine, endLine, more: false };
  } finally {
    stream.destroy();
  }
}

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file from the workspace. The path is relative to the workspace root. Returns the exact file content ' +
    '(no line numbers added), so text can be copied verbatim into edit_file. Long files are returned in pages: use ' +
    'offset (1-based first line) and limit (number of lines) to read a part; the result says which lines were shown ' +
    'and how to continue. Binary files and files over 10 MB (without offset/limit) are refused. Use it before editing ' +
    'a file, or to inspect code found with glob or grep.',
  permission: 'read_only',
  input: z.object({
    path: z.string().min(1).describe('File to read, relative to the workspace root (e.g. "src/index.ts"). Absolute paths must be inside the workspace.'),
    offset: z.number().int().min(1).optional().describe('1-based line number to start reading at. Default: 1.'),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Maximum number of lines to return. Default: ${READ_FILE_DEFAULT_LIMIT}.`),
  }),
  secretParams: [],
  async execute(input, context) {
    const opening = openWorkspace(context.workspaceRoot, hostFilesOf(context.sandbox));
    if (!opening.ok) return errorResult(opening.message);
    try {
      return await readWithin(opening.workspace, input, context.signal);
    } finally {
      opening.workspace.close();
    }
  },
});

interface ReadInput {
  path: string;
  offset?: number | undefined;
  limit?: number | undefined;
}

function missingFile(requested: string): ToolResult {
  return errorResult(`File "${requested}" does not exist. Check the path with list_dir or glob (paths are relative to the workspace root).`);
}

/** Opens the requested file beneath the workspace fd and reads it from that fd. */
async function readWithin(workspace: Workspace, input: ReadInput, signal: AbortSignal): Promise<ToolResult> {
  const opened = openRequestedEntry(workspace, input.path);
  if (!opened.ok) return opened.missing ? missingFile(input.path) : errorResult(opened.message);
  const { fd, stats, relative } = opened;
  try {
    return await readOpenFile(fd, stats, relative, input, signal);
  } catch (error) {
    return errorResult(describeWorkspaceError(error, input.path, relative));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads the opened file (fd + its fstat) as `input` asks: whole, by lines, or streamed when large.
 * This pass refuses what is not a readable file and picks the reader: a file over the read limit is
 * streamed (only when paged), a smaller one is read whole and paged in memory.
 */
async function readOpenFile(fd: number, stats: fs.Stats, relative: string, input: ReadInput, signal: AbortSignal): Promise<ToolResult> {
  if (stats.isDirectory()) {
    return errorResult(`"${relative}" is a directory, not a file. Use list_dir to see its contents.`);
  }
  if (!stats.isFile()) return errorResult(`"${relative}" is not a regular file and cannot be read.`);
  const size = stats.size;
  const paged = input.offset !== undefined || input.limit !== undefined;
  if (size > MAX_TEXT_FILE_BYTES && !paged) {
    return errorResult(
      `"${relative}" is ${formatBytes(size)}, over the ${formatBytes(MAX_TEXT_FILE_BYTES)} read limit. ` +
        `Read a part of it with offset and limit (e.g. offset=1, limit=200), or search it with grep.`,
      { path: relative, size },
    );
  }
  if (size > MAX_TEXT_FILE_BYTES) return readLargeFile(fd, size, relative, input, signal);
  return readWholeFile(fd, size, relative, input);
}

/** A file over the read limit, read with offset/limit: streamed line by line from `offset`, never held whole. */
async function readLargeFile(fd: number, size: number, relative: string, input: ReadInput, signal: AbortSignal): Promise<ToolResult> {
  if (await descriptorLooksBinary(fd)) {
    return errorResult(
      `"${relative}" is a binary file (${formatBytes(size)}); read_file only returns text. ` +
        `Use shell (e.g. "file" or "xxd | head") to inspect it if needed.`,
      { path: relative, size, binary: true },
    );
  }
  const startLine = input.offset ?? 1;
  const streamed = await streamLines(fd, startLine, input.limit ?? READ_FILE_DEFAULT_LIMIT, signal);
  if (streamed.endLine < startLine) {
    return errorResult(`offset ${startLine} is past the end of "${relative}". Use a smaller offset.`, {
      path: relative,
      size,
    });
  }
  const note = streamed.more
    ? `[showing lines ${startLine}-${streamed.endLine} of a ${formatBytes(size)} file; call read_file with offset=${streamed.endLine + 1} to continue]`
    : `[showing lines ${startLine}-${streamed.endLine}; end of file]`;
  return textResult(`${streamed.text}${streamed.text.endsWith('\n') ? '' : '\n'}${note}`, {
    path: relative,
    total_lines: streamed.more ? null : streamed.endLine,
    start_line: startLine,
    end_line: streamed.endLine,
    truncated: true,
    size,
  });
}

/** A file within the read limit: read whole, refused when binary, then paged by `selectLines`. */
async function readWholeFile(fd: number, size: number, relative: string, input: ReadInput): Promise<ToolResult> {
  const buffer = await readDescriptor(fd, size, MAX_TEXT_FILE_BYTES);
  if (looksBinary(buffer)) {
    return errorResult(
      `"${relative}" is a binary file (${formatBytes(buffer.length)}); read_file only returns text. ` +
        `Use shell (e.g. "file" or "xxd | head") to inspect it if needed.`,
      { path: relative, size: buffer.length, binary: true },
    );
  }
  return selectLines(buffer.toString('utf8'), buffer.length, relative, input);
}

/**
 * The lines `input` asks for out of a file's text, cut to at most READ_FILE_MAX_OUTPUT_CHARS at a
 * line end (or inside the first line when it alone is longer), with a note on how to go on.
 */
function selectLines(text: string, size: number, relative: string, input: ReadInput): ToolResult {
  const starts = lineStarts(text);
  const totalLines = starts.length;
  const startLine = input.offset ?? 1;
  const limit = input.limit ?? READ_FILE_DEFAULT_LIMIT;
  if (totalLines === 0) {
    if (startLine > 1) {
      return errorResult(`offset ${startLine} is past the end of "${relative}": the file is empty.`);
    }
    return textResult(`[empty file: "${relative}" has 0 bytes]`, {
      path: relative,
      total_lines: 0,
      start_line: 0,
      end_line: 0,
      truncated: false,
      size: 0,
    });
  }
  if (startLine > totalLines) {
    return errorResult(
      `offset ${startLine} is past the end of "${relative}", which has ${totalLines} lines. Use an offset between 1 and ${totalLines}.`,
      { path: relative, total_lines: totalLines },
    );
  }
  let endLine = Math.min(totalLines, startLine + limit - 1);
  const startIndex = starts[startLine - 1] as number;
  const endIndexOf = (line: number): number => (line < totalLines ? (starts[line] as number) : text.length);
  // Stop at a whole line when the selection is too long; keep at least part of the first line.
  let cutFirstLine = false;
  if (endIndexOf(endLine) - startIndex > READ_FILE_MAX_OUTPUT_CHARS) {
    while (endLine > startLine && endIndexOf(endLine) - startIndex > READ_FILE_MAX_OUTPUT_CHARS) endLine -= 1;
    if (endIndexOf(endLine) - startIndex > READ_FILE_MAX_OUTPUT_CHARS) cutFirstLine = true;
  }
  const endIndex = cutFirstLine ? startIndex + READ_FILE_MAX_OUTPUT_CHARS : endIndexOf(endLine);
  let content = text.slice(startIndex, endIndex);
  const truncated = startLine > 1 || endLine < totalLines || cutFirstLine;
  if (cutFirstLine) {
    content += `\n[line ${startLine} is longer than ${READ_FILE_MAX_OUTPUT_CHARS} characters and was cut; use grep or shell to inspect it]`;
  }
  if (endLine < totalLines) {
    content +=
      `${content.endsWith('\n') ? '' : '\n'}[showing lines ${startLine}-${endLine} of ${totalLines}; ` +
      `call read_file with offset=${endLine + 1} to continue]`;
  } else if (startLine > 1) {
    content += `${content.endsWith('\n') ? '' : '\n'}[showing lines ${startLine}-${endLine} of ${totalLines}; end of file]`;
  }
  return textResult(content, {
    path: relative,
    total_lines: totalLines,
    start_line: startLine,
    end_line: endLine,
    truncated,
    size,
  });
}
