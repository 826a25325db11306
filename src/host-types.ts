/** The public face of a running host: what the HTTP server, MCP server and CLI are built on. */
import type { Principal } from './identity/principal.ts';
import type { HostAuditor } from './audit/types.ts';
import type { PrincipalPolicy } from './identity/policy.ts';
import type { ApprovalEvent, ApprovalRule, Approver, SharedApprovals } from './approvals/index.ts';
import type { TraceSpan } from './telemetry/span.ts';
import type { CallEvents } from './call-events.ts';
import type { CommandSandboxSettings, ProtectedPaths, ShellSandboxOptions } from './command-sandbox.ts';
import type { Logger } from './logger.ts';
import type { QuotasConfig } from './quotas/config.ts';
import type { SharedState } from './state/shared-state.ts';
import type { PermissionLevel } from './permission.ts';
import type { ToolLookup, ToolRegistry } from './registry.ts';
import type { ToolResult } from './result.ts';
import type { AnyTool, HostResource, HostResourceKey, ToolSource } from './tool.ts';

/**
 * A host event. `replica` is set on events a fleet-scope subscription delivers (`onEvent(listener,
 * {scope: "fleet"})`) when the host shares state with other replicas: the replica it happened on.
 */
export type HostEvent = HostEventBody & { replica?: string };

/** Which events a subscription gets: this replica's (default), or the whole fleet's (src/host/events.ts). */
export type EventScope = 'replica' | 'fleet';

export type HostEventBody =
  | { type: 'added' | 'updated' | 'removed'; name: string; source: ToolSource; file?: string }
  | { type: 'load_failed'; file: string; error: string; code?: string }
  | { type: 'collision'; name: string; kept: ToolSource; rejected: ToolSource; reason: string; file?: string }
  /** A call ended (any edge: HTTP, MCP, CLI); for live views. Arguments and results are not included. */
  | { type: 'call_finished'; tool: string; call_id: string; duration_ms: number; is_error: boolean; /** Identity mode: the caller's subject. */ subject?: string }
  /** A wasm tool's outgoing request was refused by its network policy (no paths, headers or bodies). */
  | { type: 'network_denied'; tool: string; call_id: string; kind: string; host: string; port: number; reason: string; /** Identity mode: the caller's subject. */ subject?: string }
  /** `approval_requested` (a call waits for a person; redacted arguments) and `approval_decided`. */
  | ApprovalEvent;

export interface LoadFailure {
  file: string;
  error: string;
  code?: string;
}

/** Which edge a call came in through (the daemon's call history shows it). */
export type CallTransport = 'http' | 'console' | 'mcp' | 'dispatch' | 'schedule';

export interface CallToolOptions {
  callId?: string;
  /** The edge the call came in through; informational (the host does not act on it). */
  transport?: CallTransport;
  signal?: AbortSignal;
  /** Overall deadline for the call; default from the host's limits. */
  timeoutMs?: number;
  /**
   * This edge's interactive way to ask a person when an approval rule says `ask` (MCP elicitation,
   * CLI prompt). It races the host's HTTP approval queue; without it only the queue can answer.
   */
  approve?: Approver;
  /**
   * The tool `lookupTool(name)` returned for this call just before, so the call does not look it up
   * a second time (an edge that answers an unknown tool itself, like the HTTP 404, looks up first).
   * It must come from that lookup in the same tick: a tool from anywhere else bypasses visibility.
   */
  lookedUp?: AnyTool;
  /**
   * The edge's listener for this call's progress and stderr lines while it runs (src/call-events.ts):
   * the tool's own reports, and "waiting for approval" / "waiting for quota" while it waits. Pass it
   * only when someone listens (an MCP progress token, a log level the client set).
   */
  events?: CallEvents;
  /** Who made the call (src/identity/principal.ts); absent when the edge knows no identity. */
  principal?: Principal;
  /** For a nested call (run_code's `tools.x()`): the call id of the call that made it (the audit log records it). */
  parentCallId?: string;
  /**
   * The span the call's `execute_tool` span is a child of (the edge's HTTP, MCP or CLI span;
   * src/telemetry/). Absent when tracing is off: the call then does no tracing work at all.
   */
  trace?: TraceSpan;
}

