/**
 * OpenAI Responses API. In: a response `{object: "response", output: [...]}`, an array of output
 * items, or one item; every `{type: "function_call", call_id, name, arguments: "<json>"}` item is a
 * call. Out: one `{type: "function_call_output", call_id, output}` input item per call, in order.
 */
import { contentWithErrorPrefix, DispatchShapeError, requireString, type ExecutedToolCall, type ProviderAdapter, type ToolCallRequest } from './types.ts';
import { isPlainObject } from '../../json-value.ts';

export interface OpenAIFunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

function outputItemsOf(body: unknown): { items: unknown[]; prefix: string } {
  if (Array.isArray(body)) return { items: body, prefix: '' };
  if (isPlainObject(body) && Array.isArray(body['output'])) return { items: body['output'], prefix: 'output' };
  if (isPlainObject(body) && body['type'] === 'function_call') return { items: [body], prefix: '' };
  throw new DispatchShapeError('An OpenAI Responses body is a response {"output": [...]}, an array of output items, or one {"type": "function_call"} item.');
}

export const openAIResponsesAdapter: ProviderAdapter = {
  provider: 'openai-responses',

  matches(body) {
    if (Array.isArray(body)) return body.every((item) => isPlainObject(item) && typeof item['type'] === 'string');
    return isPlainObject(body) && (body['object'] === 'response' || body['type'] === 'function_call' || (Array.isArray(body['output']) && !('content' in body)));
  },

  extractCalls(body) {
    const { items, prefix } = outputItemsOf(body);
    const calls: ToolCallRequest[] = [];
    items.forEach((item, index) => {
      if (!isPlainObject(item) || item['type'] !== 'function_call') return;
      const where = `${prefix}[${index}]`;
      calls.push({ id: requireString(item['call_id'], `${where}.call_id`), name: requireString(item['name'], `${where}.name`), arguments: item['arguments'] ?? {} });
    });
    return calls;
  },

  formatResults(executed: readonly ExecutedToolCall[]): OpenAIFunctionCallOutputItem[] {
    return executed.map(({ call, result }) => ({ type: 'function_call_output', call_id: call.id ?? '', output: contentWithErrorPrefix(result) }));
  },
};
