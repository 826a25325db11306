/**
 * The MCP server over a host (low-level SDK `Server`: our tools carry JSON Schemas, not zod shapes).
 * tools/list → `toMcpTool` (normalized inputSchema, annotations from the permission level);
 * tools/call → `host.callTool`, the ToolResult mapped to `{content: [{type: "text", text}, ...parts],
 * isError, structuredContent, _meta: {"toolhost/metadata": metadata}}` (parts: image, audio, resource,
 * resource_link; a tool's declared output schema is its tools/list `outputSchema`);
 * `notifications/tools/list_changed` whenever the tool set changes (capability `tools.listChanged`).
 * A call whose request carries `_meta.progressToken`, or any call once the client set a log level,
 * streams while it runs (mcp-call-events.ts): `notifications/progress` and its stderr lines as
 * `notifications/message`; `notifications/cancelled` aborts the call's signal, which terminates a wasm
 * call's worker or kills a shell command's processes.
 *
 * Resources and completion (the workspace as `file:///{path}`, plus any `resourceSources`): see
 * mcp-resources.ts.
 *
 * Unknown, hidden and refused tools come back as `isError` results (not JSON-RPC errors), like
 * every other edge of the host, so a model reads why.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type ListToolsResult,
  type LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import { elicitationApprover } from '../approvals/elicitation.ts';
import type { CallToolOptions, Host, HostEvent } from '../host-types.ts';
import type { Telemetry } from '../telemetry/span.ts';
import { mcpRequestTrace, traceMcpRequests } from '../telemetry/mcp-tracing.ts';
import type { ResultPart, ToolResult } from '../result.ts';
import { toMcpTool } from '../schema/providers/mcp.ts';
import type { ResourceCatalog } from '../resources/catalog.ts';
import { createMcpCallEvents } from './mcp-call-events.ts';
import { principalOfAuthInfo } from './mcp-principal.ts';
import { principalGrant, toolsFor } from '../identity/host-policy.ts';
import { isPermitted } from '../permission.ts';
import { callLogMessages, DEFAULT_MCP_LOG_LEVEL, isLevelShown } from './mcp-logging.ts';
import { hostResourceCatalog, registerResourceHandlers, RESOURCE_CAPABILITIES } from './mcp-resources.ts';
import { TOOLHOST_VERSION } from './version.ts';

/** Key of the ToolResult metadata in a CallToolResult's `_meta`. */
export const MCP_METADATA_KEY = 'toolhost/metadata';

export interface CreateMcpServerOptions {
  /** Server name in the initialize result. Default "toolhost". */
  name?: string;
  version?: string;
  instructions?: string;
  /**
   * The resources this server offers, shared with the edge's other sessions (the edge closes it).
   * Default: a catalog of the host's workspace made for this server and closed with it.
   */
  resources?: ResourceCatalog;
  /** Tracing (src/telemetry/): one span per JSON-RPC request, the parent of its tool call's span. Absent = off. */
  telemetry?: Telemetry;
}

const TOOL_SET_EVENTS: ReadonlySet<HostEvent['type']> = new Set(['added', 'updated', 'removed']);

/**
 * One JSON Schema validator for every server: the SDK otherwise builds an Ajv instance per Server
 * (milliseconds of CPU and tens of KB per MCP HTTP session) to check elicitation answers, which only
 * approvals use, on a one-field form.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

export function toMcpCallToolResult(result: ToolResult): CallToolResult {
  const parts = result.parts ?? [];
  // The text always comes first; an empty text is left out when other parts carry the result.
  const text: CallToolResult['content'] = result.content === '' && parts.length > 0 ? [] : [{ type: 'text', text: result.content }];
  const mapped: CallToolResult = { content: [...text, ...parts.map(toMcpContent)], isError: result.is_error };
  if (result.structured_content !== undefined) mapped.structuredContent = result.structured_content;
  if (result.metadata !== undefined) mapped._meta = { [MCP_METADATA_KEY]: result.metadata };
  return mapped;
}

/** One rich part (src/result.ts) as MCP content. */
export function toMcpContent(part: ResultPart): CallToolResult['content'][number] {
  switch (part.type) {
    case 'image':
    case 'audio':
      return { type: part.type, data: part.data, mimeType: part.mime_type };
    case 'resource': {
      const base = { uri: part.uri, ...(part.mime_type !== undefined ? { mimeType: part.mime_type } : {}) };
      return { type: 'resource', resource: part.blob !== undefined ? { ...base, blob: part.blob } : { ...base, text: part.text ?? '' } };
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: part.uri,
        name: part.name,
        ...(part.mime_type !== undefined ? { mimeType: part.mime_type } : {}),
        ...(part.description !== undefined ? { description: part.description } : {}),
        ...(part.size !== undefined ? { size: part.size } : {}),
      };
  }
}

