/**
 * Daemon security: loopback by default, a bearer token for anything else, an admin token (a
 * person's, never a tool's) for listing and deciding approvals, constant-time token comparison, a
 * Host header check against DNS rebinding on loopback binds, and an Origin check against cross-site
 * requests from web pages (only the daemon's own origin and configured `allowed_origins` may call
 * it from a browser).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { parse as parseContentType } from 'content-type';
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { ToolHostError } from '../errors.ts';
import { jsonError } from './http-errors.ts';
import { normalizeOrigin } from './origins.ts';

/** Paths reachable without the bearer token (liveness and readiness probes). */
export const PUBLIC_PATHS: readonly string[] = ['/healthz', '/readyz'];

const LOOPBACK_NAMES = new Set(['localhost', 'ip6-localhost', 'ip6-loopback']);

/** True for a loopback bind address: 127.0.0.0/8, ::1, localhost (and ::ffff:127.x). */
export function isLoopbackAddress(address: string): boolean {
  const host = stripBrackets(address.trim().toLowerCase());
  if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return true;
  const mapped = host.startsWith('::ffff:') ? host.slice('::ffff:'.length) : host;
  if (isIP(mapped) === 4) return mapped.startsWith('127.');
  if (isIP(host) === 6) return expandIpv6(host) === '0000:0000:0000:0000:0000:0000:0000:0001';
  return false;
}

/** True when a Host header names a loopback host (any port): localhost, 127.0.0.1, [::1]. */
export function isLoopbackHostHeader(header: string | undefined): boolean {
  if (header === undefined || header === '') return false;
  const value = header.trim().toLowerCase();
  let host: string;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return false;
    host = value.slice(1, end);
    const rest = value.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return false;
    return isIP(host) === 6 && isLoopbackAddress(host);
  }
  const colon = value.lastIndexOf(':');
  if (colon >= 0) {
    if (!/^\d{1,5}$/.test(value.slice(colon + 1))) return false;
    host = value.slice(0, colon);
  } else {
    host = value;
  }
  return isLoopbackAddress(host);
}

const HOST_NAME = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/**
 * Checks bind settings without touching the network: the host is an IP address or a host name, the
 * port an integer from 0 to 65535, and a non-loopback host comes with a token.
 * @throws ToolHostError('SERVER_START_REFUSED') naming the bad setting.
 */
export function assertBindSettings(options: { host: string; port: number; token: string | undefined; identity?: boolean }): void {
  const { host, port } = options;
  if (isIP(host) === 0 && !HOST_NAME.test(host)) {
    const hint = host.startsWith('[') ? ' (write an IPv6 address without brackets, e.g. ::1)' : '';
    throw new ToolHostError('SERVER_START_REFUSED', `Invalid host "${host}": expected an IP address or a host name${hint}.`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ToolHostError('SERVER_START_REFUSED', `Invalid port ${port}: expected an integer from 0 to 65535.`);
  }
  assertBindAllowed(options);
}

/**
 * Refuses to start a server that would listen beyond loopback without a token (identity mode, where
 * every request needs an access token, counts as one).
 * @throws ToolHostError('SERVER_START_REFUSED')
 */
export function assertBindAllowed(options: { host: string; token: string | undefined; identity?: boolean }): void {
  if (isLoopbackAddress(options.host) || options.identity === true) return;
  if (options.token === undefined || options.token === '') {
    throw new ToolHostError(
      'SERVER_START_REFUSED',
      `Refusing to listen on non-loopback address "${options.host}" without a bearer token: anyone who can reach it could run tools. Pass --token <secret> or set TOOLHOST_TOKEN, configure identity mode (config auth), or bind to 127.0.0.1.`,
    );
  }
}

/** Where a request arrived: the local address and port of its connection. */
export interface LocalEndpoint {
  address: string;
  port: number;
}

/**
 * True when a browser request with `Origin: origin` may proceed: the origin is listed in `allowed`
 * (normalized), or it is the daemon's own origin, `http://<address>:<port>` of the connection it
 * arrived on, where any loopback name stands for a loopback address. `null` is never allowed.
 */
export function isOriginAllowed(origin: string, endpoint: LocalEndpoint | undefined, allowed: ReadonlySet<string>): boolean {
  const normalized = normalizeOrigin(origin);
  if ('problem' in normalized) return false;
  if (allowed.has(normalized.origin)) return true;
  if (endpoint === undefined) return false;
  const url = new URL(normalized.origin);
  if (url.protocol !== 'http:' || Number(url.port === '' ? 80 : url.port) !== endpoint.port) return false;
  const host = stripBrackets(url.hostname);
  if (isLoopbackAddress(endpoint.address)) return isLoopbackAddress(host);
  return isIP(host) !== 0 && canonicalAddress(host) === canonicalAddress(endpoint.address);
}

/** True for a JSON media type: `application/json`, with or without parameters (`; charset=utf-8`). */
export function isJsonContentType(header: string | null | undefined): boolean {
  if (header === undefined || header === null || header === '') return false;
  try {
    return parseContentType(header).type === 'application/json';
  } catch {
    return false;
  }
}

/** Compares two tokens in time independent of where they differ (and of their lengths). */
export function tokensEqual(presented: string, expected: string): boolean {
  const presentedDigest = createHash('sha256').update(presented, 'utf8').digest();
  const expectedDigest = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(presentedDigest, expectedDigest);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/** 403 for requests whose Host header is not a loopback name (DNS rebinding defense). */
export function hostHeaderGuard(): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('host');
    if (!isLoopbackHostHeader(header)) {
      return jsonError(
        c,
        403,
        'forbidden_host',
        `Host header "${header ?? ''}" is not a loopback name; this server only answers requests addressed to localhost, 127.0.0.1 or [::1].`,
      );
    }
    await next();
    return undefined;
  };
}

