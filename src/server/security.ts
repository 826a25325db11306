/**
 * Daemon security: loopback by default, a bearer token for anything else, constant-time token
 * comparison, and a Host header check against DNS rebinding on loopback binds.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import { ToolHostError } from '../errors.ts';
import { jsonError } from './http-errors.ts';

/** Paths reachable without the bearer token (liveness probes). */
export const PUBLIC_PATHS: readonly string[] = ['/healthz'];

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

/**
 * Refuses to start a server that would listen beyond loopback without a token.
 * @throws ToolHostError('SERVER_START_REFUSED')
 */
export function assertBindAllowed(options: { host: string; token: string | undefined }): void {
  if (isLoopbackAddress(options.host)) return;
  if (options.token === undefined || options.token === '') {
    throw new ToolHostError(
      'SERVER_START_REFUSED',
      `Refusing to listen on non-loopback address "${options.host}" without a bearer token: anyone who can reach it could run tools. Pass --token <secret> or set TOOLHOST_TOKEN, or bind to 127.0.0.1.`,
    );
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

/** 401 unless the request carries `Authorization: Bearer <token>`; `PUBLIC_PATHS` are exempt. */
export function bearerTokenGuard(token: string): MiddlewareHandler {
  return async (c, next) => {
    if (PUBLIC_PATHS.includes(c.req.path)) {
      await next();
      return undefined;
    }
    const presented = bearerTokenOf(c.req.header('authorization'));
    if (presented === undefined || !tokensEqual(presented, token)) {
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
