/**
 * `toolhost serve` and `toolhost mcp` for embedders: the composition root's daemon and stdio MCP
 * server (src/compose.ts) from a resolved configuration, plus SIGINT/SIGTERM handlers that close them
 * and exit. The CLI commands install handlers of their own (they report the exit code), so they call
 * the composition root directly.
 */
import { composeMcpStdio, composeServer, type ComposeOptions } from '../compose.ts';
import type { Host } from '../host-types.ts';
import type { McpStdioSession } from './mcp-stdio.ts';
import type { RunningServer } from './serve.ts';
import { DEFAULT_GRACE_MS, installShutdownHandlers } from './shutdown.ts';

export interface RunCommandOptions extends Omit<ComposeOptions, 'watch'> {
  /** Hot reload of the extensions folder. Default true. */
  watch?: boolean;
  graceMs?: number;
  /** Install SIGINT/SIGTERM handlers that close and exit. Default true. */
  handleSignals?: boolean;
}

/** `toolhost serve`: host + HTTP daemon; resolves once listening. Bad bind settings are refused before the host loads. */
export async function runServeCommand(options: RunCommandOptions): Promise<{ host: Host; server: RunningServer }> {
  const started = await composeServer({ ...options, watch: options.watch ?? true });
  if (options.handleSignals !== false) installShutdownHandlers(() => started.server.close(options.graceMs ?? DEFAULT_GRACE_MS), options.logger);
  return started;
}

/**
 * `toolhost mcp`: host + MCP over stdio (the logger must write to stderr). Resolves once
 * connected; `session.closed` settles when the client hangs up (the host is closed then).
 */
export async function runMcpStdioCommand(options: RunCommandOptions): Promise<{ host: Host; session: McpStdioSession }> {
  const started = await composeMcpStdio({ ...options, watch: options.watch ?? true, graceMs: options.graceMs ?? DEFAULT_GRACE_MS });
  if (options.handleSignals !== false) installShutdownHandlers(() => started.close(), options.logger);
  return { host: started.host, session: started.session };
}
