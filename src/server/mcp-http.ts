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
 *
 * In a fleet (`sessionStore`, see mcp-session-store.ts for the design and why), any replica serves
 * any session: a replica that gets a request for a session it does not hold reads the session's
 * record and rebuilds its Server and transport by replaying the client's own state-setting requests
 * (initialize, then the latest log level and resource subscriptions) through them. A state-setting
 * request handled here is added to the record and replayed by the other holders; a client message
 * answering or cancelling something (an elicitation result, `notifications/cancelled`) is forwarded
 * to them; DELETE ends the session everywhere. Notifications that need the standalone GET stream
 * (tools/list_changed, resources/updated) are sent by whichever replica holds that stream, from its
 * own copy of the session: tool sets are the same on every replica, and every copy follows the
 * session's subscriptions. A replica's idle sweep drops only its own copy; the record expires after
 * `sessionIdleMs` without a request anywhere.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isInitializeRequest, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../host-types.ts';
import type { ResourceCatalog } from '../resources/catalog.ts';
import type { ResourceSource } from '../resources/types.ts';
import { hostResourceCatalog } from './mcp-resources.ts';
import { McpSessionTransport } from './mcp-http-transport.ts';
import { createMcpServer, type CreateMcpServerOptions } from './mcp-server.ts';
import { SESSION_STATE_METHODS, type McpSessionNotice, type McpSessionRecord, type McpSessionRequest, type McpSessionStore } from './mcp-session-store.ts';
import { isJsonContentType } from './security.ts';
import { requestPrincipal } from '../identity/request-principal.ts';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
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
  /** A fleet's session records (any replica serves any session); absent: sessions live in this process. */
  sessionStore?: McpSessionStore;
}

