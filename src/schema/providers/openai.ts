/**
 * OpenAI Chat Completions function tool. `strict: true` is set only when the schema satisfies
 * OpenAI's Structured Outputs rules (see ../openai-strict.ts: root object; every object has
 * additionalProperties: false and lists all its properties in required; only supported
 * keywords, types and string formats; size limits). Otherwise `strict` is omitted and the
 * schema is sent unchanged: it is never rewritten to force strict mode, because making an
 * optional field required-but-nullable would change what the tool's parser accepts.
 */
import type { JsonSchema } from '../normalize.ts';
import { isOpenAIStrictCompatible } from '../openai-strict.ts';
import type { ToolDescriptor } from './tool-descriptor.ts';

export interface OpenAIFunction {
  name: string;
  description: string;
  parameters: JsonSchema;
  strict?: true;
}

export interface OpenAITool {
  type: 'function';
  function: OpenAIFunction;
}

export function toOpenAITool(tool: ToolDescriptor): OpenAITool {
  const parameters = structuredClone(tool.inputSchema);
  const definition: OpenAIFunction = { name: tool.name, description: tool.description, parameters };
  if (isOpenAIStrictCompatible(parameters)) definition.strict = true;
  return { type: 'function', function: definition };
}
