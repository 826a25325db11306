/**
 * Gemini. In: a model content `{role: "model", parts: [...]}`, a candidate `{content: {...}}` or a
 * GenerateContentResponse `{candidates: [...]}` (the first candidate); every
 * `{functionCall: {name, args, id?}}` part is a call. Out: ONE user content whose parts hold a
 * `{functionResponse: {name, id?, response}}` per call, in call order; `response` is
 * `{output: <text>}` on success and `{error: <text>}` on failure (Gemini's documented convention).
 */
import { DispatchShapeError, requireString, type ExecutedToolCall, type ProviderAdapter, type ToolCallRequest } from './types.ts';
import { isPlainObject } from '../../json-value.ts';
import { resultText } from '../../results/result-parts.ts';

export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: { output: string | Record<string, unknown> } | { error: string } };
}

export interface GeminiFunctionResponseContent {
  role: 'user';
  parts: GeminiFunctionResponsePart[];
}

function contentOf(body: unknown): { content: Record<string, unknown>; prefix: string } {
  if (isPlainObject(body) && Array.isArray(body['candidates'])) {
    const first: unknown = body['candidates'][0];
    if (!isPlainObject(first) || !isPlainObject(first['content'])) throw new DispatchShapeError('candidates[0].content must be a content object {"role": "model", "parts": [...]}.');
    return { content: first['content'], prefix: 'candidates[0].content.' };
  }
  if (isPlainObject(body) && isPlainObject(body['content'])) return { content: body['content'], prefix: 'content.' };
  if (isPlainObject(body) && Array.isArray(body['parts'])) return { content: body, prefix: '' };
  throw new DispatchShapeError('A Gemini model turn is {"role": "model", "parts": [...]}, a candidate {"content": {...}}, or a response {"candidates": [...]}.');
}

export const geminiAdapter: ProviderAdapter = {
  provider: 'gemini',

  matches(body) {
    return isPlainObject(body) && (Array.isArray(body['candidates']) || Array.isArray(body['parts']) || (isPlainObject(body['content']) && Array.isArray(body['content']['parts'])));
  },

  extractCalls(body) {
    const { content, prefix } = contentOf(body);
    if (content['role'] !== undefined && content['role'] !== 'model') {
      throw new DispatchShapeError(`${prefix}role must be "model", received ${JSON.stringify(content['role'])}.`);
    }
    const parts = content['parts'];
    if (!Array.isArray(parts)) throw new DispatchShapeError(`${prefix}parts must be an array.`);
    const calls: ToolCallRequest[] = [];
    parts.forEach((part: unknown, index) => {
      if (!isPlainObject(part) || part['functionCall'] === undefined) return;
      const where = `${prefix}parts[${index}].functionCall`;
      const functionCall = part['functionCall'];
      if (!isPlainObject(functionCall)) throw new DispatchShapeError(`${where} must be an object {"name", "args"}.`);
      const id = functionCall['id'];
      calls.push({ id: typeof id === 'string' && id !== '' ? id : null, name: requireString(functionCall['name'], `${where}.name`), arguments: functionCall['args'] ?? {} });
    });
    return calls;
  },

  formatResults(executed: readonly ExecutedToolCall[]): GeminiFunctionResponseContent[] {
    if (executed.length === 0) return [];
    return [
      {
        role: 'user',
        parts: executed.map(({ call, result }) => ({
          functionResponse: {
            ...(call.id !== null ? { id: call.id } : {}),
            name: call.name,
            // A structured result (the tool's output schema) is the output object itself.
            response: result.is_error ? { error: resultText(result) } : { output: result.structured_content ?? resultText(result) },
          },
        })),
      },
    ];
  },
};
