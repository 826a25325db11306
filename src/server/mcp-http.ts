/**
 * MCP Streamable HTTP at `/mcp`: stateful sessions (an `Mcp-Session-Id` per client), one SDK
 * `Server` and one web-standard transport per session, so `notifications/tools/list_changed`
 * reaches each client over its standalone GET SSE stream. POST (JSON-RPC), GET (SSE) and
 * DELETE (end session) are handled by the SDK transport.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../host-types.ts';
import { createMcpServer, type CreateMcpServerOptions } from './mcp-server.ts';

export const MCP_SESSION_HEADER = 'mcp-session-id';

export interface McpHttpHandlerOptions extends CreateMcpServerOptions {
  /** Largest POST body the transport reads. */
  maxRequestBodyBytes?: number;
}

interface McpSession {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

export class McpHttpHandler {
  private readonly host: Host;
  private readonly options: McpHttpHandlerOptions;
  private readonly sessions = new Map<string, McpSession>();
  private closing = false;

  constructor(host: Host, options: McpHttpHandlerOptions = {}) {
    this.host = host;
    this.options = options;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(request: Request): Promise<Response> {
    const sessionId = request.headers.get(MCP_SESSION_HEADER);
    if (sessionId !== null) {
      const session = this.sessions.get(sessionId);
      if (!session) return jsonRpcError(404, -32001, `Session "${sessionId}" not found; it ended or never existed. Initialize a new session.`);
      return session.transport.handleRequest(request);
    }
    if (request.method !== 'POST') {
      return jsonRpcError(400, -32000, `${request.method} /mcp needs an ${MCP_SESSION_HEADER} header; start a session with a POST initialize request.`);
    }
    if (this.closing) return jsonRpcError(503, -32000, 'The server is shutting down.');
    let body: unknown;
    try {
      body = await request.json();
    } catch (error) {
      return jsonRpcError(400, -32700, `Parse error: ${(error as Error).message}`);
    }
    if (!isInitializeRequest(body)) {
      return jsonRpcError(400, -32000, `A request without an ${MCP_SESSION_HEADER} header must be an initialize request.`);
    }
    const session = await this.openSession();
    return session.transport.handleRequest(request, { parsedBody: body });
  }

  /** Ends every session and its streams (server shutdown). */
  async closeAll(): Promise<void> {
    this.closing = true;
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(sessions.map(async ({ server, transport }) => {
      await transport.close();
      await server.close();
    }));
  }

  private async openSession(): Promise<McpSession> {
    const server = createMcpServer(this.host, this.options);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
        this.host.logger.debug({ session: id }, 'mcp session opened');
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
        this.host.logger.debug({ session: id }, 'mcp session closed');
      },
      ...(this.options.maxRequestBodyBytes !== undefined ? { maxRequestBodySize: this.options.maxRequestBodyBytes } : {}),
    });
    const session: McpSession = { server, transport };
    const unsubscribeHost = server.onclose;
    server.onclose = () => {
      unsubscribeHost?.();
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    transport.onerror = (error) => this.host.logger.debug({ error: error.message }, 'mcp http transport error');
    await server.connect(transport);
    return session;
  }
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'Content-Type': 'application/json' } });
}
