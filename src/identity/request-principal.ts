/**
 * The principal of an HTTP request, set by the identity guard once the request's token is valid and
 * read by the routes (HTTP API, /mcp, dispatch) to put it on their calls. Keyed by the web Request
 * object, so it lives exactly as long as the request.
 */
import type { Principal } from './principal.ts';

const principals = new WeakMap<Request, Principal>();

export function setRequestPrincipal(request: Request, principal: Principal): void {
  principals.set(request, principal);
}

/** The request's principal; undefined outside identity mode (or before the guard ran). */
export function requestPrincipal(request: Request): Principal | undefined {
  return principals.get(request);
}

/** `{principal}` for a CallToolOptions spread, empty when the request has none. */
export function principalOption(request: Request): { principal?: Principal } {
  const principal = principals.get(request);
  return principal === undefined ? {} : { principal };
}

/** The principal the admin token stands for in identity mode (recorded as the decider of approvals). */
export const ADMIN_TOKEN_PRINCIPAL: Principal = Object.freeze({ subject: 'admin-token', scopes: Object.freeze([]) as readonly string[], kind: 'static-token' as const });
