/**
 * `toolhost serve`: the HTTP daemon (REST + SSE + MCP Streamable HTTP) with graceful shutdown.
 */
import { lookup } from 'node:dns/promises';
import type { Server as HttpServer } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import type { ServerConfig } from '../config.ts';
import { ToolHostError } from '../errors.ts';
import type { Host } from '../host-types.ts';
import type { Telemetry } from '../telemetry/span.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { type AdminToken, adminTokenWhereabouts, removeAdminTokenFile, resolveAdminToken, writeAdminTokenFile } from './admin-token.ts';
import { CallHistory } from './call-history.ts';
import { DrainState } from './drain.ts';
import { EventStreamHub } from './events.ts';
import { createHttpApp, DEFAULT_BODY_LIMIT_BYTES } from './http-app.ts';
import type { ResourceSource } from '../resources/types.ts';
import { McpHttpHandler } from './mcp-http.ts';
import type { McpSessionStore } from './mcp-session-store.ts';
import { instrumentHost, ServerMetrics } from './metrics.ts';
import { RequestTracker } from './request-tracker.ts';
import { assertBindSettings, isLoopbackAddress } from './security.ts';
import { DEFAULT_GRACE_MS } from './shutdown.ts';
import type { AuthConfig } from '../identity/config.ts';
import { createTokenVerifier } from '../identity/token-verifier.ts';
import { reserveListener } from '../wasm/net/reserved-endpoints.ts';
import { resolve } from 'node:path';
import { createLockfileCache } from '../distribution/lockfile-cache.ts';
import { LOCKFILE_NAME } from '../distribution/lockfile.ts';
import type { ScheduleService } from '../schedules/types.ts';

export const DEFAULT_SERVER_HOST = '127.0.0.1';
export const DEFAULT_SERVER_PORT = 7411;

export interface StartServerOptions {
  /** Bind address. Default 127.0.0.1. A non-loopback address needs `token`. */
  host?: string;
  /** Port; 0 picks an ephemeral one. Default 7411. */
  port?: number;
  /** Bearer token required on every path but /healthz. */
  token?: string;
  /**
   * The admin token (lists and decides approvals; also a bearer token on every route): at least 16
   * visible ASCII characters, not the regular token. Default: generated at start (`server.admin`).
   */
  adminToken?: string;
  /**
   * Where a generated admin token is written, `<directory>/admin-token-<port>` (mode 0600, removed at
   * shutdown); the directory is created 0700. Default: no file (embedders read `server.admin.token`);
   * `toolhost serve` passes `$XDG_RUNTIME_DIR/toolhost`, else the user cache directory.
   */
  adminTokenDirectory?: string;
  /** Largest request body, bytes. Default 1 MiB. */
  bodyLimitBytes?: number;
  logger?: Logger;
  /** Interval of SSE keep-alive comments on /v1/events. Default 15 s. */
  keepAliveMs?: number;
  /** Close the host when the server closes. Default true. */
  closeHost?: boolean;
  /** Browser origins that may call the server besides its own (`scheme://host[:port]`). */
  allowedOrigins?: readonly string[];
  /** Close an MCP session idle (no request, no open stream) this long. Default 10 minutes. */
  mcpSessionIdleMs?: number;
  /** Most MCP sessions at once. Default 1000. */
  maxMcpSessions?: number;
  /** The most tool calls one `POST /v1/dispatch` may carry; more are refused whole (400 too_many_calls). Default 64. */
  maxDispatchCalls?: number;
  /** Calls kept for `GET /v1/calls` (the most recent ones). Default 200. */
  callHistorySize?: number;
  /**
   * The lockfile that says where each wasm tool came from (`provenance` in
   * `GET /v1/tools/{name}/inspect`); default `toolhost.lock` in the working directory; a missing file is no lock.
   */
  lockFile?: string;
  /** MCP resource sources served besides the workspace (`file:///{path}`); see src/resources/. */
  resourceSources?: readonly ResourceSource[];
  /**
   * The scheduler (config `schedules`), built on the daemon's instrumented host so its runs show in
   * metrics and `GET /v1/calls`; started once listening, stopped first at shutdown.
   */
  schedules?: (host: Host) => ScheduleService;
  /**
   * How long `close()` without an argument (SIGTERM) lets calls in flight finish while draining
   * (`limits.drain_timeout_ms`; src/server/drain.ts). Default DEFAULT_GRACE_MS (10 s); `toolhost serve` passes
   * the config's value, default DEFAULT_DRAIN_TIMEOUT_MS (25 s).
   */
  drainTimeoutMs?: number;
  /**
   * Identity mode (config `auth`): every path but the probes and the metadata needs a JWT access
   * token for `auth.audience`, validated against the issuer's keys (src/identity/). Excludes `token`.
   */
  auth?: AuthConfig;
  /** A fleet's MCP session records (any replica serves any session; src/server/mcp-session-store.ts). */
  mcpSessionStore?: McpSessionStore;
  /**
   * Traces and metrics over OTLP (src/telemetry/): HTTP and MCP request spans, the calls' spans under
   * them, and the `/metrics` families exported too. The server shuts it down (flushing) when it closes.
   */
  telemetry?: Telemetry;
}