/** The origin of the requests a rebuilt session is replayed with (never sent anywhere). */
const REPLAY_URL = 'http://replica.invalid/mcp';

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
  /** When the fleet's record was last renewed from here (ms since epoch). */
  renewedAt: number;
  /** The protocol version the client speaks (sent with messages replayed into this copy). */
  protocolVersion: string;
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
  private readonly store: McpSessionStore | undefined;
  /** Sessions being rebuilt from the fleet's records, by id (concurrent requests share one rebuild). */
  private readonly rebuilding = new Map<string, Promise<McpSession | undefined>>();
  private readonly stopNotices: () => void;

  constructor(host: Host, options: McpHttpHandlerOptions = {}) {
    this.host = host;
    this.options = options;
    this.idleMs = options.sessionIdleMs ?? DEFAULT_MCP_SESSION_IDLE_MS;
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_MCP_SESSIONS;
    this.resources = options.resources ?? hostResourceCatalog(host, options.resourceSources);
    this.store = options.sessionStore;
    this.stopNotices = this.store?.onNotice((notice) => void this.onNotice(notice)) ?? (() => undefined);
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
      let session = this.sessions.get(sessionId);
      if (!session && this.store !== undefined) {
        try {
          session = await this.rebuild(sessionId, this.store);
        } catch (error) {
          return jsonRpcError(503, -32000, `Session "${sessionId}" is not held by this replica and the fleet's session store is unreachable (${error instanceof Error ? error.message : String(error)}); retry shortly.`);
        }
      }
      // A session is bound to the subject that opened it: another principal holding its id does not find it.
      if (!session || session.subject !== principal?.subject) return jsonRpcError(404, -32001, `Session "${sessionId}" not found; it ended, expired after being idle, or never existed. Initialize a new session.`);
      const found = session;
      if (this.store === undefined) return this.track(found, () => found.transport.handleRequest(request, { ...(parsedBody !== undefined ? { parsedBody } : {}), ...(authInfo ? { authInfo } : {}) }));
      return this.handleShared(found, sessionId, this.store, request, parsedBody, authInfo);
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
    // Stored before the client learns the id, so its next request may land on any replica.
    else if (this.store !== undefined) await this.storeNewSession(session, session.id, this.store, body.params);
    return response;
  }

  /** A request of a session in a fleet: renews the record, shares what the request changes. */
  private async handleShared(session: McpSession, id: string, store: McpSessionStore, request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> {
    let body = parsedBody;
    if (request.method === 'POST' && body === undefined) {
      try {
        body = await request.json();
      } catch {
        return mcpParseError();
      }
    }
    const now = Date.now();
    if (now - session.renewedAt > this.idleMs / 10) {
      session.renewedAt = now;
      store.touch(id, this.idleMs).catch((error: unknown) => this.host.logger.debug({ session: id, error: String(error) }, 'mcp session record not renewed'));
    }
    const response = await this.track(session, () => session.transport.handleRequest(request, { ...(body !== undefined ? { parsedBody: body } : {}), ...(authInfo ? { authInfo } : {}) }));
    if (request.method !== 'POST') return response;
    for (const message of Array.isArray(body) ? body : [body]) {
      const shared = sharedPart(message);
      if (shared === undefined) continue;
      const done = shared.kind === 'state' ? store.change(id, shared.request, this.idleMs) : store.forward(id, message);
      // Awaited for state: the client's next request may land on another replica, which must see it.
      await done.catch((error: unknown) => this.host.logger.warn({ session: id, error: String(error) }, 'mcp session change not shared with the fleet'));
    }
    return response;
  }

  private async storeNewSession(session: McpSession, id: string, store: McpSessionStore, params: Record<string, unknown>): Promise<void> {
    const requested = params['protocolVersion'];
    const protocolVersion = typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
    session.protocolVersion = protocolVersion;
    const record: McpSessionRecord = { initialize: params, protocolVersion, state: [], ...(session.subject !== undefined ? { subject: session.subject } : {}) };
    await store.create(id, record, this.idleMs).catch((error: unknown) => this.host.logger.warn({ session: id, error: String(error) }, 'mcp session not stored: only this replica can serve it'));
  }

  /** This replica's copy of a session held elsewhere in the fleet, rebuilt from its record; undefined when there is none. */
  private rebuild(id: string, store: McpSessionStore): Promise<McpSession | undefined> {
    const running = this.rebuilding.get(id);
    if (running !== undefined) return running;
    const rebuilt = (async () => {
      const record = await store.get(id, this.idleMs);
      if (record === undefined || this.closing || !this.makeRoom()) return undefined;
      this.opening += 1;
      let session: McpSession;
      try {
        session = await this.openSession(record.subject, () => id);
      } finally {
        this.opening -= 1;
      }
      session.protocolVersion = record.protocolVersion;
      await this.replay(session, record.protocolVersion, { method: 'initialize', params: record.initialize }, true);
      await this.replay(session, record.protocolVersion, { method: 'notifications/initialized' }, false);
      for (const request of record.state) await this.replay(session, record.protocolVersion, request, true);
      if (session.id !== id) {
        await this.closeSession(session);
        return undefined;
      }
      this.host.logger.debug({ session: id, state: record.state.length }, 'mcp session rebuilt from the fleet record');
      return session;
    })().finally(() => this.rebuilding.delete(id));
    this.rebuilding.set(id, rebuilt);
    return rebuilt;
  }

  /** Sends a client message to this replica's copy of a session as if the client had (its answer is dropped). */
  private async replay(session: McpSession, protocolVersion: string, message: McpSessionRequest | Record<string, unknown>, withId: boolean): Promise<void> {
    const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': protocolVersion };
    if (session.id !== undefined) headers[MCP_SESSION_HEADER] = session.id;
    const body = { jsonrpc: '2.0', ...(withId ? { id: `toolhost-replay-${randomUUID()}` } : {}), ...message };
    const response = await session.transport.handleRequest(new Request(REPLAY_URL, { method: 'POST', headers, body: JSON.stringify(body) }), { parsedBody: body });
    await response.text();
  }

  private async onNotice(notice: McpSessionNotice): Promise<void> {
    const session = this.sessions.get(notice.id);
    if (session === undefined) return;
    try {
      if (notice.type === 'ended') await this.closeSession(session);
      else if (notice.type === 'changed') await this.replay(session, session.protocolVersion, notice.request, true);
      else if (isObject(notice.message)) await this.replay(session, session.protocolVersion, notice.message, false);
    } catch (error) {
      this.host.logger.debug({ session: notice.id, notice: notice.type, error: String(error) }, 'mcp session notice not applied');
    }
  }

  /** Ends every session and its streams (server shutdown). */
  async closeAll(): Promise<void> {
    this.closing = true;
    this.stopNotices();
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

  private async openSession(subject: string | undefined, sessionId: () => string = () => randomUUID()): Promise<McpSession> {
    const server = createMcpServer(this.host, { ...this.options, resources: this.resources });
    const transport: McpSessionTransport = new McpSessionTransport({
      sessionIdGenerator: sessionId,
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
        // DELETE /mcp: the session ends on every replica.
        this.store?.end(id).catch((error: unknown) => this.host.logger.warn({ session: id, error: String(error) }, 'mcp session end not shared with the fleet'));
      },
      ...(this.options.maxRequestBodyBytes !== undefined ? { maxRequestBodySize: this.options.maxRequestBodyBytes } : {}),
    });
    const session: McpSession = { id: undefined, server, transport, active: 0, lastActive: Date.now(), closed: false, subject, renewedAt: Date.now(), protocolVersion: LATEST_PROTOCOL_VERSION };
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What of a client message the fleet must know: a state-setting request, or an answer/cancel for a server's request. */
function sharedPart(message: unknown): { kind: 'state'; request: McpSessionRequest } | { kind: 'forward' } | undefined {
  if (!isObject(message)) return undefined;
  const method = message['method'];
  if (typeof method === 'string') {
    if (SESSION_STATE_METHODS.has(method) && 'id' in message) {
      const params = message['params'];
      return { kind: 'state', request: { method, ...(isObject(params) ? { params } : {}) } };
    }
    return method === 'notifications/cancelled' ? { kind: 'forward' } : undefined;
  }
  return 'id' in message && ('result' in message || 'error' in message) ? { kind: 'forward' } : undefined;
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
