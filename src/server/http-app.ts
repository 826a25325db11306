/**
 * The Hono application: security middleware (Host header, Origin, CORS for allowed origins, bearer
 * token), body limit (enforced by the JSON body reader, for /mcp too), and the route modules.
 * Built by `startServer`; usable alone (e.g. `app.request(...)`) for embedding.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Host } from '../host-types.ts';
import { httpTracing } from '../telemetry/http-middleware.ts';
import type { Telemetry } from '../telemetry/span.ts';
import type { Logger } from '../logger.ts';
import { type DrainState, drainGuard } from './drain.ts';
import type { EventStreamHub } from './events.ts';
import { HttpError, jsonError } from './http-errors.ts';
import { mcpParseError, type McpHttpHandler } from './mcp-http.ts';
import type { ServerMetrics } from './metrics.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { DEFAULT_BODY_LIMIT_BYTES, jsonBodyLimit, readJsonBody } from './request-body.ts';
import type { RequestTracker } from './request-tracker.ts';
import type { CallHistory } from './call-history.ts';
import { APPROVAL_PATH, APPROVALS_PATH, approvalRoutes } from './routes/approvals.ts';
import { CALL_PATH, CALLS_PATH, callHistoryRoutes } from './routes/calls.ts';
import { APPROVAL_RULES_PATH, gateRoutes } from './routes/gates.ts';
import { consoleRoutes } from './routes/console.ts';
import { dispatchRoutes } from './routes/dispatch.ts';
import { healthRoutes } from './routes/health.ts';
import { inspectRoutes } from './routes/inspect.ts';
import { scheduleRoutes } from './routes/schedules.ts';
import type { ScheduleService } from '../schedules/types.ts';
import type { LockfileCache } from '../distribution/lockfile-cache.ts';
import { loadFailureRoutes } from './routes/load-failures.ts';
import { toolRoutes } from './routes/tools.ts';
import { toolsTreeRoutes } from './routes/tools-tree.ts';
import { adminTokenGuard, allowedOriginsCors, bearerTokenGuard, hasAdminToken, hostHeaderGuard, isJsonContentType, originGuard, PUBLIC_PATHS } from './security.ts';
import type { AuthConfig } from '../identity/config.ts';
import type { TokenVerifier } from '../identity/token-verifier.ts';
import { resourceMetadataUrl } from '../identity/challenge.ts';
import { identityGuard } from '../identity/http-guard.ts';
import { resourceMetadataPaths, resourceMetadataRoutes } from '../identity/resource-metadata.ts';
import { approverGuard, isApprover } from '../identity/approver-guard.ts';
import { requestPrincipal } from '../identity/request-principal.ts';
import { whoamiRoutes } from '../identity/whoami-route.ts';
import { eventFilterFor } from '../identity/event-filter.ts';

export { DEFAULT_BODY_LIMIT_BYTES };

export interface HttpAppOptions {
  /** The host every route calls (pass the instrumented view so metrics see every call). */
  host: Host;
  metrics: ServerMetrics;
  events: EventStreamHub;
  mcp: McpHttpHandler;
  logger: Logger;
  /** When set, every path but /healthz needs `Authorization: Bearer <token>` (or the admin token). */
  token?: string;
  /**
   * Lists and decides approvals (`GET /v1/approvals`, `POST /v1/approvals/{id}` need it, whatever
   * `token` is), opens approval arguments on /v1/events, and works as the bearer token everywhere.
   */
  adminToken: string;
  /** Where a person finds the admin token, for the refusal message. */
  adminTokenWhereabouts?: () => string;
  /** Refuse (403) requests whose Host header is not a loopback name. */
  checkHostHeader: boolean;
  /**
   * Browser origins allowed besides the server's own (`scheme://host[:port]`); requests carrying any
   * other `Origin` are refused with 403, requests without one pass. Default none.
   */
  allowedOrigins?: readonly string[];
  bodyLimitBytes?: number;
  /** The most tool calls one `POST /v1/dispatch` may carry (`limits.max_dispatch_calls`). Default 64. */
  maxDispatchCalls?: number;
  requestTracker?: RequestTracker;
  isShuttingDown?: () => boolean;
  /** The daemon's drain state: /readyz and /healthz report it, and while draining other requests are refused (src/server/drain.ts). */
  drain?: DrainState;
  /** The lockfile `GET /v1/tools/{name}/inspect` reads each wasm tool's `provenance` from; none = no `provenance`. */
  lockfile?: LockfileCache;
  /** The recent calls `GET /v1/calls` serves (admin token only); without it those routes are not served. */
  history?: CallHistory;
  /** The scheduler `GET /v1/schedules` reports (config `schedules`); none = an empty list. */
  schedules?: ScheduleService;
  /**
   * Identity mode (config `auth`): every path but the probes, the console's files and the Protected
   * Resource Metadata needs a JWT access token for `auth.audience` (or the admin token); `token` is
   * not used. Approvals are decided by approver principals or the admin token.
   */
  identity?: { auth: AuthConfig; verifier: TokenVerifier };
  /** Tracing (src/telemetry/): an HTTP server span per request, handed to the calls it makes. Absent = off. */
  telemetry?: Telemetry;
}

/** Streams that stay open until the client leaves; shutdown ends them instead of waiting. */
export function isLongLivedRequest(method: string, path: string): boolean {
  return method === 'GET' && (path === '/v1/events' || path === '/mcp');
}

