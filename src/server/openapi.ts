/**
 * The OpenAPI 3.1 description of the HTTP API, served at `GET /openapi.json`.
 *
 * The document is data, assembled from one named part per area of the API (console, operations, tool
 * list, one tool, dispatch, approvals, streams) so a route's entry is found, and kept in step with
 * src/server/http-app.ts, without reading one 300-line literal. Paths keep the order clients see
 * today; the component schemas live in openapi-schemas.ts.
 */
import { TOOL_LIST_FORMATS, TOOL_SET_FORMATS } from '../schema/providers/format.ts';
import { DISPATCH_PROVIDERS } from './dispatch/types.ts';
import { componentSchemas, ref } from './openapi-schemas.ts';
import { TOOLHOST_VERSION } from './version.ts';

export type OpenApiDocument = Record<string, unknown>;

/** OpenAPI path items keyed by path. */
type Paths = Record<string, object>;

const json = (schema: object): object => ({ 'application/json': { schema } });
const errorResponse = (description: string): object => ({ description, content: json(ref('Error')) });

export function buildOpenApiDocument(options: { serverUrl?: string } = {}): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: apiInfo(),
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ bearer: [] }],
    paths: {
      ...consolePaths(),
      ...operationsPaths(),
      ...toolListPaths(),
      ...toolPaths(),
      ...dispatchPaths(),
      ...approvalPaths(),
      ...historyPaths(),
      ...schedulePaths(),
      ...streamPaths(),
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The regular token (--token, TOOLHOST_TOKEN, config token), when the server runs with one; the admin token works too.' },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The admin token: a person\'s, never a tool\'s. TOOLHOST_ADMIN_TOKEN or config admin_token; else generated per start, printed once on stderr by `toolhost serve` and written 0600 to $XDG_RUNTIME_DIR/toolhost/admin-token-<port> (else ~/.cache/toolhost/admin-token-<port>), removed at shutdown.',
        },
      },
      schemas: componentSchemas(),
    },
  };
}

/** Title, version and the rules every endpoint shares (token, origins, content type). */
function apiInfo(): object {
  return {
    title: 'toolhost',
    version: TOOLHOST_VERSION,
    description:
      'A tool host for LLM agents: list tools in any provider format, call them, and dispatch a provider assistant message. Every endpoint but /healthz and /readyz needs `Authorization: Bearer <token>` when the server runs with a token. Listing and deciding approvals needs the admin token (`adminToken`) always, whether or not there is a regular token; the admin token is also accepted wherever the regular token is. Requests from web pages (an `Origin` header) are refused with 403 `forbidden_origin` unless the origin is the server\'s own or listed in allowed_origins; request bodies must be `Content-Type: application/json` (else 415 `unsupported_media_type`). MCP (Streamable HTTP) is served at /mcp.',
  };
}

