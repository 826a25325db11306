/** The public face of a running host: what the HTTP server, MCP server and CLI are built on. */
import type { Logger } from './logger.ts';
import type { PermissionLevel } from './permission.ts';
import type { ToolRegistry } from './registry.ts';
import type { ToolResult } from './result.ts';
import type { AnyTool, ToolSource } from './tool.ts';

export type HostEvent =
  | { type: 'added' | 'updated' | 'removed'; name: string; source: ToolSource; file?: string }
  | { type: 'load_failed'; file: string; error: string; code?: string }
  | { type: 'collision'; name: string; kept: ToolSource; rejected: ToolSource; reason: string; file?: string };

export interface LoadFailure {
  file: string;
  error: string;
  code?: string;
}

export interface CallToolOptions {
  callId?: string;
  signal?: AbortSignal;
  /** Overall deadline for the call; default from the host's limits. */
  timeoutMs?: number;
}

export interface Host {
  readonly workspaceRoot: string;
  readonly extensionsDir: string | undefined;
  readonly permissionMode: PermissionLevel;
  readonly registry: ToolRegistry;
  readonly logger: Logger;
  /** Tools visible to clients (permission mode and include/exclude applied), sorted by name. */
  listTools(): AnyTool[];
  /** One call through the bridge; unknown, hidden or refused tools come back as is_error results. */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<ToolResult>;
  /** Subscribe to tool set changes and load failures; returns an unsubscribe function. */
  onEvent(listener: (event: HostEvent) => void): () => void;
  /** Extension files that failed to load, with the reason. */
  loadFailures(): LoadFailure[];
  /** Number of calls currently running. */
  inFlightCalls(): number;
  /** Stops watching, waits for in-flight calls up to `graceMs`, and frees the wasm runtime. */
  close(options?: { graceMs?: number }): Promise<void>;
}
