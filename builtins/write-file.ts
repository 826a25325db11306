import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, errorResult, textResult } from '../src/index.ts';
import { describeFileSystemError, formatBytes } from './internal/files.ts';
import { resolveWorkspacePath } from './internal/workspace.ts';

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
    const resolution = await resolveWorkspacePath(context.workspaceRoot, input.path);
    if (!resolution.ok) return errorResult(resolution.message);
    const target = resolution.path;
    if (target.relative === '.') {
      return errorResult('The workspace root is a directory and cannot be written as a file; give a file path such as "notes.txt".');
    }
    let existed = false;
    if (target.exists) {
      try {
        const stats = await stat(target.real);
        if (stats.isDirectory()) {
          return errorResult(`"${target.relative}" is a directory; write_file needs a file path. Choose a file name inside it, e.g. "${target.relative}/file.txt".`);
        }
        if (!stats.isFile()) return errorResult(`"${target.relative}" is not a regular file and cannot be written.`);
        existed = true;
      } catch (error) {
        return errorResult(describeFileSystemError(error, target.relative));
      }
    }
    try {
      await mkdir(path.dirname(target.real), { recursive: true });
      await writeFile(target.real, input.content, 'utf8');
    } catch (error) {
      return errorResult(describeFileSystemError(error, target.relative));
    }
    const bytes = Buffer.byteLength(input.content, 'utf8');
    const verb = existed ? 'Overwrote' : 'Created';
    return textResult(`${verb} "${target.relative}" (${formatBytes(bytes)}).`, {
      path: target.relative,
      bytes_written: bytes,
      created: !existed,
      overwritten: existed,
    });
  },
});
