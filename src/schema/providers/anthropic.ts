/**
 * Anthropic Messages API tool definition: the normalized schema is accepted as it is. A tool whose
 * schema has top-level `examples` (argument objects: a wasm tool's example calls,
 * src/introspect/examples/) also carries them as `input_examples`, Anthropic's field for example
 * inputs of a tool.
 */
import type { JsonSchema } from '../normalize.ts';
import type { ToolDescriptor } from './tool-descriptor.ts';

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
  /** Example argument objects, each valid against `input_schema`; absent when the tool has none. */
  input_examples?: Record<string, unknown>[];
}

/** The schema's top-level `examples` that are argument objects. */
export function inputExamplesOfSchema(schema: JsonSchema): Record<string, unknown>[] {
  const examples = (schema as Record<string, unknown>)['examples'];
  if (!Array.isArray(examples)) return [];
  return examples.filter((example): example is Record<string, unknown> => typeof example === 'object' && example !== null && !Array.isArray(example));
}

export function toAnthropicTool(tool: ToolDescriptor): AnthropicTool {
  const examples = inputExamplesOfSchema(tool.inputSchema);
  return {
    name: tool.name,
    description: tool.description,
    input_schema: structuredClone(tool.inputSchema),
    ...(examples.length > 0 ? { input_examples: structuredClone(examples) } : {}),
  };
}