export function createHttpApp(options: HttpAppOptions): Hono {
  const { host, logger } = options;
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof HttpError) return jsonError(c, error.status, error.code, error.message, error.details);
    if (error instanceof HTTPException) return jsonError(c, error.status as 400, 'invalid_body', error.message);
    logger.error({ error: error instanceof Error ? error.stack : String(error), path: c.req.path }, 'unhandled error in HTTP handler');
    return jsonError(c, 500, 'internal_error', 'Internal server error; see the server log.');
  });
  app.notFound((c) => jsonError(c, 404, 'not_found', `No route for ${c.req.method} ${c.req.path}. See /openapi.json.`));

  // First, so a request refused by a guard below is traced too.
  if (options.telemetry !== undefined) app.use('*', httpTracing(options.telemetry));
  if (options.checkHostHeader) app.use('*', hostHeaderGuard());
  app.use('*', originGuard(options.allowedOrigins ?? []));
  if (options.allowedOrigins !== undefined && options.allowedOrigins.length > 0) app.use('*', allowedOriginsCors(options.allowedOrigins));
  // The console's page and assets hold no data and a browser navigation cannot send a token, so they
  // answer before the token guard (after the Host and Origin checks); the page then asks for the token.
  app.route('/', consoleRoutes());
  // Identity mode: the metadata is public (clients read it before they have a token), then every other
  // path needs a valid access token, and approvals need an approver.
  const identity = options.identity;
  const metadataUrl = identity === undefined ? undefined : resourceMetadataUrl(identity.auth.audience);
  if (identity !== undefined && metadataUrl !== undefined) {
    app.route('/', resourceMetadataRoutes(identity.auth));
    app.use('*', identityGuard({ verifier: identity.verifier, metadataUrl, publicPaths: [...PUBLIC_PATHS, ...resourceMetadataPaths(identity.auth)], adminToken: options.adminToken }));
  }
  // Approvals are a person's to decide: the admin token, never the regular one, on the same routes the
  // router matches for the handlers below, before the regular guard so the answer is always admin_token_required.
  const adminGuardOptions = {
    adminToken: options.adminToken,
    token: options.token,
    whereabouts: options.adminTokenWhereabouts ?? (() => ''),
  };
  const adminGuard = adminTokenGuard(adminGuardOptions);
  const approvalGuard = identity === undefined ? adminGuard : approverGuard(host);
  app.get(APPROVALS_PATH, approvalGuard);
  app.post(APPROVAL_PATH, approvalGuard);
  app.get(APPROVAL_RULES_PATH, adminTokenGuard({ ...adminGuardOptions, purpose: 'reading the approval rules', regularCannot: 'does not read the approval rules' }));
  if (options.history !== undefined) {
    const historyGuard = adminTokenGuard({ ...adminGuardOptions, purpose: "reading other clients' calls (arguments and results)", regularCannot: "does not read other clients' calls" });
    app.get(CALLS_PATH, historyGuard);
    app.get(CALL_PATH, historyGuard);
  }
  if (identity === undefined && options.token !== undefined && options.token !== '') app.use('*', bearerTokenGuard(options.token, options.adminToken));
  // Draining (src/server/drain.ts): probes and metrics still answer, the rest is refused with 503 + Retry-After.
  app.use('*', drainGuard(() => options.drain?.draining === true || options.isShuttingDown?.() === true));
  if (options.requestTracker) app.use('*', options.requestTracker.middleware(isLongLivedRequest));
  // Every route enforces the limit while reading (readJsonBody), /mcp included: the body-limit
  // middleware would make the Node adapter build a full web Request (and a web stream) per call.
  app.use('*', jsonBodyLimit(bodyLimitBytes));

  app.route('/', healthRoutes(host, options.metrics, options.drain !== undefined ? { drain: options.drain } : {}));
  // Before the tool routes: /v1/tools/tree is the declaration tree, not a tool named "tree".
  app.route('/', toolsTreeRoutes(host));
  app.route('/', toolRoutes(host, metadataUrl !== undefined ? { metadataUrl } : {}));
  app.route('/', inspectRoutes(host, options.lockfile !== undefined ? { lockfile: options.lockfile } : {}));
  app.route('/', dispatchRoutes(host, options.maxDispatchCalls !== undefined ? { maxCalls: options.maxDispatchCalls } : {}));
  app.route('/', approvalRoutes(host));
  app.route('/', loadFailureRoutes(host));
  app.route('/', whoamiRoutes(host));
  app.route('/', gateRoutes(host));
  if (options.history !== undefined) app.route('/', callHistoryRoutes(options.history));
  app.route('/', scheduleRoutes(options.schedules));
  // Approval events carry the call's arguments only on streams opened with the admin token.
  app.get('/v1/events', (c) => {
    const principal = requestPrincipal(c.req.raw);
    const approvalArguments = hasAdminToken(c, options.adminToken) || (identity !== undefined && isApprover(host, principal));
    return options.events.handle(c, { approvalArguments, filter: identity === undefined ? undefined : eventFilterFor(host, principal) });
  });
  app.all('/mcp', async (c) => {
    // A JSON POST's body is read here, straight from the Node request and within the limit; the rest
    // (other content types, GET, DELETE) the MCP handler answers from the request itself.
    if (c.req.method !== 'POST' || !isJsonContentType(c.req.header('content-type'))) return options.mcp.handle(c.req.raw);
    let body: unknown;
    try {
      body = await readJsonBody(c);
    } catch (error) {
      if (error instanceof HttpError && error.code === 'invalid_json') return mcpParseError();
      throw error;
    }
    return options.mcp.handle(c.req.raw, body);
  });
  app.get('/openapi.json', (c) => c.json(buildOpenApiDocument({ serverUrl: new URL(c.req.url).origin })));
  return app;
}
