/**
 * One span per MCP JSON-RPC request a server answers (installed only when telemetry is on), following
 * the OpenTelemetry MCP semantic conventions: a SERVER span named `{mcp.method.name} {target}` (target:
 * the tool's name for `tools/call`, the prompt's for `prompts/get`), with `mcp.method.name`,
 * `mcp.session.id`, `jsonrpc.request.id`, `jsonrpc.protocol.version`, `mcp.protocol.version`,
 * `network.protocol.name`; for `tools/call` also `gen_ai.operation.name` = `execute_tool` and
 * `gen_ai.tool.name`; for resources `mcp.resource.uri`. A JSON-RPC error sets `error.type` and
 * `rpc.response.status_code` to its code; a tool result with `isError` sets `error.type` = `tool_error`.
 *
 * Its parent is the W3C trace context the request carries in `params._meta.traceparent` (and
 * `tracestate`) when present, else the HTTP request's `traceparent`/`tracestate` headers. The request
 * handler finds the span with `mcpRequestTrace(extra)` and hands it to the host call (CallToolOptions.trace).
 *
 * It wraps the handlers the SDK's Protocol keeps in its (private) `_requestHandlers` map, so every
 * method is covered, the SDK's own (initialize, ping) included; call it after the last handler is set.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ERROR_TYPE,
  EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME,
  GEN_AI_TOOL_NAME,
  JSONRPC_PROTOCOL_VERSION,
  JSONRPC_REQUEST_ID,
  MCP_METHOD_NAME,
  MCP_PROTOCOL_VERSION,
  MCP_RESOURCE_URI,
  MCP_SESSION_ID,
  NETWORK_PROTOCOL_NAME,
  RPC_RESPONSE_STATUS_CODE,
} from './attributes.ts';
import type { SpanAttributes, Telemetry, TraceCarrier, TraceSpan } from './span.ts';

const MCP_TRACE = Symbol('toolhost.mcp.trace');

type Handler = (request: { method: string; params?: Record<string, unknown> }, extra: Record<string | symbol, unknown>) => Promise<unknown>;

/** The request's MCP span, when tracing is on. */
export function mcpRequestTrace(extra: object): TraceSpan | undefined {
  return (extra as Record<symbol, TraceSpan | undefined>)[MCP_TRACE];
}

function text(value: unknown, max = 256): string | undefined {
  return typeof value === 'string' && value !== '' ? value.slice(0, max) : undefined;
}

function headerOf(extra: Record<string | symbol, unknown>, name: string): string | undefined {
  const headers = (extra['requestInfo'] as { headers?: Record<string, string | string[] | undefined> } | undefined)?.headers;
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `_meta.traceparent` when the request carries one, else the HTTP headers'. */
function carrierOf(params: Record<string, unknown> | undefined, extra: Record<string | symbol, unknown>): TraceCarrier {
  const meta = params?.['_meta'];
  if (typeof meta === 'object' && meta !== null && typeof (meta as Record<string, unknown>)['traceparent'] === 'string') {
    const fields = meta as Record<string, unknown>;
    // A valid traceparent is 55 characters; anything much longer is invalid and not worth parsing.
    return { traceparent: (fields['traceparent'] as string).slice(0, 128), tracestate: text(fields['tracestate'], 512) };
  }
  return { traceparent: headerOf(extra, 'traceparent'), tracestate: headerOf(extra, 'tracestate') };
}

function requestAttributes(method: string, params: Record<string, unknown> | undefined, extra: Record<string | symbol, unknown>): { name: string; attributes: SpanAttributes } {
  const requestId = extra['requestId'];
  const target = method === 'tools/call' || method === 'prompts/get' ? text(params?.['name']) : undefined;
  return {
    name: target === undefined ? method : `${method} ${target}`,
    attributes: {
      [MCP_METHOD_NAME]: method,
      [MCP_SESSION_ID]: text(extra['sessionId']),
      [JSONRPC_REQUEST_ID]: requestId === undefined ? undefined : String(requestId).slice(0, 128),
      [JSONRPC_PROTOCOL_VERSION]: '2.0',
      [MCP_PROTOCOL_VERSION]: headerOf(extra, 'mcp-protocol-version'),
      [NETWORK_PROTOCOL_NAME]: extra['requestInfo'] === undefined ? undefined : 'http',
      ...(method === 'tools/call' ? { [GEN_AI_OPERATION_NAME]: EXECUTE_TOOL, [GEN_AI_TOOL_NAME]: target } : {}),
      ...(method.startsWith('resources/') ? { [MCP_RESOURCE_URI]: text(params?.['uri'], 1024) } : {}),
    },
  };
}

function traced(method: string, handler: Handler, telemetry: Telemetry): Handler {
  return async (request, extra) => {
    const { name, attributes } = requestAttributes(method, request.params, extra);
    const span = telemetry.startSpan(name, carrierOf(request.params, extra), { kind: 'server', attributes });
    try {
      const result = await handler(request, { ...extra, [MCP_TRACE]: span });
      if (method === 'tools/call' && typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true) span.setAttributes({ [ERROR_TYPE]: 'tool_error' });
      return result;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const type = typeof code === 'number' ? String(code) : error instanceof Error ? error.name : 'error';
      span.setAttributes({ [RPC_RESPONSE_STATUS_CODE]: typeof code === 'number' ? String(code) : undefined });
      span.fail(type, error instanceof Error ? error.message.slice(0, 256) : undefined);
      throw error;
    } finally {
      span.end();
    }
  };
}

/** Wraps every request handler `server` has now in an MCP span (see the header). */
export function traceMcpRequests(server: Server, telemetry: Telemetry): void {
  const handlers = (server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('the MCP SDK keeps no _requestHandlers map: MCP tracing cannot be installed');
  for (const [method, handler] of handlers) handlers.set(method, traced(method, handler, telemetry));
}
