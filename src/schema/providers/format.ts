/** One switch from a tool list to any wire format a client asks for (`?format=` / `--format`). */
import type { PermissionLevel } from '../../permission.ts';
import type { AnyTool, ToolSource } from '../../tool.ts';
import type { JsonSchema } from '../normalize.ts';
import { toAnthropicTool } from './anthropic.ts';
import { toGeminiFunctionDeclaration } from './gemini.ts';
import { toMcpTool } from './mcp.ts';
import { toOpenAITool } from './openai.ts';
import { toUnionSchema } from './union.ts';

export const TOOL_LIST_FORMATS = ['raw', 'anthropic', 'openai', 'gemini', 'mcp'] as const;
export type ToolListFormat = (typeof TOOL_LIST_FORMATS)[number];

/**
 * Formats that describe the whole tool set as ONE document instead of a list of tools: `union` is
 * the assistant-turn JSON Schema for guided decoding (see ./union.ts). They are kept apart from
 * TOOL_LIST_FORMATS because their answer is not one entry per tool.
 */
export const TOOL_SET_FORMATS = ['union'] as const;
export type ToolSetFormat = (typeof TOOL_SET_FORMATS)[number];

export function isToolSetFormat(value: unknown): value is ToolSetFormat {
  return typeof value === 'string' && (TOOL_SET_FORMATS as readonly string[]).includes(value);
}

/** The one document a tool-set format answers with (`GET /v1/tools?format=union`, `toolhost list --format union`). */
export function formatToolSet(tools: readonly AnyTool[], format: ToolSetFormat): JsonSchema {
  switch (format) {
    case 'union':
      return toUnionSchema(tools);
  }
}

/** The host's own description of a tool: everything but the code. */
export interface RawTool {
  name: string;
  description: string;
  source: ToolSource;
  permission: PermissionLevel;
  network: boolean;
  inputSchema: JsonSchema;
  /** The declared output schema (see Tool.outputSchema); absent when none. */
  outputSchema?: JsonSchema;
}

export function isToolListFormat(value: unknown): value is ToolListFormat {
  return typeof value === 'string' && (TOOL_LIST_FORMATS as readonly string[]).includes(value);
}

export function toRawTool(tool: AnyTool): RawTool {
  return {
    name: tool.name,
    description: tool.description,
    source: tool.source,
    permission: tool.permission,
    network: tool.network,
    inputSchema: structuredClone(tool.inputSchema),
    ...(tool.outputSchema !== undefined ? { outputSchema: structuredClone(tool.outputSchema) } : {}),
  };
}

export function formatTool(tool: AnyTool, format: ToolListFormat): unknown {
  switch (format) {
    case 'raw':
      return toRawTool(tool);
    case 'anthropic':
      return toAnthropicTool(tool);
    case 'openai':
      return toOpenAITool(tool);
    case 'gemini':
      return toGeminiFunctionDeclaration(tool);
    case 'mcp':
      return toMcpTool(tool);
  }
}

export function formatToolList(tools: readonly AnyTool[], format: ToolListFormat): unknown[] {
  return tools.map((tool) => formatTool(tool, format));
}
