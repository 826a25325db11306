/**
 * The MCP `resources` and `completions` capabilities of one session (one SDK `Server`), over a
 * ResourceCatalog shared by the edge's sessions (src/resources/):
 * - `resources/list` (paginated), `resources/templates/list`, `resources/read`;
 * - `resources/subscribe` / `unsubscribe`: this session's subscriptions (at most
 *   `MAX_SUBSCRIPTIONS_PER_SESSION`), each a watch of the catalog; a change sends
 *   `notifications/resources/updated {uri}` (changes to one URI within one turn are sent once);
 * - `notifications/resources/list_changed` once the session has listed resources (the catalog's tree
 *   watch starts then, and stops when the last interested session closes); the first list waits for
 *   that watch to be ready for up to `LIST_WATCH_READY_MS`, so a file created after the answer is seen;
 * - `completion/complete` for resource template arguments (the workspace's `file:///{path}`
 *   completes workspace paths). toolhost has no prompts: a `ref/prompt` is refused (-32602).
 * ResourceErrors become JSON-RPC errors: NOT_FOUND → -32002 (the spec's "resource not found"),
 * everything else → -32602 (invalid params), with `data.reason` = the ResourceError code.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CompleteResult,
  type ListResourcesResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../host-types.ts';
import type { Logger } from '../logger.ts';
import { ResourceCatalog } from '../resources/catalog.ts';
import { ResourceError, type ResourceSource } from '../resources/types.ts';
import { workspaceResourceSource } from '../resources/workspace-source.ts';

/** JSON-RPC error code the MCP specification gives "resource not found". */
export const RESOURCE_NOT_FOUND_CODE = -32002;
export const MAX_SUBSCRIPTIONS_PER_SESSION = 256;
/** How long the first `resources/list` of a session waits for the workspace watch to be in place. */
export const LIST_WATCH_READY_MS = 5_000;

/** The capabilities this module serves (merged into the server's). */
export const RESOURCE_CAPABILITIES = { resources: { subscribe: true, listChanged: true }, completions: {} } as const;

/** The catalog of an MCP edge on `host`: the workspace (`file:///{path}`), then `extra` sources in order. */
export function hostResourceCatalog(host: Host, extra: readonly ResourceSource[] = []): ResourceCatalog {
  return new ResourceCatalog([workspaceResourceSource({ workspaceRoot: host.workspaceRoot, permissionMode: host.permissionMode, logger: host.logger, sandbox: host.sandbox }), ...extra]);
}

/**
 * A JSON-RPC error the SDK sends as it is (`code`, `message`, `data`): unlike McpError, whose message
 * carries an "MCP error <code>:" prefix that the client's McpError then prefixes again.
 */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

function toMcpError(error: unknown): unknown {
  if (!(error instanceof ResourceError)) return error;
  const code = error.code === 'NOT_FOUND' ? RESOURCE_NOT_FOUND_CODE : ErrorCode.InvalidParams;
  return new RpcError(code, error.message, { reason: error.code, ...error.data });
}

async function answering<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toMcpError(error);
  }
}

/** Registers the handlers on `server`; returns the function that ends this session's watches (call on close). */
/**
 * Identity mode: says why a request's principal (its `extra.authInfo`) may not read resources, or
 * undefined when it may. Every resource request is checked before it is answered.
 */
export type ResourceAccessCheck = (authInfo: AuthInfo | undefined) => string | undefined;

export function registerResourceHandlers(server: Server, catalog: ResourceCatalog, logger: Logger, access?: ResourceAccessCheck): () => void {
  const refuse = (extra: { authInfo?: AuthInfo | undefined }): void => {
    const why = access?.(extra.authInfo);
    if (why !== undefined) throw new RpcError(ErrorCode.InvalidRequest, why, { reason: 'principal_denied' });
  };
  const subscriptions = new Map<string, Promise<() => void>>();
  let listWatch: { ready: Promise<void>; stop: () => void } | undefined;
  let closed = false;
  const pendingUpdates = new Set<string>();

  const sendUpdated = (uri: string): void => {
    if (pendingUpdates.has(uri)) return;
    pendingUpdates.add(uri);
    setImmediate(() => {
      pendingUpdates.delete(uri);
      if (closed || server.transport === undefined || !subscriptions.has(uri)) return;
      server.sendResourceUpdated({ uri }).catch((error: unknown) => logger.debug({ error: String(error) }, 'mcp resources/updated not delivered'));
    });
  };
  let listChangePending = false;
  const sendListChanged = (): void => {
    if (listChangePending) return;
    listChangePending = true;
    setImmediate(() => {
      listChangePending = false;
      if (closed || server.transport === undefined) return;
      server.sendResourceListChanged().catch((error: unknown) => logger.debug({ error: String(error) }, 'mcp resources/list_changed not delivered'));
    });
  };

  server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
    answering(async (): Promise<ListResourcesResult> => {
      refuse(extra);
      const page = await catalog.list(request.params?.cursor, extra.signal);
      if (listWatch === undefined && !closed) {
        listWatch = catalog.onListChanged(sendListChanged);
        let timer: NodeJS.Timeout | undefined;
        const waited = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, LIST_WATCH_READY_MS);
          timer.unref();
        });
        await Promise.race([listWatch.ready, waited]);
        clearTimeout(timer);
      }
      return page.nextCursor === undefined ? { resources: page.resources } : { resources: page.resources, nextCursor: page.nextCursor };
    }),
  );

  server.setRequestHandler(ListResourceTemplatesRequestSchema, (_request, extra) => {
    refuse(extra);
    return { resourceTemplates: catalog.templates() };
  });

  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    answering(async (): Promise<ReadResourceResult> => {
      refuse(extra);
      return { contents: await catalog.read(request.params.uri, extra.signal) };
    }),
  );

  server.setRequestHandler(SubscribeRequestSchema, (request, extra) =>
    answering(async () => {
      refuse(extra);
      const uri = request.params.uri;
      if (subscriptions.has(uri)) return {};
      if (subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
        throw new ResourceError('LIMIT', `This session already has ${MAX_SUBSCRIPTIONS_PER_SESSION} subscriptions; unsubscribe from some first.`);
      }
      const watching = catalog.watch(uri, () => sendUpdated(uri));
      subscriptions.set(uri, watching);
      try {
        const stop = await watching;
        if (closed || subscriptions.get(uri) !== watching) stop();
      } catch (error) {
        if (subscriptions.get(uri) === watching) subscriptions.delete(uri);
        throw error;
      }
      return {};
    }),
  );

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    const watching = subscriptions.get(request.params.uri);
    subscriptions.delete(request.params.uri);
    if (watching !== undefined) (await watching.catch(() => () => undefined))();
    return {};
  });

  server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
    answering(async (): Promise<CompleteResult> => {
      refuse(extra);
      const { ref, argument } = request.params;
      if (ref.type === 'ref/prompt') {
        throw new RpcError(ErrorCode.InvalidParams, `toolhost offers no prompts, so there is no prompt "${ref.name}" to complete.`);
      }
      const answer = await catalog.complete(ref.uri, argument.name, argument.value, extra.signal);
      return { completion: { ...answer } };
    }),
  );

  return () => {
    closed = true;
    listWatch?.stop();
    for (const watching of subscriptions.values()) void watching.then((stop) => stop(), () => undefined);
    subscriptions.clear();
  };
}
