/**
 * Anthropic Messages API. In: an assistant message `{role: "assistant", content: [...]}` or a whole
 * Messages API response `{type: "message", role: "assistant", content: [...]}`; every
 * `{type: "tool_use", id, name, input}` block is a call. Out: ONE user message whose content holds
 * a `{type: "tool_result", tool_use_id, content, is_error}` block per call, in call order.
 */
import { DispatchShapeError, requireString, type ExecutedToolCall, type ProviderAdapter, type ToolCallRequest } from './types.ts';
import { isPlainObject } from '../../json-value.ts';

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

export interface AnthropicToolResultMessage {
  role: 'user';
  content: AnthropicToolResultBlock[];
}

export const anthropicAdapter: ProviderAdapter = {
  provider: 'anthropic',

  matches(body) {
    return isPlainObject(body) && Array.isArray(body['content']) && (body['role'] === 'assistant' || body['type'] === 'message');
  },

  extractCalls(body) {
    if (!isPlainObject(body) || (!Array.isArray(body['content']) && typeof body['content'] !== 'string')) {
      throw new DispatchShapeError('An Anthropic assistant message is an object {"role": "assistant", "content": [...]} (or a Messages API response).');
    }
    if (body['role'] !== undefined && body['role'] !== 'assistant') {
      throw new DispatchShapeError(`An Anthropic assistant message has "role": "assistant", received ${JSON.stringify(body['role'])}.`);
    }
    const content = Array.isArray(body['content']) ? body['content'] : [];
    const calls: ToolCallRequest[] = [];
    content.forEach((block, index) => {
      if (!isPlainObject(block) || block['type'] !== 'tool_use') return;
      const where = `content[${index}]`;
      calls.push({ id: requireString(block['id'], `${where}.id`), name: requireString(block['name'], `${where}.name`), arguments: block['input'] ?? {} });
    });
    return calls;
  },

  formatResults(executed: readonly ExecutedToolCall[]): AnthropicToolResultMessage[] {
    if (executed.length === 0) return [];
    return [
      {
        role: 'user',
        content: executed.map(({ call, result }) => ({ type: 'tool_result', tool_use_id: call.id ?? '', content: result.content, is_error: result.is_error })),
      },
    ];
  },
};
