/**
 * Identity mode's HTTP guard: every request but the public paths (probes, Protected Resource
 * Metadata, the console's static files answered before it) needs `Authorization: Bearer <JWT access
 * token>` valid for this resource (token-verifier.ts), or the admin token (a person's; it stands for
 * the principal `admin-token`). The principal is attached to the request (request-principal.ts).
 * Refusals: 401 `invalid_token` with `WWW-Authenticate: Bearer resource_metadata="…"` (plus
 * `error="invalid_token", error_description="…"` when a token was sent); 503 `auth_unavailable`
 * when the issuer's keys cannot be fetched (the token may be fine: retry).
 */
import type { MiddlewareHandler } from 'hono';
import { jsonError } from '../server/http-errors.ts';
import { bearerTokenOf, tokensEqual } from '../server/security.ts';
import { bearerChallenge } from './challenge.ts';
import { ADMIN_TOKEN_PRINCIPAL, setRequestPrincipal } from './request-principal.ts';
import type { TokenVerifier } from './token-verifier.ts';

export interface IdentityGuardOptions {
  verifier: TokenVerifier;
  /** The Protected Resource Metadata URL every 401 names. */
  metadataUrl: string;
  /** Paths answered without a token. */
  publicPaths: readonly string[];
  adminToken: string;
}

export function identityGuard(options: IdentityGuardOptions): MiddlewareHandler {
  const publicPaths = new Set(options.publicPaths);
  return async (c, next) => {
    if (publicPaths.has(c.req.path)) {
      await next();
      return undefined;
    }
    const header = c.req.header('authorization');
    const presented = bearerTokenOf(header);
    if (presented === undefined) {
      c.header('WWW-Authenticate', bearerChallenge(options.metadataUrl, header === undefined ? {} : { error: 'invalid_request', description: 'Send the token as "Authorization: Bearer <token>".' }));
      return jsonError(c, 401, header === undefined ? 'unauthorized' : 'invalid_request', 'This server needs an OAuth access token: send "Authorization: Bearer <token>". Its Protected Resource Metadata names the authorization server.', { resource_metadata: options.metadataUrl });
    }
    if (tokensEqual(presented, options.adminToken)) {
      setRequestPrincipal(c.req.raw, ADMIN_TOKEN_PRINCIPAL);
      await next();
      return undefined;
    }
    const check = await options.verifier.verify(presented);
    if (!check.ok) {
      if (check.kind === 'unavailable') {
        c.header('Retry-After', '5');
        return jsonError(c, 503, 'auth_unavailable', check.description);
      }
      c.header('WWW-Authenticate', bearerChallenge(options.metadataUrl, { error: 'invalid_token', description: check.description }));
      return jsonError(c, 401, 'invalid_token', check.description, { resource_metadata: options.metadataUrl });
    }
    setRequestPrincipal(c.req.raw, check.principal);
    await next();
    return undefined;
  };
}