/** The `startServer` options of a resolved configuration. */
export function serverOptionsOf(config: ServerConfig): StartServerOptions {
  return {
    host: config.host,
    port: config.port,
    ...(config.token !== undefined ? { token: config.token } : {}),
    ...(config.adminToken !== undefined ? { adminToken: config.adminToken } : { adminTokenDirectory: config.adminTokenDirectory }),
    bodyLimitBytes: config.bodyLimitBytes,
    allowedOrigins: config.allowedOrigins,
    mcpSessionIdleMs: config.mcpSessionIdleMs,
    maxMcpSessions: config.maxMcpSessions,
    maxDispatchCalls: config.maxDispatchCalls,
    lockFile: config.lockFile,
    drainTimeoutMs: config.drainTimeoutMs,
  };
}

/**
 * Refuses bind settings `startServer` would refuse or fail on, before anything is loaded: a bad host
 * or port, a non-loopback host without a token, a host name that does not resolve.
 * @throws ToolHostError('SERVER_START_REFUSED')
 */
export async function checkBindSettings(options: Pick<StartServerOptions, 'host' | 'port' | 'token' | 'auth'>): Promise<void> {
  const host = options.host ?? DEFAULT_SERVER_HOST;
  assertBindSettings({ host, port: options.port ?? DEFAULT_SERVER_PORT, token: options.token === '' ? undefined : options.token, identity: options.auth !== undefined });
  if (isIP(host) !== 0) return;
  try {
    await lookup(host);
  } catch (error) {
    throw new ToolHostError('SERVER_START_REFUSED', `Cannot bind host "${host}": the name does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`, { cause: error });
  }
}

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:7411 */
  url: string;
  /** The bound port (the real one when 0 was asked). */
  port: number;
  /** The bound address. */
  address: string;
  app: Hono;
  /** The MCP Streamable HTTP endpoint (e.g. `mcp.sessionCount`). */
  mcp: McpHttpHandler;
  /** The admin token, whether it was configured or generated, and its file (removed at shutdown). */
  admin: AdminToken;
  /**
   * Graceful shutdown (a drain, src/server/drain.ts): /readyz turns 503 and new requests are refused
   * with 503 + Retry-After while the daemon still listens; calls in flight finish for up to `graceMs`
   * (default: the `drainTimeoutMs` option) and background processes are ended (host.close); then the
   * listener closes, event and MCP streams end, and the remaining connections close. Idempotent.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts the daemon on `host`.
 * @throws ToolHostError('SERVER_START_REFUSED') for a bad host or port, a non-loopback bind without a token;
 *         ToolHostError('SERVER_LISTEN_FAILED') when the port cannot be bound.
 */
