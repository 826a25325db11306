/**
 * The resource server's answers to a request without a usable token (MCP authorization 2025-11-25,
 * RFC 6750 §3, RFC 9728 §5.1): `WWW-Authenticate: Bearer resource_metadata="<url>"` on every 401,
 * with `error="invalid_token", error_description="..."` when a token was sent and refused, and
 * `error="insufficient_scope", scope="..."` on a 403 for a call that needs more scope.
 * The metadata URL derives from `auth.audience` (the resource identifier): the well-known path
 * inserted between its origin and its path (RFC 9728 §3.1).
 */

export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The Protected Resource Metadata URL of the resource `audience`. */
export function resourceMetadataUrl(audience: string): string {
  const url = new URL(audience);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}${PROTECTED_RESOURCE_METADATA_PATH}${path}`;
}

/** A quoted-string value: no quotes, backslashes or control characters (RFC 6750 §3 limits error_description to these). */
function quoted(value: string): string {
  return `"${value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, ' ').slice(0, 300)}"`;
}

export interface Challenge {
  error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request';
  description?: string;
  /** Scopes that would do (insufficient_scope). */
  scope?: readonly string[];
}

/** The `WWW-Authenticate` value for a refusal. */
export function bearerChallenge(metadataUrl: string, challenge: Challenge = {}): string {
  const parts = [`resource_metadata=${quoted(metadataUrl)}`];
  if (challenge.error !== undefined) parts.push(`error=${quoted(challenge.error)}`);
  if (challenge.description !== undefined) parts.push(`error_description=${quoted(challenge.description)}`);
  if (challenge.scope !== undefined && challenge.scope.length > 0) parts.push(`scope=${quoted(challenge.scope.join(' '))}`);
  return `Bearer ${parts.join(', ')}`;
}