/** The web console: its page and assets, served without a token. */
function consolePaths(): Paths {
  return {
    '/': {
      get: {
        operationId: 'console',
        summary: 'The web console (HTML; also at /console). The page and its assets need no token; it asks for one and sends it on every API call.',
        security: [],
        responses: { '200': { description: 'The console page.', content: { 'text/html': { schema: { type: 'string' } } } } },
      },
    },
    '/console/{asset}': {
      get: {
        operationId: 'consoleAsset',
        summary: "A script or style of the web console (a fixed list of files; no token needed).",
        security: [],
        parameters: [{ name: 'asset', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The asset.' }, '404': errorResponse('Not one of the console assets (`not_found`).') },
      },
    },
  };
}

/** Liveness and metrics, for load balancers and Prometheus. */
function operationsPaths(): Paths {
  return {
    '/healthz': {
      get: {
        operationId: 'health',
        summary: 'Liveness and the number of visible tools (no token needed).',
        security: [],
        responses: { '200': { description: 'Healthy.', content: json(ref('Health')) } },
      },
    },
    '/readyz': {
      get: {
        operationId: 'ready',
        summary:
          'Readiness (no token needed): 200 once the first load of the extensions folder is done, 503 before, and 503 `{draining: true, reason}` from SIGTERM until exit (new requests then get 503 `shutting_down` with `Retry-After`; /healthz, /readyz and /metrics still answer). The daemon listens before that: built-ins and each extension tool whose file has loaded are served meanwhile (each announced on /v1/events as `added`), and a call to a tool whose file is still loading waits for it within its deadline.',
        security: [],
        responses: {
          '200': { description: 'Ready: every extension file has loaded or failed.', content: json(ref('Ready')) },
          '503': { description: 'Still loading (`loading` lists the files), or draining (`draining: true`).', content: json(ref('Ready')) },
        },
      },
    },
    '/v1/load-failures': {
      get: {
        operationId: 'listLoadFailures',
        summary: 'Extension files in the folder that failed to load, each with the reason (a fixed file leaves the list at its next load); `/v1/events` reports them as they happen (`load_failed`).',
        responses: { '200': { description: 'The failures, in folder order.', content: json(ref('LoadFailures')) }, '401': errorResponse('Missing or invalid token.') },
      },
    },
    '/v1/whoami': {
      get: {
        operationId: 'whoami',
        summary:
          'Who the token stands for. Identity mode (config `auth`): `{identity: true, subject, client_id?, scopes, groups?, kind, permission_mode, approver}`, `permission_mode` being the most this principal may use here (`none` when no `principals` rule or scope grants anything); otherwise `{identity: false}`.',
        responses: { '200': { description: 'The principal.', content: json({ type: 'object', required: ['identity'], properties: { identity: { type: 'boolean' }, subject: { type: 'string' }, client_id: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } }, groups: { type: 'array', items: { type: 'string' } }, kind: { type: 'string' }, permission_mode: { type: 'string', enum: ['none', 'read_only', 'write', 'execute'] }, approver: { type: 'boolean' } } }) }, '401': errorResponse('Missing or invalid token (identity mode: `invalid_token`, with `WWW-Authenticate: Bearer resource_metadata=...`).') },
      },
    },
    '/.well-known/oauth-protected-resource': {
      get: {
        operationId: 'protectedResourceMetadata',
        summary: 'Identity mode only: OAuth 2.0 Protected Resource Metadata (RFC 9728), also at `/.well-known/oauth-protected-resource/mcp` (and at the audience\'s own path). No token needed.',
        security: [],
        responses: { '200': { description: 'The metadata.', content: json({ type: 'object', required: ['resource', 'authorization_servers', 'bearer_methods_supported'], properties: { resource: { type: 'string' }, authorization_servers: { type: 'array', items: { type: 'string' } }, scopes_supported: { type: 'array', items: { type: 'string' } }, bearer_methods_supported: { type: 'array', items: { type: 'string' } }, resource_name: { type: 'string' } } }) } },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        summary: 'Prometheus metrics (text exposition format 0.0.4).',
        responses: { '200': { description: 'Metrics.', content: { 'text/plain': { schema: { type: 'string' } } } }, '401': errorResponse('Missing or invalid token.') },
      },
    },
  };
}

/** The tool list in every provider format, and the code-mode declaration tree. */
function toolListPaths(): Paths {
  return {
    '/v1/tools': {
      get: {
        operationId: 'listTools',
        summary: 'Tools visible to clients, in the requested format.',
        parameters: [{ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: [...TOOL_LIST_FORMATS, ...TOOL_SET_FORMATS], default: 'raw' } }],
        responses: {
          '200': {
            description:
              'The tool list; `tools` items have the shape of the format (raw, Anthropic tool, OpenAI function tool, Gemini FunctionDeclaration, MCP Tool). `format=union` answers instead with ONE JSON Schema (the body itself) for an assistant turn `{content, tool_calls: [{name, arguments}]}`, for guided decoding (vLLM/SGLang `guided_json`, xgrammar): one `anyOf` branch per tool, no `$ref`, only keywords xgrammar supports. `tools_digest` is the same value as /healthz\'s; raw items also carry `digest` (sha256 of the tool as served) and, for wasm tools, the component\'s `sha256`.',
            content: json({
              type: 'object',
              required: ['format', 'tools'],
              properties: { format: { type: 'string', enum: [...TOOL_LIST_FORMATS] }, tools_digest: { type: 'string' }, tools: { type: 'array', items: { type: 'object' } } },
            }),
          },
          '400': errorResponse('Unknown format (`invalid_query`); the message lists the allowed values.'),
          '401': errorResponse('Missing or invalid token.'),
        },
      },
    },
    '/v1/tools/tree': {
      get: {
        operationId: 'listToolDeclarations',
        summary: 'Code mode: one TypeScript declaration file per visible tool, to read only the ones a run_code program needs.',
        responses: {
          '200': {
            description: 'The files, e.g. {"files": [{"path": "tools/list_dir.d.ts"}]}.',
            content: json({ type: 'object', required: ['files'], properties: { files: { type: 'array', items: { type: 'object', required: ['path'], properties: { path: { type: 'string' } } } } } }),
          },
        },
      },
    },
    '/v1/tools/tree/{path}': {
      get: {
        operationId: 'getToolDeclaration',
        summary: "One declaration file (`tools/<name>.d.ts`): the tool as a typed async function (`Promise<ToolResult>`), with its description, parameter docs and an example call.",
        parameters: [{ name: 'path', in: 'path', required: true, description: 'A path from GET /v1/tools/tree, slashes included.', schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The declaration.', content: { 'application/typescript': { schema: { type: 'string' } } } },
          '404': errorResponse('Not a tools/<name>.d.ts path (`not_found`), or an unknown or hidden tool (`unknown_tool`, `tool_load_failed`).'),
        },
      },
    },
  };
}

