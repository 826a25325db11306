/** Anthropic Messages API tool definition: the normalized schema is accepted as it is. */
import type { JsonSchema } from '../normalize.ts';
import type { ToolDescriptor } from './tool-descriptor.ts';

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

export function toAnthropicTool(tool: ToolDescriptor): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: structuredClone(tool.inputSchema) };
}
