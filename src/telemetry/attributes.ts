/**
 * Span and attribute names. The semantic-convention ones are the names `@opentelemetry/semantic-conventions`
 * exports (stable, or `/incubating` for GenAI, MCP and JSON-RPC); they are spelled out here rather than
 * imported so that code on the call path loads no OpenTelemetry module (test/telemetry/attributes.test.ts
 * checks every one against the package). `toolhost.*` names are toolhost's own.
 */

// GenAI semantic conventions (incubating): the tool call span.
/** ATTR_GEN_AI_OPERATION_NAME */
export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
/** GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL */
export const EXECUTE_TOOL = 'execute_tool';
/** ATTR_GEN_AI_TOOL_NAME */
export const GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
/** ATTR_GEN_AI_TOOL_CALL_ID */
export const GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
/** ATTR_GEN_AI_TOOL_TYPE */
export const GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';

// MCP and JSON-RPC semantic conventions (incubating): the MCP request span.
/** ATTR_MCP_METHOD_NAME */
export const MCP_METHOD_NAME = 'mcp.method.name';
/** ATTR_MCP_SESSION_ID */
export const MCP_SESSION_ID = 'mcp.session.id';
/** ATTR_MCP_PROTOCOL_VERSION */
export const MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
/** ATTR_MCP_RESOURCE_URI */
export const MCP_RESOURCE_URI = 'mcp.resource.uri';
/** ATTR_JSONRPC_REQUEST_ID */
export const JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
/** ATTR_JSONRPC_PROTOCOL_VERSION */
export const JSONRPC_PROTOCOL_VERSION = 'jsonrpc.protocol.version';
/** ATTR_RPC_RESPONSE_STATUS_CODE */
export const RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';

// Stable: HTTP server spans, errors, the network.
/** ATTR_HTTP_REQUEST_METHOD */
export const HTTP_REQUEST_METHOD = 'http.request.method';
/** ATTR_HTTP_RESPONSE_STATUS_CODE */
export const HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
/** ATTR_HTTP_ROUTE */
export const HTTP_ROUTE = 'http.route';
/** ATTR_URL_PATH */
export const URL_PATH = 'url.path';
/** ATTR_URL_SCHEME */
export const URL_SCHEME = 'url.scheme';
/** ATTR_USER_AGENT_ORIGINAL */
export const USER_AGENT_ORIGINAL = 'user_agent.original';
/** ATTR_NETWORK_PROTOCOL_NAME */
export const NETWORK_PROTOCOL_NAME = 'network.protocol.name';
/** ATTR_ERROR_TYPE */
export const ERROR_TYPE = 'error.type';

// toolhost's own.
/** The edge the call came in through: http, console, mcp, dispatch, cli. */
export const TOOLHOST_TRANSPORT = 'toolhost.transport';
/** Where the tool comes from: builtin or wasm. */
export const TOOLHOST_TOOL_SOURCE = 'toolhost.tool.source';
/** A wasm tool's component digest, `sha256:<hex>`. */
export const TOOLHOST_TOOL_DIGEST = 'toolhost.tool.digest';
/** Whether the result was an error (is_error). */
export const TOOLHOST_IS_ERROR = 'toolhost.is_error';
/** The caller's principal subject (identity mode). */
export const TOOLHOST_PRINCIPAL_SUBJECT = 'toolhost.principal.subject';
/** The caller's OAuth client id, when the token names one. */
export const TOOLHOST_PRINCIPAL_CLIENT_ID = 'toolhost.principal.client_id';
/** Admission's outcome on the `admit` span: admitted or refused. */
export const TOOLHOST_ADMIT_OUTCOME = 'toolhost.admit.outcome';

/** Span names below the tool call span. */
export const SPAN_ADMIT = 'admit';
export const SPAN_APPROVAL_WAIT = 'approval wait';
export const SPAN_QUOTA_WAIT = 'quota wait';
export const SPAN_INSTANTIATE = 'instantiate';
export const SPAN_RUN = 'run';
/** The CLI's root span for `toolhost call`. */
export const SPAN_CLI_CALL = 'toolhost call';
