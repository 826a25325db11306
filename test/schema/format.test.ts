import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOL_LIST_FORMATS, formatToolList, isToolListFormat, toRawTool } from '../../src/schema/providers/format.ts';
import { toAnthropicTool } from '../../src/schema/providers/anthropic.ts';
import type { AnyTool } from '../../src/tool.ts';
import { makeTool } from './tool-fixtures.ts';

const tools: AnyTool[] = [
  makeTool('read_file', z.object({ path: z.string(), offset: z.number().int().optional() }), 'read_only'),
  makeTool('Write-File_2', z.object({ path: z.string(), content: z.string() }), 'write'),
  makeTool('x', z.object({}), 'none'),
  makeTool('a'.repeat(64), z.object({ command: z.array(z.string()) }), 'execute', true),
];

/** Where each format puts the tool name. */
function nameIn(format: string, entry: unknown): unknown {
  const record = entry as Record<string, Record<string, unknown>>;
  return format === 'openai' ? record['function']?.['name'] : (entry as Record<string, unknown>)['name'];
}

describe('formatToolList', () => {
  it.each(TOOL_LIST_FORMATS)('keeps every tool, in order, with its exact name in the %s format', (format) => {
    const formatted = formatToolList(tools, format);
    expect(formatted.map((entry) => nameIn(format, entry))).toEqual(tools.map((tool) => tool.name));
  });

  it('raw carries the host description of each tool', () => {
    const [first] = formatToolList(tools, 'raw');
    const tool = tools[0]!;
    expect(first).toEqual({
      name: 'read_file',
      description: 'The read_file tool',
      source: 'builtin',
      permission: 'read_only',
      network: false,
      inputSchema: tool.inputSchema,
    });
    expect(Object.keys(toRawTool(tool)).sort()).toEqual(['description', 'inputSchema', 'name', 'network', 'permission', 'source']);
  });

  it('anthropic uses input_schema with the normalized schema', () => {
    const tool = tools[1]!;
    expect(toAnthropicTool(tool)).toEqual({ name: 'Write-File_2', description: 'The Write-File_2 tool', input_schema: tool.inputSchema });
    expect(formatToolList([tool], 'anthropic')).toEqual([toAnthropicTool(tool)]);
  });

  it('returns copies: changing a formatted schema leaves the tool untouched', () => {
    const tool = tools[0]!;
    const before = structuredClone(tool.inputSchema);
    for (const format of TOOL_LIST_FORMATS) {
      const [entry] = formatToolList([tool], format);
      mutateEverySchema(entry);
    }
    expect(tool.inputSchema).toEqual(before);
  });

  it('recognises exactly the known formats', () => {
    for (const format of TOOL_LIST_FORMATS) expect(isToolListFormat(format)).toBe(true);
    for (const value of ['', 'RAW', 'claude', 'json', 42, null, undefined]) expect(isToolListFormat(value)).toBe(false);
  });
});

function mutateEverySchema(value: unknown): void {
  if (Array.isArray(value)) value.forEach(mutateEverySchema);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const child of Object.values(record)) mutateEverySchema(child);
    if ('properties' in record) record['properties'] = { injected: { type: 'string' } };
  }
}
