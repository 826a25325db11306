/**
 * MCP Streamable HTTP at `/mcp`: stateful sessions (an `Mcp-Session-Id` per client), one SDK
 * `Server` and one web-standard transport per session, so `notifications/tools/list_changed`
 * reaches each client over its standalone GET SSE stream. POST (JSON-RPC), GET (SSE) and
 * DELETE (end session) are handled by the session's transport (`McpSessionTransport`: the SDK's,
 * answering a plain request as JSON and anything that streams as SSE).
 *
 * Sessions are bounded: one that is idle (no request in flight, no open response stream such as
 * the GET SSE stream) for `sessionIdleMs` is closed, and at most `maxSessions` exist at once. When
 * full, a new initialize closes the longest-idle idle session to make room (clients that leak
 * sessions keep working, and a session that is in use is never cut); only when every session is in
 * use is it refused with 503. A closed session's Server and transport are released (its host
 * subscription ends), and later requests with its id get 404, which tells the client to re-initialize.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../host-types.ts';
import type { ResourceCatalog } from '../resources/catalog.ts';
import type { ResourceSource } from '../resources/types.ts';
import { hostResourceCatalog } from './mcp-resources.ts';
import { McpSessionTransport } from './mcp-http-transport.ts';
import { createMcpServer, type CreateMcpServerOptions } from './mcp-server.ts';
import { isJsonContentType } from './security.ts';
import { requestPrincipal } from '../identity/request-principal.ts';
import { principalAuthInfo } from './mcp-principal.ts';

export const MCP_SESSION_HEADER = 'mcp-session-id';
export const DEFAULT_MCP_SESSION_IDLE_MS = 10 * 60 * 1000;
export const DEFAULT_MAX_MCP_SESSIONS = 1000;
/** Longest pause between two sweeps for idle sessions. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

export interface McpHttpHandlerOptions extends CreateMcpServerOptions {
  /** Largest POST body the transport reads. */
  maxRequestBodyBytes?: number;
  /** Close a session after this long without a request in flight or an open stream. Default 10 minutes. */
  sessionIdleMs?: number;
  /** Most sessions at once. Default 1000. */
  maxSessions?: number;
  /** Resource sources served besides the workspace (`file:///{path}`), e.g. an embedder's. */
  resourceSources?: readonly ResourceSource[];
}

interface McpSession {
  /** Set once the transport has assigned it (initialize answered). */
  id: string | undefined;
  server: Server;
  transport: McpSessionTransport;
  /** Requests being handled plus response bodies (SSE streams) not yet finished. */
  active: number;
  /** When `active` last changed (ms since epoch). */
  lastActive: number;
  closed: boolean;
  /** Identity mode: the subject that opened the session; requests from anyone else do not find it. */
  subject: string | undefined;
}

export class McpHttpHandler {
  private readonly host: Host;
  private readonly options: McpHttpHandlerOptions;
  private readonly idleMs: number;
  private readonly maxSessions: number;
  /** Ordered by `lastActive`, oldest first: every change of activity moves a session to the end. */
  private readonly sessions = new Map<string, McpSession>();
  /** Sessions being initialized, not yet in `sessions` (they count against `maxSessions`). */
  private opening = 0;
  private sweeper: NodeJS.Timeout | undefined;
  private closing = false;
  /** Every session's resources: one workspace watch for all (closed by closeAll). */
  private readonly resources: ResourceCatalog;