/** One tool: its description, how its help was understood, and calling it. */
function toolPaths(): Paths {
  return {
    '/v1/tools/{name}': {
      get: {
        operationId: 'getTool',
        summary: 'One tool: the raw description plus every provider form under `formats`, or only the form named by `format`.',
        parameters: [
          { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: [...TOOL_LIST_FORMATS] } },
        ],
        responses: {
          '200': { description: 'The tool.', content: json({ oneOf: [ref('ToolDetail'), { type: 'object' }] }) },
          '400': errorResponse('Unknown format.'),
          '404': errorResponse('Unknown or hidden tool (`unknown_tool`).'),
          '503': errorResponse('The file that provides the tool is still loading (`tool_loading`; see /readyz).'),
        },
      },
    },
    '/v1/tools/{name}/inspect': {
      get: {
        operationId: 'inspectTool',
        summary: "How a wasm tool's help was understood (the `toolhost inspect --json` report, with `not_understood` lines) and its policy; env variables and added network headers are named, never their values.",
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The report.', content: json(ref('ToolInspection')) },
          '404': errorResponse('Unknown or hidden tool (`unknown_tool`), a file that failed to load (`tool_load_failed`), or a built-in, which has no help (`not_found`).'),
        },
      },
    },
    '/v1/tools/{name}/call': {
      post: {
        operationId: 'callTool',
        summary: 'Call one tool. A tool failure is a 200 with `is_error: true`.',
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: json(ref('CallRequest')) },
        responses: {
          '200': { description: 'The tool result.', content: json(ref('ToolResult')) },
          '400': errorResponse('Malformed JSON (`invalid_json`) or a body that is not {"arguments": {...}} (`invalid_body`).'),
          '404': errorResponse('Unknown or hidden tool (`unknown_tool`).'),
          '503': errorResponse('The file that provides the tool was still loading when the wait (the host\'s call timeout) ended (`tool_loading`); a call made while it loads waits for it first.'),
          '413': errorResponse('Body larger than the limit (`payload_too_large`).'),
          '415': errorResponse('Content-Type is not application/json (`unsupported_media_type`).'),
        },
      },
    },
  };
}

/** Running the tool calls of a provider's assistant message. */
function dispatchPaths(): Paths {
  return {
    '/v1/dispatch': {
      post: {
        operationId: 'dispatch',
        summary: "Run every tool call of a provider's assistant message concurrently; returns the tool-result message(s) to append, in that provider's format.",
        description:
          'Accepted bodies: Anthropic `{role: "assistant", content: [{type: "tool_use", id, name, input}]}` or a Messages API response; OpenAI chat `{role: "assistant", tool_calls: [...]}` or a chat completion (first choice); OpenAI Responses `{output: [{type: "function_call", call_id, name, arguments}]}`, an array of output items, or one item; Gemini `{role: "model", parts: [{functionCall: {name, args, id?}}]}`, a candidate or a GenerateContentResponse (first candidate). Returned `messages`: Anthropic one `{role: "user", content: [{type: "tool_result", tool_use_id, content, is_error}]}`; OpenAI one `{role: "tool", tool_call_id, content}` per call; OpenAI Responses one `{type: "function_call_output", call_id, output}` per call; Gemini one `{role: "user", parts: [{functionResponse: {id?, name, response: {output} | {error}}}]}`. OpenAI results that failed are prefixed "Error: ". No tool calls → `messages: []`. Never detected, only with `?provider=`: `union`, a turn `{content, tool_calls: [{name, arguments}]}` decoded under `GET /v1/tools?format=union` (refused whole with 400 `invalid_body` listing every problem, before any call runs, when it does not validate), answered with one `{role: "tool", name, content}` per call; `text`, `{text}` with `<tool_call>{"name", "arguments"}</tool_call>` or fenced ```json / ```tool_call blocks in prose, answered with one `{role: "tool", name, content}` per call and `text`: one `<tool_response>{"name", "content", "is_error"}</tool_response>` per call (a malformed block is an is_error result).',
        parameters: [{ name: 'provider', in: 'query', required: false, schema: { type: 'string', enum: [...DISPATCH_PROVIDERS] }, description: 'Skip shape detection. "openai" also accepts Responses API shapes.' }],
        requestBody: { required: true, content: json({ type: ['object', 'array'] }) },
        responses: {
          '200': { description: 'Results.', content: json(ref('DispatchResponse')) },
          '400': errorResponse(
            'Malformed JSON (`invalid_json`), unknown provider (`invalid_query`), an unrecognized message shape (`unrecognized_message`), or more tool calls than `limits.max_dispatch_calls` (default 64) allows (`too_many_calls`, details `{calls, max_calls}`: refused whole, nothing runs).',
          ),
          '413': errorResponse('Body larger than the limit.'),
          '415': errorResponse('Content-Type is not application/json (`unsupported_media_type`).'),
        },
      },
    },
  };
}

