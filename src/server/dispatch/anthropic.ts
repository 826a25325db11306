/**
 * Anthropic Messages API. In: an assistant message `{role: "assistant", content: [...]}` or a whole
 * Messages API response `{type: "message", role: "assistant", content: [...]}`; every
 * `{type: "tool_use", id, name, input}` block is a call. Out: ONE user message whose content holds
 * a `{type: "tool_result", tool_use_id, content, is_error}` block per call, in call order. `content` is
 * the result's text, or, when the result has PNG/JPEG/GIF/WebP images, content blocks: the text, then
 * each image as `{type: "image", source: {type: "base64", media_type, data}}`.
 */
import { DispatchShapeError, requireString, type ExecutedToolCall, type ProviderAdapter, type ToolCallRequest } from './types.ts';
import { isPlainObject } from '../../json-value.ts';
import type { ImagePart, ToolResult } from '../../result.ts';
import { resultText } from '../../results/result-parts.ts';

/** Content blocks a tool_result may hold besides a plain string. */
export type AnthropicToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  /** A string; blocks when the result has images (text first, then each image). */
  content: string | AnthropicToolResultContent[];
  is_error: boolean;
}

/** The image types the Messages API takes in a tool_result; other parts are named in the text. */
export const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** A ToolResult as tool_result content: images as image blocks, everything else as text (src/results/result-parts.ts). */
export function anthropicResultContent(result: ToolResult): string | AnthropicToolResultContent[] {
  const images = (result.parts ?? []).filter((part): part is ImagePart => part.type === 'image' && ANTHROPIC_IMAGE_TYPES.has(part.mime_type));
  const text = resultText(result, new Set(images));
  if (images.length === 0) return text;
  return [
    ...(text === '' ? [] : [{ type: 'text' as const, text }]),
    ...images.map((image) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: image.mime_type, data: image.data } })),
  ];
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
        content: executed.map(({ call, result }) => ({ type: 'tool_result', tool_use_id: call.id ?? '', content: anthropicResultContent(result), is_error: result.is_error })),
      },
    ];
  },
};
