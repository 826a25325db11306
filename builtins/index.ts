/** The built-in tools: file access confined to the workspace, search, a shell with background processes, tool search and code mode. */
import type { AnyTool } from '../src/tool.ts';
import { editFileTool } from './edit-file.ts';
import { globTool } from './glob.ts';
import { grepTool } from './grep.ts';
import { listDirTool } from './list-dir.ts';
import { processTool } from './process.ts';
import { readFileTool } from './read-file.ts';
import { runCodeTool } from './run-code.ts';
import { searchToolsTool } from './search-tools.ts';
import { shellTool } from './shell.ts';
import { writeFileTool } from './write-file.ts';

export { editFileTool, globTool, grepTool, listDirTool, processTool, readFileTool, runCodeTool, searchToolsTool, shellTool, writeFileTool };

/** Every built-in tool, in a stable order. */
export const builtinTools: readonly AnyTool[] = Object.freeze([
  readFileTool,
  writeFileTool,
  editFileTool,
  listDirTool,
  globTool,
  grepTool,
  shellTool,
  processTool,
  searchToolsTool,
  runCodeTool,
]);
