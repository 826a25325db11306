/**
 * OpenAI Chat Completions. In: an assistant message `{role: "assistant", tool_calls: [{id,
 * type: "function", function: {name, arguments: "<json>"}}]}` or a chat completion
 * `{choices: [{message}]}` (the first choice). Out: one `{role: "tool", tool_call_id, content}`
 * message per call, in call order. Failures are prefixed "Error: " (the format has no error flag).
 */
import { contentWithErrorPrefix, DispatchShapeError, requireString, type ExecutedToolCall, type ProviderAdapter, type ToolCallRequest } from './types.ts';
import { isPlainObject } from '../../json-value.ts';

export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

function assistantMessageOf(body: unknown): Record<string, unknown> {
  if (isPlainObject(body) && Array.isArray(body['choices'])) {
    const first: unknown = body['choices'][0];
    if (!isPlainObject(first) || !isPlainObject(first['message'])) throw new DispatchShapeError('choices[0].message must be an assistant message object.');
    return first['message'];
  }
  if (!isPlainObject(body)) throw new DispatchShapeError('An OpenAI assistant message is an object {"role": "assistant", "tool_calls": [...]} (or a chat completion with "choices").');
  return body;
}

export const openAIChatAdapter: ProviderAdapter = {
  provider: 'openai',

  matches(body) {
    return isPlainObject(body) && (Array.isArray(body['choices']) || Array.isArray(body['tool_calls']));
  },

  extractCalls(body) {
    const message = assistantMessageOf(body);
    const prefix = isPlainObject(body) && Array.isArray(body['choices']) ? 'choices[0].message.' : '';
    if (message['role'] !== undefined && message['role'] !== 'assistant') {
      throw new DispatchShapeError(`${prefix}role must be "assistant", received ${JSON.stringify(message['role'])}.`);
    }
    const toolCalls = message['tool_calls'];
    if (toolCalls === undefined || toolCalls === null) return [];
    if (!Array.isArray(toolCalls)) throw new DispatchShapeError(`${prefix}tool_calls must be an array.`);
    return toolCalls.map((toolCall: unknown, index): ToolCallRequest => {
      const where = `${prefix}tool_calls[${index}]`;
      if (!isPlainObject(toolCall)) throw new DispatchShapeError(`${where} must be an object.`);
      if (toolCall['type'] !== undefined && toolCall['type'] !== 'function') {
        throw new DispatchShapeError(`${where}.type ${JSON.stringify(toolCall['type'])} is not supported; only "function" tool calls can be dispatched.`);
      }
      const fn = toolCall['function'];
      if (!isPlainObject(fn)) throw new DispatchShapeError(`${where}.function must be an object {"name", "arguments"}.`);
      return { id: requireString(toolCall['id'], `${where}.id`), name: requireString(fn['name'], `${where}.function.name`), arguments: fn['arguments'] ?? {} };
    });
  },

  formatResults(executed: readonly ExecutedToolCall[]): OpenAIToolMessage[] {
    return executed.map(({ call, result }) => ({ role: 'tool', tool_call_id: call.id ?? '', content: contentWithErrorPrefix(result) }));
  },
};