/** The answers of the approval routes to anything but the admin token; the message says where the token is. */
const ADMIN_TOKEN_REFUSALS = {
  '401': errorResponse('No token, or a token that is neither the admin token nor the regular one (`admin_token_required`).'),
  '403': errorResponse('The regular token, which does not decide approvals (`admin_token_required`).'),
};

/** Calls waiting for a person's decision, and deciding them. */
function approvalPaths(): Paths {
  return {
    '/v1/approvals': {
      get: {
        operationId: 'listApprovals',
        summary: 'Calls waiting for a person\'s decision (an `approvals` rule said `ask`), oldest first. Arguments are parsed; secret parameters show their `<secret_ref:NAME>` placeholder. Needs the admin token.',
        security: [{ adminToken: [] }],
        responses: {
          '200': { description: 'Pending approvals (in a fleet: of every live replica).', content: json({ type: 'object', required: ['approvals'], properties: { approvals: { type: 'array', items: ref('ApprovalRequest') } } }) },
          ...ADMIN_TOKEN_REFUSALS,
          '503': errorResponse("In a fleet: the shared state (Redis) is unreachable (`state_unavailable`)."),
        },
      },
    },
    '/v1/approvals/{id}': {
      post: {
        operationId: 'decideApproval',
        summary: 'Decide a pending approval: `allow` runs the call, `deny` refuses it (an is_error result), `always` runs it and every identical call (same tool, same arguments) until the host stops (not persisted). Needs the admin token.',
        security: [{ adminToken: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: json({ type: 'object', additionalProperties: false, required: ['decision'], properties: { decision: { type: 'string', enum: ['allow', 'deny', 'always'] } } }),
        },
        responses: {
          '200': {
            description: 'Decided.',
            content: json({
              type: 'object',
              required: ['id', 'decision', 'decided_by'],
              properties: { id: { type: 'string' }, decision: { type: 'string', enum: ['allow', 'deny', 'always'] }, decided_by: { type: 'string', description: "Who decided: the approver principal's subject (identity mode), or `admin-token`." } },
            }),
          },
          '400': errorResponse('Malformed JSON or a body that is not {"decision": "allow" | "deny" | "always"} (`invalid_body`).'),
          ...ADMIN_TOKEN_REFUSALS,
          '404': errorResponse('No such approval is pending: decided, timed out, cancelled, or unknown (`not_found`).'),
          '410': errorResponse('In a fleet: the approval waited on a replica that has stopped; its call is gone (`approval_lost`, `details.replica`).'),
          '415': errorResponse('Content-Type is not application/json (`unsupported_media_type`).'),
          '503': errorResponse("In a fleet: the shared state (Redis) is unreachable (`state_unavailable`)."),
        },
      },
    },
  };
}

/** The daemon's scheduled runs (config `schedules`). */
function schedulePaths(): Paths {
  return {
    '/v1/schedules': {
      get: {
        operationId: 'listSchedules',
        summary:
          'The configured schedules with their next run, last result, counts and recent runs (not their arguments). With shared state in Redis the results are the whole fleet\'s, from any replica; `state_error` says when Redis could not be read (then only this replica\'s own runs show).',
        responses: {
          '200': {
            description: 'The schedules, in config order.',
            content: json({
              type: 'object',
              required: ['schedules', 'state'],
              properties: { schedules: { type: 'array', items: ref('Schedule') }, state: { type: 'string', enum: ['memory', 'redis'] }, state_error: { type: 'string' } },
            }),
          },
          '401': errorResponse('Missing or invalid token.'),
        },
      },
    },
  };
}

/** Admin-only refusals of the routes that show other clients' calls or the approval rules. */
const ADMIN_READ_REFUSALS = {
  '401': errorResponse('No token, or a token that is neither the admin token nor the regular one (`admin_token_required`).'),
  '403': errorResponse('The regular token (`admin_token_required`).'),
};

/** The daemon's recent calls, and the gates' configuration and state (read-only). */
function historyPaths(): Paths {
  return {
    '/v1/calls': {
      get: {
        operationId: 'listCalls',
        summary: 'The most recent calls made through the daemon (HTTP, the console, dispatch, MCP; the last 200 by default), newest first, as summaries. Needs the admin token.',
        security: [{ adminToken: [] }],
        responses: {
          '200': { description: 'Recent calls.', content: json({ type: 'object', required: ['calls', 'capacity'], properties: { calls: { type: 'array', items: ref('CallSummary') }, capacity: { type: 'integer' } } }) },
          ...ADMIN_READ_REFUSALS,
        },
      },
    },
    '/v1/calls/{call_id}': {
      get: {
        operationId: 'getCall',
        summary: "One recent call whole: its arguments (secret parameters redacted as in approvals), result, metadata (stderr there when the tool wrote some), refusal, duration, and for an approval who decided it. Needs the admin token.",
        security: [{ adminToken: [] }],
        parameters: [{ name: 'call_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The call.', content: json(ref('CallRecord')) }, ...ADMIN_READ_REFUSALS, '404': errorResponse('Not in the history (older, or never made through the daemon) (`not_found`).') },
      },
    },
    '/v1/approval-rules': {
      get: {
        operationId: 'listApprovalRules',
        summary: 'The approval rules as configured (`approvals`, first match wins; `position` as refusals name it) and the approval timeout. Needs the admin token.',
        security: [{ adminToken: [] }],
        responses: {
          '200': { description: 'The rules.', content: json({ type: 'object', required: ['rules', 'timeout_ms'], properties: { rules: { type: 'array', items: { type: 'object' } }, timeout_ms: { type: ['integer', 'null'] } } }) },
          ...ADMIN_READ_REFUSALS,
        },
      },
    },
    '/v1/quotas': {
      get: {
        operationId: 'listQuotas',
        summary: 'Each configured quota (`quotas`): its limits, and now: calls running (`in_use`), waiting, admitted in the current minute (`window_calls`), queued so far, refusals by reason. In a fleet (`state.redis`) the limits hold across replicas; `in_use`, `waiting`, `queued` and the refusals count this replica\'s calls, `window_calls` the fleet\'s (as of this replica\'s last admission check).',
        responses: { '200': { description: 'The quotas, in config order.', content: json({ type: 'object', required: ['quotas'], properties: { quotas: { type: 'array', items: { type: 'object' } } } }) }, '401': errorResponse('Missing or invalid token.') },
      },
    },
  };
}

/** The long-lived endpoints: host events over SSE and MCP over Streamable HTTP. */
function streamPaths(): Paths {
  return {
    '/v1/events': {
      get: {
        operationId: 'events',
        summary: 'Server-sent events of the host: `event: added|updated|removed|load_failed|collision|call_finished|network_denied|approval_requested|approval_decided`, `data: <HostEvent JSON>`; keep-alive comments. `approval_requested` carries the call\'s `arguments` only on a stream opened with the admin token. In a fleet (`state.redis`), the stream also carries the other replicas\' `call_finished`, `network_denied` and approval events, and every event has `replica` (the replica it happened on); tool set events stay on their replica.',
        responses: { '200': { description: 'An SSE stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
      },
    },
    '/mcp': {
      post: { operationId: 'mcpPost', summary: 'MCP Streamable HTTP (JSON-RPC); start with an initialize request, then send Mcp-Session-Id.', responses: { '200': { description: 'JSON-RPC response (JSON or SSE).' } } },
      get: { operationId: 'mcpStream', summary: 'MCP standalone SSE stream for server notifications (needs Mcp-Session-Id).', responses: { '200': { description: 'SSE stream.' } } },
      delete: { operationId: 'mcpEnd', summary: 'End an MCP session.', responses: { '200': { description: 'Ended.' } } },
    },
  };
}
