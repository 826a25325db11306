/**
 * The Streamable HTTP transport of one MCP session: the SDK's web-standard transport, with a fast
 * path for the common POST — one JSON-RPC request in an initialized session — that answers it as a
 * plain JSON body when nothing has to stream, and as SSE as soon as something does.
 *
 * The SDK answers every POST as an SSE stream (or, with `enableJsonResponse`, every POST as JSON,
 * silently dropping progress, log and elicitation messages). Its POST path also runs several zod
 * parses that fail by design (is this an initialize request? is this a result? an error?), and a
 * failing zod parse builds an error object: together most of MCP's extra cost per call over the
 * plain HTTP API. The fast path decides per request, lazily:
 * - the request's answer is held until the server sends the first message for it;
 * - if that message is the response, the answer is `application/json` (one body, Content-Length);
 * - if it is anything else related to the request (a `notifications/progress`, a log message, an
 *   elicitation request for an approval), the answer becomes `text/event-stream` at once: that
 *   message, any later ones, then the response, then the stream ends.
 * A request carrying `_meta.progressToken` takes the SDK's path (SSE from the start), as does
 * everything else: initialize, GET (the standalone stream), DELETE, batches, notifications and
 * responses from the client, and any request the fast path's checks do not accept (the SDK then
 * answers it, errors included, as before).
 *
 * A held request whose client goes away (the HTTP request is aborted) or that the client cancels
 * (`notifications/cancelled`, after which the server sends nothing for it) is answered 202 with no
 * body and forgotten; when the session closes, held requests get the SDK's 404 "Session not found".
 */
import { WebStandardStreamableHTTPServerTransport, type HandleRequestOptions } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCRequestSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type MessageExtraInfo, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { isJsonContentType } from './security.ts';

const SESSION_HEADER = 'mcp-session-id';

/** One request answered on the fast path, until its response is sent. */
interface HeldRequest {
  /** Settles the HTTP answer (JSON, SSE, or 202 when abandoned); undefined once settled. */
  answer: ((response: Response) => void) | undefined;
  /** Set once the answer became an SSE stream. */
  stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** Set when the client cancelled the stream: later messages for the request go nowhere. */
  gone: boolean;
  release: () => void;
}

const encoder = new TextEncoder();

function sseEvent(message: JSONRPCMessage): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function isResponseMessage(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !('method' in message) && ('result' in message || 'error' in message) && 'id' in message;
}

/** The params' `_meta.progressToken`, when the request carries one. */
function hasProgressToken(body: Record<string, unknown>): boolean {
  const params = body['params'];
  if (typeof params !== 'object' || params === null) return false;
  const meta = (params as Record<string, unknown>)['_meta'];
  return typeof meta === 'object' && meta !== null && (meta as Record<string, unknown>)['progressToken'] !== undefined;
}

/** The `requestId` of a `notifications/cancelled` message (not of a batch). */
function cancelledRequestId(body: unknown): RequestId | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  if (record['method'] !== 'notifications/cancelled' || 'id' in record) return undefined;
  const params = record['params'];
  if (typeof params !== 'object' || params === null) return undefined;
  const id = (params as Record<string, unknown>)['requestId'];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

export class McpSessionTransport extends WebStandardStreamableHTTPServerTransport {
  private readonly held = new Map<RequestId, HeldRequest>();
  private closedHere = false;

  /** Requests held on the fast path (answered neither as JSON nor as a finished stream yet). */
  get heldRequests(): number {
    return this.held.size;
  }

  override async handleRequest(request: Request, options?: HandleRequestOptions): Promise<Response> {
    if (!this.acceptsFastPath(request)) return super.handleRequest(request, options);
    let body: unknown = options?.parsedBody;
    if (body === undefined) {
      try {
        body = await request.json();
      } catch {
        return jsonRpcError(400, -32700, 'Parse error: Invalid JSON');
      }
    }
    const message = this.fastPathRequest(body);
    if (message !== undefined) return this.hold(message, request, options);
    const response = await super.handleRequest(request, { ...options, parsedBody: body });
    // The server sends nothing more for a cancelled request: settle its held answer.
    const cancelledId = cancelledRequestId(body);
    if (cancelledId !== undefined) this.abandon(cancelledId);
    return response;
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const isResponse = isResponseMessage(message);
    const id = isResponse ? message.id : options?.relatedRequestId;
    const held = id === undefined ? undefined : this.held.get(id);
    if (held === undefined) return super.send(message, options);
    if (isResponse) {
      held.release();
      if (held.stream !== undefined) {
        if (!held.gone) {
          held.stream.enqueue(sseEvent(message));
          held.stream.close();
        }
      } else {
        held.answer?.(new Response(JSON.stringify(message), { status: 200, headers: this.headers('application/json') }));
      }
      held.answer = undefined;
      return;
    }
    if (held.gone) throw new Error(`No connection established for request ID: ${String(id)}`);
    if (held.stream === undefined) this.startStream(held);
    held.stream?.enqueue(sseEvent(message));
  }

