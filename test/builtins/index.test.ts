import { describe, expect, it } from 'vitest';
import {
  builtinTools,
  editFileTool,
  globTool,
  grepTool,
  listDirTool,
  processTool,
  readFileTool,
  runCodeTool,
  searchToolsTool,
  shellTool,
  writeFileTool,
} from '../../builtins/index.ts';

describe('builtinTools', () => {
  it('holds the ten built-ins in a stable order', () => {
    expect(builtinTools.map((tool) => tool.name)).toEqual(['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'shell', 'process', 'search_tools', 'run_code']);
    expect(builtinTools).toEqual([readFileTool, writeFileTool, editFileTool, listDirTool, globTool, grepTool, shellTool, processTool, searchToolsTool, runCodeTool]);
    expect(Object.isFrozen(builtinTools)).toBe(true);
  });

  it('declares the expected permission of each tool', () => {
    expect(Object.fromEntries(builtinTools.map((tool) => [tool.name, tool.permission]))).toEqual({
      read_file: 'read_only',
      write_file: 'write',
      edit_file: 'write',
      list_dir: 'read_only',
      glob: 'read_only',
      grep: 'read_only',
      shell: 'execute',
      process: 'execute',
      search_tools: 'read_only',
      run_code: 'read_only',
    });
  });

  it.each(builtinTools.map((tool) => [tool.name, tool] as const))('%s is a described builtin object schema without secrets or network', (_name, tool) => {
    expect(tool.source).toBe('builtin');
    expect(tool.network).toBe(false);
    expect(tool.secretParams).toEqual([]);
    expect(tool.description.length).toBeGreaterThan(80);
    expect(tool.description).toMatch(/workspace/);
    expect(tool.inputSchema['type']).toBe('object');
    const properties = tool.inputSchema['properties'] as Record<string, { description?: string }>;
    expect(Object.keys(properties).length).toBeGreaterThan(0);
    for (const [field, schema] of Object.entries(properties)) {
      expect(schema.description, `${tool.name}.${field} needs a description`).toMatch(/\w{3,}/);
    }
  });
});