export interface Host {
  readonly workspaceRoot: string;
  /** How the host confines what tools run for the caller, and its own files (hidden / read-only). */
  readonly sandbox: CommandSandboxSettings;
  readonly extensionsDir: string | undefined;
  readonly permissionMode: PermissionLevel;
  readonly registry: ToolRegistry;
  readonly logger: Logger;
  /** Tools visible to clients (permission mode and include/exclude applied), sorted by name. */
  listTools(): AnyTool[];
  /** One call through the bridge; unknown, hidden or refused tools come back as is_error results. */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<ToolResult>;
  /**
   * Subscribe to the host's events (tool set changes, load failures, calls, approvals); returns an
   * unsubscribe function. `scope: "fleet"` adds the other replicas' call and approval events when the
   * host shares state with a fleet (see src/host/events.ts).
   */
  onEvent(listener: (event: HostEvent) => void, options?: { scope?: EventScope }): () => void;
  /** Extension files that failed to load, with the reason. */
  loadFailures(): LoadFailure[];
  /**
   * The registry's lookup, and for a name no tool has, the load failure of the file that would have
   * given it (same stem), so callers can say why a dropped tool is missing.
   */
  lookupTool(name: string): ToolLookup;
  /** Number of calls currently running. */
  inFlightCalls(): number;
  /**
   * Whether the first load of the extensions folder is done. A host created with `loadInBackground`
   * serves the built-ins and each extension tool as soon as it loads; before that it is not ready.
   */
  readiness(): HostReadiness;
  /** Settles once the first load of the extensions folder is done (at once when there is none). */
  readonly ready: Promise<void>;
  /**
   * Waits until no file of the first load that may provide `name` is still loading, for at most
   * `timeoutMs` or until `signal` aborts; true when the wait is over (the registry's answer for `name`
   * is final), false when it gave up. `callTool` does this itself; an edge that looks a tool up before
   * calling it (the HTTP call route) waits first.
   */
  waitForTool(name: string, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<boolean>;
  /** Stops watching, waits for in-flight calls up to `graceMs`, and frees the wasm runtime. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface HostLimits {
  /** Default per-call timeout for wasm tools (policy may override). */
  timeoutMs?: number;
  /** Default memory cap per wasm instance, MiB. */
  memoryMb?: number;
  /** Default output cap per stream, bytes. */
  outputBytes?: number;
  /** Worker threads for wasm calls. */
  poolSize?: number;
  /** Calls allowed to wait for a worker before new ones fail. */
  maxQueue?: number;
  /** Concurrent calls per wasm tool. */
  perToolConcurrency?: number;
}

export interface HostOptions {
  /** Root for file tools and relative policy paths. Default: process.cwd(). */
  workspaceRoot?: string;
  /** Drop-in folder of .wasm tools; undefined = no extensions. */
  extensionsDir?: string;
  /** Watch the extensions folder and hot-reload. Default false (serve/mcp turn it on). */
  watch?: boolean;
  /** Load the built-in tools. Default true. */
  builtins?: boolean;
  permissionMode?: PermissionLevel;
  include?: readonly string[];
  exclude?: readonly string[];
  /** Per-tool policies (same shape as a `<name>.policy.json` sidecar), keyed by tool name. */
  policies?: Readonly<Record<string, unknown>>;
  /** Transpile cache directory. */
  cacheDir?: string;
  /** JSON file of secrets `{NAME: value}`; environment `TOOLHOST_SECRET_<NAME>` is always read. */
  secretsFile?: string;
  /** Per-tool call quotas (`quotas` in the config file): see src/quotas/. */
  quotas?: QuotasConfig | undefined;
  /**
   * Where state shared with other replicas lives (src/state/): quota slots, the fleet's events.
   * Default: this process's memory. The host closes it when it closes.
   */
  state?: SharedState | undefined;
  limits?: HostLimits;
  /** Approval rules (config `approvals`), first match wins; none matching leaves the call to the permission mode. */
  approvals?: readonly ApprovalRule[];
  /** How long an `ask` call waits for a decision before it is refused. Default 120 000. */
  approvalTimeoutMs?: number;
  /** How `shell` commands are confined (config key `shell`): network, process and memory caps. */
  shell?: ShellSandboxOptions;
  /**
   * More of the host's own files that commands must not change (`readOnly`) or see (`hidden`), besides
   * the ones the host knows itself (installation, extensions folder, cache, secrets file). The
   * composition root adds the config file here.
   */
  protectedPaths?: Pick<ProtectedPaths, 'configFile' | 'hidden' | 'readOnly'>;
  logger?: Logger;
  /** Called once per extension file while the first load runs (progress for the CLI). */
  onLoadProgress?: (progress: { file: string; done: number; total: number }) => void;
  /**
   * Return from createHost before the extensions folder has loaded (the daemon listens meanwhile):
   * tools register as each file loads, `readiness()` and `ready` tell when all have, and a call to a
   * tool whose file is still loading waits for it within its deadline. Default false: createHost
   * returns with every file loaded (a one-shot CLI command, MCP over stdio).
   */
  loadInBackground?: boolean;
  /**
   * Identity mode's per-principal policy (src/identity/policy.ts): a call whose `principal` it
   * restricts runs only tools the principal's grant allows, at the principal's permission level.
   */
  principalPolicy?: PrincipalPolicy;
}

/** Extension loading plugs in here (see src/extensions/); the host only needs this much of it. */
export interface ExtensionSource {
  /** The first load of the folder (then watching, when asked); settles once every file loaded or failed. */
  start(): Promise<void>;
  failures(): LoadFailure[];
  close(): Promise<void>;
  /** Files of the first load not yet loaded or failed. */
  pending?(): string[];
  /** Of those, the files that may provide the tool `name` (a loading file that wants it or a clash-suffixed form of it). */
  pendingFor?(name: string): string[];
  /** Files loaded and serving a tool. */
  loadedCount?(): number;
  /** Settles once no file of the first load that may provide `name` is pending; undefined when none is. */
  whenSettled?(name: string): Promise<void> | undefined;
}

/** `GET /readyz`: whether the first load of the extensions folder is done. */
export interface HostReadiness {
  ready: boolean;
  /** Extension files the first load is still loading (absolute paths; the HTTP API shows them relative). */
  loading: string[];
  /** Extension files loaded so far (each serving a tool). */
  loaded: number;
}

/** Builds a host's extension source once the host's registry and event stream exist. */
export type ExtensionSourceFactory = (context: {
  options: HostOptions;
  workspaceRoot: string;
  registry: ToolRegistry;
  emit: (event: HostEvent) => void;
}) => ExtensionSource;

/** What createHost is given rather than importing: the tools built in, and how extensions load. */
export interface CreateHostDependencies {
  /** Default: the shipped built-ins (builtins/index.ts), imported at host creation. */
  builtinTools?: readonly AnyTool[];
  /** Default: none, and `extensionsDir` is not loaded (see src/compose.ts for the application's wiring). */
  extensions?: ExtensionSourceFactory;
  /** The audit log (config `audit`, opened by src/compose.ts): every call runs through it; the host closes it last. */
  audit?: HostAuditor;
  /** A fleet's shared approvals (src/approvals/shared.ts); default: this process's memory alone. */
  sharedApprovals?: SharedApprovals;
  /**
   * Host resources made another way than their key's `create` (e.g. background processes that other
   * replicas of a fleet can reach): the host's one instance of `key` comes from `create` here.
   */
  hostResources?: readonly HostResourceFactory[];
}

/** See CreateHostDependencies.hostResources. */
export interface HostResourceFactory<Resource extends HostResource = HostResource> {
  key: HostResourceKey<Resource>;
  create(): Resource;
}