export async function startServer(host: Host, options: StartServerOptions = {}): Promise<RunningServer> {
  const bindHost = options.host ?? DEFAULT_SERVER_HOST;
  const requestedPort = options.port ?? DEFAULT_SERVER_PORT;
  const token = options.token === '' ? undefined : options.token;
  const logger = options.logger ?? host.logger ?? silentLogger();
  assertBindSettings({ host: bindHost, port: requestedPort, token, identity: options.auth !== undefined });
  if (options.auth !== undefined && token !== undefined) {
    throw new ToolHostError('SERVER_START_REFUSED', 'Identity mode (auth) and a static bearer token exclude each other: in identity mode every client presents its own access token. Remove the token.');
  }
  const adminToken = await resolveAdminToken({ adminToken: options.adminToken, token, directory: options.adminTokenDirectory, workspaceRoot: host.workspaceRoot });
  let admin: AdminToken = { token: adminToken.token, source: adminToken.source, file: undefined, notWritten: adminToken.notWritten };

  const parts = createServerParts(host, options, { bindHost, token, ...(options.auth !== undefined ? { auth: options.auth } : {}), adminToken: adminToken.token, adminTokenWhereabouts: () => adminTokenWhereabouts(admin), logger });
  const server = createAdaptorServer({ fetch: parts.app.fetch, hostname: bindHost }) as HttpServer;
  await listen(server, bindHost, requestedPort);
  server.on('error', (error) => logger.error({ error: error.message }, 'http server error'));
  const bound = server.address() as AddressInfo;
  if (adminToken.directory !== undefined) {
    try {
      admin = { ...admin, file: await writeAdminTokenFile(adminToken.directory, bound.port, admin.token) };
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw new ToolHostError('SERVER_START_REFUSED', `Cannot write the admin token file in ${adminToken.directory}: ${(error as Error).message}. Set TOOLHOST_ADMIN_TOKEN (or the config key admin_token) so no file is written.`, { cause: error });
    }
  }
  // The daemon's API is inside its trust boundary: no tool's network grant reaches it (src/wasm/net/reserved-endpoints.ts).
  const releaseListener = reserveListener(bound.address, bound.port);
  const url = `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
  // Never the token itself: logs travel further than the terminal.
  logger.info({ url, tools: host.listTools().length, auth: token !== undefined, identity: options.auth !== undefined, adminToken: admin.source, adminTokenFile: admin.file }, 'toolhost server listening');
  parts.schedules?.start();

  let closing: Promise<void> | undefined;
  const close = (graceMs: number = options.drainTimeoutMs ?? DEFAULT_GRACE_MS): Promise<void> => {
    closing ??= closeServer(server, host, parts, { graceMs, closeHost: options.closeHost !== false, logger }).finally(async () => {
      releaseListener();
      // The last spans and metrics are flushed before close resolves.
      await options.telemetry?.shutdown().catch((error: unknown) => logger.warn({ error: String(error) }, 'telemetry did not flush'));
      return admin.file === undefined ? undefined : removeAdminTokenFile(admin.file, admin.token);
    });
    return closing;
  };
  return { url, port: bound.port, address: bound.address, app: parts.app, mcp: parts.mcp, admin, close };
}

/** What the daemon is made of besides the HTTP server: metrics, event streams, MCP sessions, request tracking, and the app routing to them. */
interface ServerParts {
  app: Hono;
  metrics: ServerMetrics;
  history: CallHistory;
  events: EventStreamHub;
  mcp: McpHttpHandler;
  tracker: RequestTracker;
  schedules: ScheduleService | undefined;
  /** Started once shutdown starts: /readyz turns 503, new requests are refused. */
  drain: DrainState;
}

interface ServerBinding {
  bindHost: string;
  token: string | undefined;
  auth?: AuthConfig;
  adminToken: string;
  adminTokenWhereabouts: () => string;
  logger: Logger;
}

function createServerParts(host: Host, options: StartServerOptions, bind: ServerBinding): ServerParts {
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const metrics = new ServerMetrics(host);
  const history = new CallHistory(host, options.callHistorySize !== undefined ? { capacity: options.callHistorySize } : {});
  const instrumented = instrumentHost(host, metrics, history);
  const events = new EventStreamHub(host, options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {});
  const mcp = new McpHttpHandler(instrumented, {
    maxRequestBodyBytes: bodyLimitBytes,
    ...(options.mcpSessionIdleMs !== undefined ? { sessionIdleMs: options.mcpSessionIdleMs } : {}),
    ...(options.maxMcpSessions !== undefined ? { maxSessions: options.maxMcpSessions } : {}),
    ...(options.resourceSources !== undefined ? { resourceSources: options.resourceSources } : {}),
    ...(options.mcpSessionStore !== undefined ? { sessionStore: options.mcpSessionStore } : {}),
    ...(options.telemetry !== undefined ? { telemetry: options.telemetry } : {}),
  });
  if (options.telemetry !== undefined) options.telemetry.exportMetrics(metrics);
  const tracker = new RequestTracker();
  const schedules = options.schedules?.(instrumented);
  const drain = new DrainState();
  const app = createHttpApp({
    host: instrumented,
    metrics,
    events,
    mcp,
    logger: bind.logger,
    ...(bind.token !== undefined ? { token: bind.token } : {}),
    ...(bind.auth !== undefined ? { identity: { auth: bind.auth, verifier: createTokenVerifier(bind.auth) } } : {}),
    adminToken: bind.adminToken,
    adminTokenWhereabouts: bind.adminTokenWhereabouts,
    checkHostHeader: isLoopbackAddress(bind.bindHost),
    allowedOrigins: options.allowedOrigins ?? [],
    bodyLimitBytes,
    ...(options.maxDispatchCalls !== undefined ? { maxDispatchCalls: options.maxDispatchCalls } : {}),
    requestTracker: tracker,
    drain,
    history,
    lockfile: createLockfileCache(resolve(options.lockFile ?? LOCKFILE_NAME)),
    ...(schedules !== undefined ? { schedules } : {}),
    ...(options.telemetry !== undefined ? { telemetry: options.telemetry } : {}),
  });
  return {
    app,
    metrics,
    history,
    events,
    mcp,
    tracker,
    schedules,
    drain,
  };
}

/** Binds `server`; a port in use or a bind error becomes SERVER_LISTEN_FAILED. */
async function listen(server: HttpServer, bindHost: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(new ToolHostError('SERVER_LISTEN_FAILED', `Cannot listen on ${bindHost}:${port}: ${error.code === 'EADDRINUSE' ? 'the port is already in use' : error.message}.`, { cause: error }));
    };
    server.once('error', onError);
    server.listen(port, bindHost, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * Graceful shutdown, a drain: readiness goes false and new requests are refused (503 + Retry-After)
 * while the listener stays open, so probes and balancers see it; in-flight calls finish for up to
 * `graceMs` (host.close: background processes ended, calls still running then cancelled) and their
 * responses are written; then stop listening, end event and MCP streams, close the remaining connections.
 */
async function closeServer(server: HttpServer, host: Host, parts: ServerParts, options: { graceMs: number; closeHost: boolean; logger: Logger }): Promise<void> {
  const { graceMs, logger } = options;
  const deadline = Date.now() + graceMs;
  parts.drain.start(graceMs);
  logger.info({ graceMs, inFlightCalls: host.inFlightCalls(), inFlightRequests: parts.tracker.activeRequests }, 'toolhost server draining');
  parts.schedules?.stop();
  if (options.closeHost) await host.close({ graceMs });
  await parts.schedules?.close();
  await parts.tracker.idle(deadline - Date.now());
  logger.info({ inFlightCalls: host.inFlightCalls() }, 'toolhost server drained; closing');
  const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
  parts.events.closeAll();
  await parts.mcp.closeAll();
  parts.metrics.close();
  parts.history.close();
  // Let the last responses flush, then drop idle keep-alive connections until the server is closed.
  const sweeper = setInterval(() => server.closeIdleConnections(), 25);
  server.closeIdleConnections();
  const finalTimer = setTimeout(() => server.closeAllConnections(), Math.max(deadline - Date.now(), 100));
  await serverClosed;
  clearInterval(sweeper);
  clearTimeout(finalTimer);
  logger.info('toolhost server closed');
}

// Kept importable from here, where they lived first; they belong to no server (the stdio MCP command uses them too).
export { DEFAULT_GRACE_MS, installShutdownHandlers, type ShutdownHandlerOptions } from './shutdown.ts';
