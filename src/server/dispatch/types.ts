/** The contract every provider adapter of `POST /v1/dispatch` implements. */
import { resultText } from '../../results/result-parts.ts';
import type { ToolResult } from '../../result.ts';

/**
 * `union` (a guided-decoding turn, see ./union.ts) and `text` (tool calls written as text, see
 * ./text.ts) are never detected from the body's shape: they are used only when asked for.
 */
export const DISPATCH_PROVIDERS = ['anthropic', 'openai', 'openai-responses', 'gemini', 'union', 'text'] as const;
export type DispatchProvider = (typeof DISPATCH_PROVIDERS)[number];

export function isDispatchProvider(value: unknown): value is DispatchProvider {
  return typeof value === 'string' && (DISPATCH_PROVIDERS as readonly string[]).includes(value);
}

/** One tool call found in an assistant message. */
export interface ToolCallRequest {
  /** The provider's call id (Anthropic tool_use.id, OpenAI tool_call.id / call_id, Gemini functionCall.id); null when absent. */
  id: string | null;
  name: string;
  /** Arguments as sent: an object, or a JSON string (OpenAI); the bridge parses both. */
  arguments: unknown;
  /**
   * Set when the call could not be read (a malformed text-protocol block): the reason, returned to
   * the model as this call's is_error result instead of running anything.
   */
  malformed?: string;
}

export interface ExecutedToolCall {
  call: ToolCallRequest;
  result: ToolResult;
}

export interface ProviderAdapter {
  readonly provider: DispatchProvider;
  /** True when the body has this provider's shape (used when no provider is given). */
  matches(body: unknown): boolean;
  /** The tool calls of the assistant message, in order (a promise where reading them is long work). @throws DispatchShapeError */
  extractCalls(body: unknown): ToolCallRequest[] | Promise<ToolCallRequest[]>;
  /** The message(s) to append to the conversation, in the provider's own format. */
  formatResults(executed: readonly ExecutedToolCall[]): unknown[];
  /** The results as text for the model, for providers whose models read text (`text`). */
  formatText?(executed: readonly ExecutedToolCall[]): string;
}

/** The body does not have the shape the provider expects; the message names what is wrong. */
export class DispatchShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DispatchShapeError';
  }
}

/** The most tool calls one dispatch runs unless `limits.max_dispatch_calls` says otherwise. */
export const DEFAULT_MAX_DISPATCH_CALLS = 64;

/**
 * A dispatch that carries more calls than the cap (`limits.max_dispatch_calls`): refused whole,
 * before any call runs. The message names the count, the cap, and how to raise it.
 */
export class TooManyCallsError extends Error {
  readonly calls: number;
  readonly maxCalls: number;

  constructor(calls: number, maxCalls: number) {
    super(
      `The message carries ${calls} tool calls; one dispatch runs at most ${maxCalls} (limits.max_dispatch_calls), so none of them ran. ` +
        'Split the turn into smaller ones, or raise the cap with limits.max_dispatch_calls in the config file or --max-dispatch-calls.',
    );
    this.name = 'TooManyCallsError';
    this.calls = calls;
    this.maxCalls = maxCalls;
  }
}

/**
 * Result text for providers whose tool messages have no error flag (OpenAI): failures are
 * prefixed with "Error: " so the model can tell them from output.
 */
/** The result as text (rich parts named in a line each: src/results/result-parts.ts), an error prefixed `Error: `. */
export function contentWithErrorPrefix(result: ToolResult): string {
  const text = resultText(result);
  if (!result.is_error || /^error\b/i.test(text)) return text;
  return `Error: ${text}`;
}

export function requireString(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') throw new DispatchShapeError(`${where} must be a non-empty string.`);
  return value;
}
