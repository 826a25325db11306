/**
 * `toolhost mcp`: the MCP server over stdio. stdout carries only JSON-RPC; log to stderr
 * (createLogger({ stderr: true })). Resolves `closed` when stdin has ended and every request read
 * before the end is answered, or when the transport closes.
 *
 * End of input is not the end of the session's work: a client may write its requests, close stdin
 * and read the answers (`printf '…' | toolhost mcp`). The server stops reading, answers every request
 * it has read (each within its own deadline; a request the client cancelled expects no answer), then
 * closes.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import type { Host } from '../host-types.ts';
import type { ResourceSource } from '../resources/types.ts';
import { hostResourceCatalog } from './mcp-resources.ts';
import { createMcpServer, type CreateMcpServerOptions } from './mcp-server.ts';

export interface ServeMcpStdioOptions extends CreateMcpServerOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Resource sources served besides the workspace (`file:///{path}`), e.g. an embedder's. */
  resourceSources?: readonly ResourceSource[];
}

export interface McpStdioSession {
  server: Server;
  /** Settles when the client disconnects (stdin ends, and the requests read are answered) or `close()` is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * The SDK's stdio transport, counting the client's requests until they are answered (or cancelled),
 * so the end of input can wait for them.
 */
class AnsweringStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly inner: StdioServerTransport;
  private readonly unanswered = new Set<RequestId>();
  private idleWaiters: Array<() => void> = [];

  constructor(stdin: Readable, stdout: Writable) {
    this.inner = new StdioServerTransport(stdin, stdout);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message: JSONRPCMessage) => {
      if ('method' in message) {
        if ('id' in message) this.unanswered.add(message.id);
        else if (message.method === 'notifications/cancelled') this.settle(cancelledRequestId(message));
      }
      this.onmessage?.(message);
    };
  }

  get pendingRequests(): number {
    return this.unanswered.size;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.inner.send(message);
    if (!('method' in message) && 'id' in message && message.id !== undefined) this.settle(message.id);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Resolves once every request read so far is answered or cancelled. */
  idle(): Promise<void> {
    if (this.unanswered.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settle(id: RequestId | undefined): void {
    if (id === undefined || !this.unanswered.delete(id) || this.unanswered.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function cancelledRequestId(message: JSONRPCMessage): RequestId | undefined {
  const params = 'params' in message ? (message.params as Record<string, unknown> | undefined) : undefined;
  const id = params?.['requestId'];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

export async function serveMcpStdio(host: Host, options: ServeMcpStdioOptions = {}): Promise<McpStdioSession> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const resources = options.resources ?? hostResourceCatalog(host, options.resourceSources);
  const server = createMcpServer(host, { ...options, resources });
  const transport = new AnsweringStdioTransport(stdin, stdout);
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const unsubscribeHost = server.onclose;
  server.onclose = () => {
    unsubscribeHost?.();
    if (options.resources === undefined) void resources.close();
    stdin.off('end', onEnd);
    resolveClosed();
  };
  const onEnd = (): void => {
    const pending = transport.pendingRequests;
    if (pending > 0) host.logger.info({ pending }, 'mcp stdio input ended; answering the requests already read');
    void transport.idle().then(() => server.close());
  };
  stdin.on('end', onEnd);
  transport.onerror = (error) => host.logger.warn({ error: error.message }, 'mcp stdio transport error');
  await server.connect(transport);
  host.logger.info({ tools: host.listTools().length }, 'mcp server listening on stdio');
  return {
    server,
    closed,
    async close() {
      await server.close();
      await closed;
    },
  };
}
