/**
 * `POST /v1/dispatch`: run every tool call of one provider assistant message concurrently and
 * return the tool-result message(s) to append, in that provider's own format.
 */
import type { Host } from '../../host-types.ts';
import type { Principal } from '../../identity/principal.ts';
import type { TraceSpan } from '../../telemetry/span.ts';
import { errorResult, type ToolResult } from '../../result.ts';
import { anthropicAdapter } from './anthropic.ts';
import { geminiAdapter } from './gemini.ts';
import { openAIChatAdapter } from './openai-chat.ts';
import { openAIResponsesAdapter } from './openai-responses.ts';
import { textAdapter } from './text.ts';
import { DEFAULT_MAX_DISPATCH_CALLS, DispatchShapeError, TooManyCallsError, type DispatchProvider, type ProviderAdapter, type ToolCallRequest } from './types.ts';
import { checkUnionCalls, unionAdapter } from './union.ts';

/** Detection order matters: OpenAI chat messages may also carry a `content` array. union and text never match a shape. */
const ADAPTERS: readonly ProviderAdapter[] = [openAIChatAdapter, openAIResponsesAdapter, geminiAdapter, anthropicAdapter, unionAdapter, textAdapter];

/** The providers a body's shape can identify (the rest must be asked for with ?provider=). */
const DETECTED_PROVIDERS: readonly DispatchProvider[] = ['anthropic', 'openai', 'openai-responses', 'gemini'];

export interface DispatchResultEntry {
  id: string | null;
  name: string;
  result: ToolResult;
}

export interface DispatchResponse {
  provider: DispatchProvider;
  /** Append these to the conversation, in order (Anthropic/Gemini: one message; OpenAI: one per call). */
  messages: unknown[];
  /** The raw ToolResult of every call, in call order (for logs and clients that want metadata). */
  results: DispatchResultEntry[];
  /** provider=text only: the results as `<tool_response>` blocks, to append to a raw-text prompt. */
  text?: string;
}

export function adapterFor(provider: DispatchProvider): ProviderAdapter {
  const adapter = ADAPTERS.find((candidate) => candidate.provider === provider);
  if (!adapter) throw new DispatchShapeError(`Unknown provider "${provider}".`);
  return adapter;
}

/** The provider whose assistant-message shape `body` has, or undefined. */
export function detectProvider(body: unknown): DispatchProvider | undefined {
  return ADAPTERS.find((adapter) => adapter.matches(body))?.provider;
}

export interface DispatchOptions {
  provider?: DispatchProvider;
  signal?: AbortSignal;
  /** The most calls one dispatch may carry (`limits.max_dispatch_calls`); default DEFAULT_MAX_DISPATCH_CALLS (64). */
  maxCalls?: number;
  /** Who sent the message (identity mode): every call carries it. */
  principal?: Principal | undefined;
  /** The request's span (tracing on): each call's span is its child. */
  trace?: TraceSpan;
}

/**
 * Runs the tool calls of `body` on `host` concurrently.
 * `provider` "openai" also accepts Responses API shapes (answered as "openai-responses").
 * @throws DispatchShapeError when the body is not a recognizable assistant message;
 *         TooManyCallsError when it carries more than `maxCalls` calls (nothing runs).
 */
export async function dispatchToolCalls(host: Host, body: unknown, options: DispatchOptions = {}): Promise<DispatchResponse> {
  let provider = options.provider ?? detectProvider(body);
  if (provider === undefined) {
    throw new DispatchShapeError(
      `Cannot tell the provider from the message shape; pass ?provider=${DETECTED_PROVIDERS.join('|')} (or union|text, which are never guessed) or send one of: Anthropic {"role": "assistant", "content": [{"type": "tool_use", ...}]}, OpenAI {"role": "assistant", "tool_calls": [...]}, OpenAI Responses {"output": [{"type": "function_call", ...}]}, Gemini {"role": "model", "parts": [{"functionCall": ...}]} (or the provider's whole response).`,
    );
  }
  if (provider === 'openai' && !openAIChatAdapter.matches(body) && openAIResponsesAdapter.matches(body)) provider = 'openai-responses';
  const adapter = adapterFor(provider);
  const calls = await adapter.extractCalls(body);
  // Counted before anything else looks at the calls: malformed text blocks count too (each gets a result).
  const maxCalls = options.maxCalls ?? DEFAULT_MAX_DISPATCH_CALLS;
  if (calls.length > maxCalls) throw new TooManyCallsError(calls.length, maxCalls);
  // A union turn is refused whole when the schema it was decoded under would refuse it.
  if (provider === 'union') checkUnionCalls(host, calls, options.principal);
  const callOptions = { transport: 'dispatch' as const, ...(options.signal ? { signal: options.signal } : {}), ...(options.principal ? { principal: options.principal } : {}), ...(options.trace ? { trace: options.trace } : {}) };
  const run = async (call: ToolCallRequest): Promise<ToolResult> => (call.malformed !== undefined ? errorResult(call.malformed, { reason: 'malformed_tool_call' }) : host.callTool(call.name, call.arguments, callOptions));
  const executed = await Promise.all(calls.map(async (call) => ({ call, result: await run(call) })));
  return {
    provider,
    messages: adapter.formatResults(executed),
    results: executed.map(({ call, result }) => ({ id: call.id, name: call.name, result })),
    ...(adapter.formatText ? { text: adapter.formatText(executed) } : {}),
  };
}
