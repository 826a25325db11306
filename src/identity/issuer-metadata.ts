/**
 * The issuer's key set URL: `auth.jwks_uri` when configured, else discovered from the issuer's
 * metadata: `/.well-known/openid-configuration` (OpenID Connect Discovery), then
 * `/.well-known/oauth-authorization-server` (RFC 8414, the well-known path inserted before the
 * issuer's path). The metadata's `issuer` must equal the configured issuer (RFC 8414 §3.3) and its
 * `jwks_uri` must be https (or http on loopback). A failed discovery is not cached: the next token
 * tries again.
 */
import { isTrustedUrl } from './config.ts';

/** Discovery answers larger than this are refused. */
const MAX_METADATA_BYTES = 256 * 1024;
const DISCOVERY_TIMEOUT_MS = 5_000;

export class IssuerUnavailableError extends Error {
  override readonly name = 'IssuerUnavailableError';
}

/** The metadata URLs tried for `issuer`, in order. */
export function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    ...(path === '' ? [] : [`${url.origin}/.well-known/openid-configuration${path}`]),
  ];
}

async function fetchMetadata(url: string): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
  if (!response.ok) {
    await response.body?.cancel();
    return undefined;
  }
  const text = await response.text();
  if (text.length > MAX_METADATA_BYTES) throw new IssuerUnavailableError(`the issuer's metadata at ${url} is larger than ${MAX_METADATA_BYTES} bytes`);
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The `jwks_uri` of `issuer` from its metadata.
 * @throws IssuerUnavailableError when no metadata answers or it does not fit.
 */
export async function discoverJwksUri(issuer: string): Promise<string> {
  const problems: string[] = [];
  for (const url of discoveryUrls(issuer)) {
    let metadata: Record<string, unknown> | undefined;
    try {
      metadata = await fetchMetadata(url);
    } catch (error) {
      if (error instanceof IssuerUnavailableError) throw error;
      problems.push(`${url}: ${(error as Error).message}`);
      continue;
    }
    if (metadata === undefined) {
      problems.push(`${url}: no metadata`);
      continue;
    }
    if (metadata['issuer'] !== issuer) throw new IssuerUnavailableError(`the metadata at ${url} names issuer ${JSON.stringify(metadata['issuer'])}, not the configured ${issuer}`);
    const jwksUri = metadata['jwks_uri'];
    if (typeof jwksUri !== 'string' || !isTrustedUrl(jwksUri)) throw new IssuerUnavailableError(`the metadata at ${url} has no usable jwks_uri (https, or http on loopback)`);
    return jwksUri;
  }
  throw new IssuerUnavailableError(`cannot discover the key set of issuer ${issuer} (${problems.join('; ')}); set auth.jwks_uri or check the issuer`);
}
