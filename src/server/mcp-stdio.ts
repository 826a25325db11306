/**
 * `toolhost mcp`: the MCP server over stdio. stdout carries only JSON-RPC; log to stderr
 * (createLogger({ stderr: true })). Resolves `closed` when stdin ends or the transport closes.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Readable, Writable } from 'node:stream';
import type { Host } from '../host-types.ts';
import { createMcpServer, type CreateMcpServerOptions } from './mcp-server.ts';

export interface ServeMcpStdioOptions extends CreateMcpServerOptions {
  stdin?: Readable;
  stdout?: Writable;
}

export interface McpStdioSession {
  server: Server;
  /** Settles when the client disconnects (stdin ends) or `close()` is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveMcpStdio(host: Host, options: ServeMcpStdioOptions = {}): Promise<McpStdioSession> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const server = createMcpServer(host, options);
  const transport = new StdioServerTransport(stdin, stdout);
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const unsubscribeHost = server.onclose;
  server.onclose = () => {
    unsubscribeHost?.();
    stdin.off('end', onEnd);
    resolveClosed();
  };
  const onEnd = (): void => {
    void server.close();
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
