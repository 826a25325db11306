export { adapterFor, detectProvider, dispatchToolCalls } from './dispatch.ts';
export type { DispatchOptions, DispatchResponse, DispatchResultEntry } from './dispatch.ts';
export { DEFAULT_MAX_DISPATCH_CALLS, DISPATCH_PROVIDERS, DispatchShapeError, isDispatchProvider, TooManyCallsError } from './types.ts';
export type { DispatchProvider, ExecutedToolCall, ProviderAdapter, ToolCallRequest } from './types.ts';
export type { AnthropicToolResultMessage, AnthropicToolResultBlock } from './anthropic.ts';
export type { OpenAIToolMessage } from './openai-chat.ts';
export type { OpenAIFunctionCallOutputItem } from './openai-responses.ts';
export type { GeminiFunctionResponseContent, GeminiFunctionResponsePart } from './gemini.ts';