/**
 * One MCP server bound to `host`. Connect it to exactly one transport. It unsubscribes from the
 * host when it closes; do not overwrite `server.onclose` (wrap it instead).
 */
export function createMcpServer(host: Host, options: CreateMcpServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? 'toolhost', version: options.version ?? TOOLHOST_VERSION },
    {
      capabilities: { tools: { listChanged: true }, logging: {}, ...RESOURCE_CAPABILITIES },
      jsonSchemaValidator: (sharedValidator ??= new AjvJsonSchemaValidator()),
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );

  // Identity mode: each request's principal (extra.authInfo) sees only what its grant allows.
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra): ListToolsResult => ({
    tools: toolsFor(host, principalOfAuthInfo(extra.authInfo)).map((tool) => toMcpTool(tool) as ListToolsResult['tools'][number]),
  }));

  // One Server per session (stdio, or one Streamable HTTP session), so the level is this session's.
  let logLevel: LoggingLevel = DEFAULT_MCP_LOG_LEVEL;
  let levelSet = false;
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    logLevel = request.params.level;
    levelSet = true;
    return {};
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    // A call an approval rule marks `ask` is put to the user through elicitation, when the client supports it.
    const approve = elicitationApprover(server, extra.requestId);
    // Someone listens while the call runs (a progress token, a level the client set): progress and
    // stderr lines go out live (mcp-call-events.ts). Otherwise the call streams nothing.
    const progressToken = request.params._meta?.progressToken;
    const live =
      progressToken === undefined && !levelSet
        ? undefined
        : createMcpCallEvents({ toolName: request.params.name, progressToken, streamLog: true, level: () => logLevel, sendNotification: extra.sendNotification, signal: extra.signal, logger: host.logger });
    const principal = principalOfAuthInfo(extra.authInfo);
    const callOptions: CallToolOptions = { signal: extra.signal, approve, transport: 'mcp', ...(live ? { events: live.events } : {}), ...(principal ? { principal } : {}) };
    if (options.telemetry !== undefined) {
      const trace = mcpRequestTrace(extra);
      if (trace !== undefined) callOptions.trace = trace;
    }
    const result = await host.callTool(request.params.name, request.params.arguments ?? {}, callOptions);
    const streamed = live === undefined ? undefined : { stderrSent: true, ...(await live.finish()) };
    // Related to the request: over Streamable HTTP they travel on the call's own response stream.
    for (const params of callLogMessages(request.params.name, result, streamed)) {
      if (!isLevelShown(params.level, logLevel) || extra.signal.aborted) continue;
      await extra.sendNotification({ method: 'notifications/message', params }).catch((error: unknown) => host.logger.debug({ error: String(error) }, 'mcp log message not delivered'));
    }
    return toMcpCallToolResult(result);
  });

  const ownCatalog = options.resources === undefined ? hostResourceCatalog(host) : undefined;
  // Identity mode: workspace files are read_only reading; a principal below that (or denied) reads none.
  const resourceAccess = (authInfo: Parameters<typeof principalOfAuthInfo>[0]): string | undefined => {
    const principal = principalOfAuthInfo(authInfo);
    const grant = principalGrant(host, principal);
    if (grant === undefined || (grant.allowed && isPermitted('read_only', grant.permissionMode))) return undefined;
    return `"${principal?.subject ?? ''}" may not read this host's resources (it needs read_only; the host's principals policy gives it ${grant.allowed ? grant.permissionMode : 'nothing'}).`;
  };
  const endResources = registerResourceHandlers(server, options.resources ?? (ownCatalog as ResourceCatalog), host.logger, resourceAccess);

  // Coalesce a burst of changes (a reload touching many files) into one notification.
  let pending = false;
  const unsubscribe = host.onEvent((event) => {
    if (!TOOL_SET_EVENTS.has(event.type) || pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      if (server.transport === undefined) return;
      server.sendToolListChanged().catch((error: unknown) => host.logger.debug({ error: String(error) }, 'mcp list_changed not delivered'));
    });
  });
  if (options.telemetry !== undefined) traceMcpRequests(server, options.telemetry);
  server.onclose = () => {
    unsubscribe();
    endResources();
    void ownCatalog?.close();
  };
  return server;
}
