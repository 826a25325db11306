/**
 * `provider=text`: `{"text": "<the assistant's text>"}` with tool calls written as text (see
 * ./text-protocol.ts for the recognised blocks). Out: one `{role: "tool", name, content}` message
 * per call, and `text`, the same results as `<tool_response>` blocks for prompts built as raw text.
 * A block that cannot be read is answered as an is_error result naming the problem; it runs nothing.
 */
import { renderToolResponses } from './text-protocol.ts';
import { parseTextToolCallsOffThread } from './text-scan.ts';
import { contentWithErrorPrefix, DispatchShapeError, type ExecutedToolCall, type ProviderAdapter, type ToolCallRequest } from './types.ts';
import type { UnionToolMessage } from './union.ts';
import { isPlainObject } from '../../json-value.ts';

export const textAdapter: ProviderAdapter = {
  provider: 'text',

  matches: () => false,

  async extractCalls(body) {
    if (!isPlainObject(body) || typeof body['text'] !== 'string') {
      throw new DispatchShapeError('A text-protocol body is {"text": "<the assistant\'s text with <tool_call>{...}</tool_call> or ```json blocks>"}.');
    }
    const unknown = Object.keys(body).filter((key) => key !== 'text');
    if (unknown.length > 0) throw new DispatchShapeError(`Unknown field(s) ${unknown.map((key) => `"${key}"`).join(', ')}; a text-protocol body has only "text".`);
    return (await parseTextToolCallsOffThread(body['text'])).map(
      (call): ToolCallRequest => (call.kind === 'call' ? { id: null, name: call.name, arguments: call.arguments } : { id: null, name: call.name ?? '', arguments: {}, malformed: call.reason }),
    );
  },

  formatResults(executed: readonly ExecutedToolCall[]): UnionToolMessage[] {
    return executed.map(({ call, result }) => ({ role: 'tool', name: call.name, content: contentWithErrorPrefix(result) }));
  },

  formatText(executed: readonly ExecutedToolCall[]): string {
    return renderToolResponses(executed.map(({ call, result }) => ({ name: call.name === '' ? null : call.name, result })));
  },
};
