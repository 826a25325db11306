/**
 * Entry points for the CLI's `toolhost serve` and `toolhost mcp`: build the host from a resolved
 * configuration, start the edge, and shut down cleanly on SIGINT/SIGTERM. Each edge's modules load
 * only when its command runs: an MCP client starting `toolhost mcp` never loads the HTTP stack.
 */
import type { ResolvedConfig } from '../config.ts';
import { createHost, type CreateHostDependencies } from '../host.ts';
import type { Host } from '../host-types.ts';
import type { Logger } from '../logger.ts';
import type { McpStdioSession } from './mcp-stdio.ts';
import type { RunningServer } from './serve.ts';
import { DEFAULT_GRACE_MS, installShutdownHandlers } from './shutdown.ts';

export interface RunCommandOptions {
  config: ResolvedConfig;
  logger: Logger;
  /** Hot reload of the extensions folder. Default true. */
  watch?: boolean;
  /** Passed to createHost (e.g. the extension source factory). */
  dependencies?: CreateHostDependencies;
  graceMs?: number;
  /** Install SIGINT/SIGTERM handlers that close and exit. Default true. */
  handleSignals?: boolean;
}

/** `toolhost serve`: host + HTTP daemon; resolves once listening. Bad bind settings are refused before the host loads. */
export async function runServeCommand(options: RunCommandOptions): Promise<{ host: Host; server: RunningServer }> {
  const { checkBindSettings, serverOptionsOf, startServer } = await import('./serve.ts');
  const serverOptions = serverOptionsOf(options.config.server);
  await checkBindSettings(serverOptions);
  const host = await createHost({ ...options.config.host, logger: options.logger, watch: options.watch ?? true }, options.dependencies);
  let server: RunningServer;
  try {
    server = await startServer(host, { ...serverOptions, logger: options.logger });
  } catch (error) {
    await host.close({ graceMs: 0 });
    throw error;
  }
  if (options.handleSignals !== false) installShutdownHandlers(() => server.close(options.graceMs ?? DEFAULT_GRACE_MS), options.logger);
  return { host, server };
}

/**
 * `toolhost mcp`: host + MCP over stdio (the logger must write to stderr). Resolves once
 * connected; `session.closed` settles when the client hangs up (the host is closed then).
 */
export async function runMcpStdioCommand(options: RunCommandOptions): Promise<{ host: Host; session: McpStdioSession }> {
  const host = await createHost({ ...options.config.host, logger: options.logger, watch: options.watch ?? true }, options.dependencies);
  const { serveMcpStdio } = await import('./mcp-stdio.ts');
  const session = await serveMcpStdio(host);
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const shutdown = async (): Promise<void> => {
    await host.close({ graceMs });
    await session.close();
  };
  void session.closed.then(() => host.close({ graceMs }));
  if (options.handleSignals !== false) installShutdownHandlers(shutdown, options.logger);
  return { host, session };
}