  constructor(host: Host, options: McpHttpHandlerOptions = {}) {
    this.host = host;
    this.options = options;
    this.idleMs = options.sessionIdleMs ?? DEFAULT_MCP_SESSION_IDLE_MS;
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_MCP_SESSIONS;
    this.resources = options.resources ?? hostResourceCatalog(host, options.resourceSources);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Requests whose answer is held (JSON not yet sent, or an SSE answer not yet finished), over all sessions. */
  get heldRequestCount(): number {
    let count = 0;
    for (const session of this.sessions.values()) count += session.transport.heldRequests;
    return count;
  }

  /**
   * Answers one request to /mcp. `parsedBody`: a POST's JSON body when the caller has read it already
   * (the HTTP app reads it within the body limit without building a web body stream).
   */
  async handle(request: Request, parsedBody?: unknown): Promise<Response> {
    if (request.method === 'POST' && !isJsonContentType(request.headers.get('content-type'))) {
      return jsonRpcError(415, -32000, `Unsupported Media Type: POST /mcp needs "Content-Type: application/json" (received "${request.headers.get('content-type') ?? ''}").`);
    }
    const sessionId = request.headers.get(MCP_SESSION_HEADER);
    // Identity mode: the principal rides on each request (its own token), never on the session.
    const principal = requestPrincipal(request);
    const authInfo = principal === undefined ? undefined : principalAuthInfo(principal);
    if (sessionId !== null) {
      const session = this.sessions.get(sessionId);
      // A session is bound to the subject that opened it: another principal holding its id does not find it.
      if (!session || session.subject !== principal?.subject) return jsonRpcError(404, -32001, `Session "${sessionId}" not found; it ended, expired after being idle, or never existed. Initialize a new session.`);
      return this.track(session, () => session.transport.handleRequest(request, { ...(parsedBody !== undefined ? { parsedBody } : {}), ...(authInfo ? { authInfo } : {}) }));
    }
    if (request.method !== 'POST') {
      return jsonRpcError(400, -32000, `${request.method} /mcp needs an ${MCP_SESSION_HEADER} header; start a session with a POST initialize request.`);
    }
    if (this.closing) return jsonRpcError(503, -32000, 'The server is shutting down.');
    let body: unknown = parsedBody;
    if (body === undefined) {
      try {
        body = await request.json();
      } catch (error) {
        return jsonRpcError(400, -32700, `Parse error: ${(error as Error).message}`);
      }
    }
    if (!isInitializeRequest(body)) {
      return jsonRpcError(400, -32000, `A request without an ${MCP_SESSION_HEADER} header must be an initialize request.`);
    }
    if (!this.makeRoom()) {
      return jsonRpcError(503, -32000, `Too many MCP sessions: all ${this.maxSessions} are in use (limits.max_mcp_sessions). Retry later; clients should end sessions they no longer need with DELETE /mcp.`);
    }
    this.opening += 1;
    let session: McpSession;
    try {
      session = await this.openSession(principal?.subject);
    } finally {
      this.opening -= 1;
    }
    const response = await this.track(session, () => session.transport.handleRequest(request, { parsedBody: body, ...(authInfo ? { authInfo } : {}) }));
    // An initialize the transport refused (e.g. a wrong Accept header) leaves a session nobody can reach.
    if (session.id === undefined) void this.closeSession(session);
    return response;
  }

  /** Ends every session and its streams (server shutdown). */
  async closeAll(): Promise<void> {
    this.closing = true;
    this.stopSweeper();
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(sessions.map((session) => this.closeSession(session)));
    if (this.options.resources === undefined) await this.resources.close();
  }

  /** Closes sessions idle for longer than `sessionIdleMs`; returns how many. */
  closeIdleSessions(now: number = Date.now()): number {
    const cutoff = now - this.idleMs;
    const expired: McpSession[] = [];
    for (const session of this.sessions.values()) {
      if (session.lastActive > cutoff) break;
      if (session.active === 0) expired.push(session);
    }
    for (const session of expired) {
      this.host.logger.debug({ session: session.id, idleMs: now - session.lastActive }, 'mcp session expired');
      void this.closeSession(session);
    }
    if (this.sessions.size === 0) this.stopSweeper();
    return expired.length;
  }

  /** True when a new session fits, after closing the longest-idle idle session if the limit is reached. */
  private makeRoom(): boolean {
    if (this.sessions.size + this.opening < this.maxSessions) return true;
    for (const session of this.sessions.values()) {
      if (session.active > 0) continue;
      this.host.logger.info({ session: session.id, idleMs: Date.now() - session.lastActive, maxSessions: this.maxSessions }, 'mcp session limit reached; closing the longest-idle session');
      void this.closeSession(session);
      return this.sessions.size + this.opening < this.maxSessions;
    }
    return false;
  }

  /** Counts `run`'s request, and its response body until it ends, as activity of `session`. */
  private async track(session: McpSession, run: () => Promise<Response>): Promise<Response> {
    this.touch(session, 1);
    let response: Response;
    try {
      response = await run();
    } catch (error) {
      this.touch(session, -1);
      throw error;
    }
    // A JSON answer is complete when it is returned; only a stream (SSE) stays active while it is read.
    if (response.body === null || !isEventStream(response)) {
      this.touch(session, -1);
      return response;
    }
    const body = observeEnd(response.body, () => this.touch(session, -1));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  private touch(session: McpSession, change: 1 | -1): void {
    session.active += change;
    session.lastActive = Date.now();
    if (session.id !== undefined && !session.closed && this.sessions.delete(session.id)) this.sessions.set(session.id, session);
  }

  private async closeSession(session: McpSession): Promise<void> {
    if (session.closed) return;
    session.closed = true;
    if (session.id !== undefined && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    try {
      await session.transport.close();
    } finally {
      await session.server.close();
    }
  }

  private startSweeper(): void {
    if (this.sweeper !== undefined) return;
    const interval = Math.min(Math.max(Math.floor(this.idleMs / 4), 10), MAX_SWEEP_INTERVAL_MS);
    this.sweeper = setInterval(() => this.closeIdleSessions(), interval);
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private async openSession(subject: string | undefined): Promise<McpSession> {
    const server = createMcpServer(this.host, { ...this.options, resources: this.resources });
    const transport: McpSessionTransport = new McpSessionTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session.id = id;
        session.lastActive = Date.now();
        if (session.closed) return;
        this.sessions.set(id, session);
        this.startSweeper();
        this.host.logger.debug({ session: id }, 'mcp session opened');
      },
      onsessionclosed: (id) => {
        if (this.sessions.get(id) === session) this.sessions.delete(id);
        this.host.logger.debug({ session: id }, 'mcp session closed');
      },
      ...(this.options.maxRequestBodyBytes !== undefined ? { maxRequestBodySize: this.options.maxRequestBodyBytes } : {}),
    });
    const session: McpSession = { id: undefined, server, transport, active: 0, lastActive: Date.now(), closed: false, subject };
    const unsubscribeHost = server.onclose;
    server.onclose = () => {
      unsubscribeHost?.();
      session.closed = true;
      if (session.id !== undefined && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    };
    transport.onerror = (error) => this.host.logger.debug({ error: error.message }, 'mcp http transport error');
    await server.connect(transport);
    return session;
  }
}

function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
}

/** The same bytes as `body`; `onEnd` runs once when it is read to the end, fails or is cancelled. */
function observeEnd(body: ReadableStream<Uint8Array>, onEnd: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            end();
            controller.close();
          } else {
            controller.enqueue(chunk.value);
          }
        } catch (error) {
          end();
          controller.error(error);
        }
      },
      async cancel(reason) {
        end();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The answer to a POST /mcp whose body is not JSON (as the SDK's transport gives it). */
export function mcpParseError(): Response {
  return jsonRpcError(400, -32700, 'Parse error: Invalid JSON');
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'Content-Type': 'application/json' } });
}