/**
 * 403 for requests a web page sent from another origin: an `Origin` header that is neither the
 * daemon's own origin nor in `allowedOrigins` (`Origin: null` included), or, without `Origin`, a
 * browser's `Sec-Fetch-Site` saying the request came from another site (an `<img>` or `<script>`
 * GET). Requests without either header (curl, SDKs, servers) pass. /mcp answers in JSON-RPC form.
 */
export function originGuard(allowedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = allowedOriginSet(allowedOrigins);
  return async (c, next) => {
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    const crossSiteWithoutOrigin = origin === undefined && fetchSite !== undefined && !['same-origin', 'none'].includes(fetchSite.toLowerCase());
    if (crossSiteWithoutOrigin || (origin !== undefined && !isOriginAllowed(origin, localEndpointOf(c), allowed))) {
      const message =
        origin === undefined
          ? `Cross-site browser request refused (Sec-Fetch-Site: ${fetchSite ?? ''}).`
          : `Origin "${origin}" is not allowed: this server answers web pages only from its own origin and from allowed_origins (config allowed_origins, --allowed-origin, TOOLHOST_ALLOWED_ORIGINS).`;
      if (c.req.path === '/mcp') return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: ${message}` }, id: null }, 403);
      return jsonError(c, 403, 'forbidden_origin', message);
    }
    await next();
    return undefined;
  };
}

/**
 * CORS answers for the configured `allowedOrigins` (preflights, `Access-Control-Allow-Origin`), so a
 * web app served from one of them can call the API and MCP with its token. Other origins get none.
 */
export function allowedOriginsCors(allowedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = allowedOriginSet(allowedOrigins);
  return cors({
    origin: (origin) => {
      const normalized = normalizeOrigin(origin);
      return 'origin' in normalized && allowed.has(normalized.origin) ? origin : null;
    },
    allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'Authorization', 'Accept', 'Last-Event-ID', 'Mcp-Session-Id', 'Mcp-Protocol-Version'],
    exposeHeaders: ['Mcp-Session-Id', 'WWW-Authenticate'],
    maxAge: 600,
  });
}

/**
 * 401 unless the request carries `Authorization: Bearer <token>` with the regular token or the admin
 * token (`adminToken`); `PUBLIC_PATHS` are exempt.
 */
export function bearerTokenGuard(token: string, adminToken?: string): MiddlewareHandler {
  return async (c, next) => {
    if (PUBLIC_PATHS.includes(c.req.path)) {
      await next();
      return undefined;
    }
    const presented = bearerTokenOf(c.req.header('authorization'));
    const regular = presented !== undefined && tokensEqual(presented, token);
    const admin = presented !== undefined && adminToken !== undefined && tokensEqual(presented, adminToken);
    if (!regular && !admin) {
      c.header('WWW-Authenticate', 'Bearer realm="toolhost"');
      return jsonError(
        c,
        401,
        'unauthorized',
        presented === undefined ? 'Missing bearer token: send "Authorization: Bearer <token>".' : 'Invalid bearer token.',
      );
    }
    await next();
    return undefined;
  };
}

/** True when the request carries `Authorization: Bearer <adminToken>` (constant-time comparison). */
export function hasAdminToken(c: Context, adminToken: string): boolean {
  const presented = bearerTokenOf(c.req.header('authorization'));
  return presented !== undefined && tokensEqual(presented, adminToken);
}

export interface AdminTokenGuardOptions {
  adminToken: string;
  /** The regular token, if the daemon has one: presenting it gets 403 rather than 401. */
  token?: string | undefined;
  /** Where a person finds the admin token (one sentence or two), read per refusal. */
  whereabouts: () => string;
  /** What the guarded routes do, for the refusal ("listing and deciding approvals", the default). */
  purpose?: string;
  /** What the regular token cannot do there ("does not decide approvals", the default). */
  regularCannot?: string;
}

/**
 * Routes only a person may use (listing and deciding approvals): 401 `admin_token_required` without
 * the admin token, 403 `admin_token_required` for the regular token, which tools' clients hold.
 * Registered before the bearer-token guard, so these routes always answer with this code.
 */
export function adminTokenGuard(options: AdminTokenGuardOptions): MiddlewareHandler {
  return async (c, next) => {
    const presented = bearerTokenOf(c.req.header('authorization'));
    if (presented !== undefined && tokensEqual(presented, options.adminToken)) {
      await next();
      return undefined;
    }
    const regular = presented !== undefined && options.token !== undefined && options.token !== '' && tokensEqual(presented, options.token);
    const status = regular ? 403 : 401;
    if (status === 401) c.header('WWW-Authenticate', 'Bearer realm="toolhost-admin"');
    const what = regular ? `The regular token ${options.regularCannot ?? 'does not decide approvals'}` : presented === undefined ? 'No token was sent' : 'The token sent is not the admin token';
    return jsonError(
      c,
      status,
      'admin_token_required',
      `${what}: ${options.purpose ?? 'listing and deciding approvals'} needs the admin token, which a person has and tools do not. Send "Authorization: Bearer <admin token>". ${options.whereabouts()}`,
    );
  };
}

function allowedOriginSet(allowedOrigins: readonly string[]): Set<string> {
  const origins = new Set<string>();
  for (const origin of allowedOrigins) {
    const normalized = normalizeOrigin(origin);
    if ('problem' in normalized) throw new ToolHostError('CONFIG_INVALID', `allowed_origins: ${normalized.problem}`);
    origins.add(normalized.origin);
  }
  return origins;
}

/** The local end of the request's connection (Node server), else a loopback request URL (embedding). */
function localEndpointOf(c: Context): LocalEndpoint | undefined {
  const socket = (c.env as { incoming?: { socket?: { localAddress?: string; localPort?: number } } } | undefined)?.incoming?.socket;
  if (socket?.localAddress !== undefined && socket.localPort !== undefined) return { address: socket.localAddress, port: socket.localPort };
  const url = new URL(c.req.url);
  const port = Number(url.port === '' ? 80 : url.port);
  return url.protocol === 'http:' && isLoopbackAddress(url.hostname) ? { address: stripBrackets(url.hostname), port } : undefined;
}

/** An IP address in one spelling: IPv4-mapped IPv6 as IPv4, IPv6 fully expanded. */
function canonicalAddress(address: string): string {
  const lower = stripBrackets(address.toLowerCase());
  const mapped = lower.startsWith('::ffff:') ? lower.slice('::ffff:'.length) : lower;
  if (isIP(mapped) === 4) return mapped;
  return isIP(lower) === 6 ? expandIpv6(lower) : lower;
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function expandIpv6(address: string): string {
  const [head = '', tail] = address.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headParts.length - tailParts.length;
  const parts = tail === undefined ? headParts : [...headParts, ...Array<string>(Math.max(missing, 0)).fill('0'), ...tailParts];
  return parts.map((part) => part.padStart(4, '0')).join(':');
}