  override async close(): Promise<void> {
    if (!this.closedHere) {
      this.closedHere = true;
      for (const held of [...this.held.values()]) {
        held.release();
        if (held.stream !== undefined && !held.gone) {
          try {
            held.stream.close();
          } catch {
            // already closed
          }
        }
        held.answer?.(jsonRpcError(404, -32001, 'Session not found'));
        held.answer = undefined;
      }
    }
    await super.close();
  }

  /** Checks the SDK makes on every POST of an initialized session, without reading the body. */
  private acceptsFastPath(request: Request): boolean {
    if (request.method !== 'POST' || this.closedHere || this.sessionId === undefined) return false;
    const accept = request.headers.get('accept');
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return false;
    if (!isJsonContentType(request.headers.get('content-type'))) return false;
    if (request.headers.get(SESSION_HEADER) !== this.sessionId) return false;
    const version = request.headers.get('mcp-protocol-version');
    return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
  }

  /** The body as a JSON-RPC request the fast path answers, or undefined for the SDK's path. */
  private fastPathRequest(body: unknown): (JSONRPCMessage & { id: RequestId }) | undefined {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const record = body as Record<string, unknown>;
    if (typeof record['method'] !== 'string' || record['method'] === 'initialize' || !('id' in record) || hasProgressToken(record)) return undefined;
    const parsed = JSONRPCRequestSchema.safeParse(body);
    if (!parsed.success || this.held.has(parsed.data.id)) return undefined;
    return parsed.data;
  }

  private hold(message: JSONRPCMessage & { id: RequestId }, request: Request, options: HandleRequestOptions | undefined): Promise<Response> {
    return new Promise<Response>((resolve) => {
      const onAbort = (): void => this.abandon(message.id);
      const held: HeldRequest = {
        answer: resolve,
        stream: undefined,
        gone: false,
        release: () => {
          request.signal.removeEventListener('abort', onAbort);
          if (this.held.get(message.id) === held) this.held.delete(message.id);
        },
      };
      this.held.set(message.id, held);
      request.signal.addEventListener('abort', onAbort, { once: true });
      // The SDK builds these eagerly for every message; our handlers rarely read them.
      let headers: Record<string, string> | undefined;
      let url: URL | undefined;
      const requestInfo = {
        get headers() {
          return (headers ??= Object.fromEntries(request.headers.entries()));
        },
        get url() {
          return (url ??= new URL(request.url));
        },
      };
      const extra: MessageExtraInfo = { requestInfo, ...(options?.authInfo !== undefined ? { authInfo: options.authInfo } : {}) };
      try {
        this.onmessage?.(message, extra);
      } catch (error) {
        held.release();
        held.answer = undefined;
        this.onerror?.(error as Error);
        resolve(jsonRpcError(400, -32700, 'Parse error', { data: String(error) }));
      }
    });
  }

  /** The client will not read the answer (it went away, or cancelled the request): forget the request. */
  private abandon(id: RequestId): void {
    const held = this.held.get(id);
    if (held === undefined) return;
    held.release();
    held.gone = true;
    if (held.stream !== undefined) {
      try {
        held.stream.close();
      } catch {
        // the client already cancelled it
      }
    }
    held.answer?.(new Response(null, { status: 202 }));
    held.answer = undefined;
  }

  /** Something other than the response is sent for `held` first: its answer becomes an SSE stream. */
  private startStream(held: HeldRequest): void {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        held.stream = controller;
      },
      cancel: () => {
        held.gone = true;
        held.release();
      },
    });
    const headers = this.headers('text/event-stream');
    headers['Cache-Control'] = 'no-cache, no-transform';
    headers['X-Accel-Buffering'] = 'no';
    held.answer?.(new Response(stream, { status: 200, headers }));
    held.answer = undefined;
  }

  private headers(contentType: string): Record<string, string> {
    const headers: Record<string, string> = { 'Content-Type': contentType };
    if (this.sessionId !== undefined) headers[SESSION_HEADER] = this.sessionId;
    return headers;
  }

}

function jsonRpcError(status: number, code: number, message: string, extra?: Record<string, unknown>): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...extra }, id: null }), { status, headers: { 'Content-Type': 'application/json' } });
}
