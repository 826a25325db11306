/**
 * Validates a JWT access token for this resource server (jose, imported on the first token):
 * - signature against the issuer's JWKS (`createRemoteJWKSet`: cached, refetched on an unknown `kid`),
 *   with asymmetric algorithms only (no `none`, no HS*: a shared secret would let anyone who knows it
 *   mint tokens);
 * - `iss` equals `auth.issuer`; `aud` contains `auth.audience` (RFC 8707: a token for another resource
 *   is refused); `exp` required, `exp`/`nbf` checked with a small clock tolerance;
 * - a `sub` claim.
 * A token that passed is remembered until its `exp` (at most MAX_CACHED_TOKENS of them, oldest out
 * first), so a client's next requests skip the signature check; JWTs cannot be revoked before `exp`
 * anyway.
 * Outcomes are data: `{ok: true, principal}`, `{ok: false, kind: 'invalid', description}` (→ 401
 * invalid_token) or `{ok: false, kind: 'unavailable', description}` (the issuer's keys cannot be
 * fetched → 503).
 */
import type { AuthConfig } from './config.ts';
import { principalFromClaims } from './claims.ts';
import { discoverJwksUri, IssuerUnavailableError } from './issuer-metadata.ts';
import type { Principal } from './principal.ts';

/** Asymmetric JWS algorithms accepted (RFC 7518 / RFC 8037). */
export const ACCEPTED_ALGORITHMS: readonly string[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Seconds of clock skew tolerated on `exp` and `nbf`. */
export const CLOCK_TOLERANCE_SECONDS = 30;
/** Longer tokens are refused without parsing. */
export const MAX_TOKEN_LENGTH = 8 * 1024;

/** Valid tokens remembered at once. */
export const MAX_CACHED_TOKENS = 512;

export type TokenCheck =
  | { ok: true; principal: Principal; expiresAt: number | undefined }
  | { ok: false; kind: 'invalid' | 'unavailable'; description: string };

export interface TokenVerifier {
  verify(token: string): Promise<TokenCheck>;
}

type Jose = typeof import('jose');
type KeySet = ReturnType<Jose['createRemoteJWKSet']>;

/** A verifier for `auth`; nothing is fetched or imported until the first token. */
export function createTokenVerifier(auth: AuthConfig): TokenVerifier {
  let ready: Promise<{ jose: Jose; keys: KeySet }> | undefined;
  const prepare = (): Promise<{ jose: Jose; keys: KeySet }> => {
    ready ??= (async () => {
      const jose = await import('jose');
      const jwksUri = auth.jwks_uri ?? (await discoverJwksUri(auth.issuer));
      return { jose, keys: jose.createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 5_000, cooldownDuration: 30_000 }) };
    })();
    // A failed discovery is tried again with the next token.
    ready.catch(() => {
      ready = undefined;
    });
    return ready;
  };
  const remembered = new Map<string, { principal: Principal; expiresAt: number }>();
  const remember = (token: string, principal: Principal, expiresAt: number): void => {
    remembered.set(token, { principal, expiresAt });
    if (remembered.size > MAX_CACHED_TOKENS) remembered.delete(remembered.keys().next().value as string);
  };
  return {
    async verify(token) {
      if (token.length > MAX_TOKEN_LENGTH) return { ok: false, kind: 'invalid', description: `The token is longer than ${MAX_TOKEN_LENGTH} characters.` };
      const known = remembered.get(token);
      if (known !== undefined) {
        if (known.expiresAt * 1000 > Date.now()) return { ok: true, principal: known.principal, expiresAt: known.expiresAt };
        remembered.delete(token);
      }
      let parts: { jose: Jose; keys: KeySet };
      try {
        parts = await prepare();
      } catch (error) {
        const message = error instanceof IssuerUnavailableError ? error.message : (error as Error).message;
        return { ok: false, kind: 'unavailable', description: `The token cannot be checked now: ${message}.` };
      }
      const { jose, keys } = parts;
      try {
        const { payload } = await jose.jwtVerify(token, keys, {
          issuer: auth.issuer,
          audience: auth.audience,
          algorithms: [...ACCEPTED_ALGORITHMS],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['exp', 'sub'],
        });
        const principal = principalFromClaims(payload as Record<string, unknown>);
        if (principal === undefined) return { ok: false, kind: 'invalid', description: 'The token has no usable "sub" claim.' };
        if (payload.exp !== undefined) remember(token, principal, payload.exp);
        return { ok: true, principal, expiresAt: payload.exp };
      } catch (error) {
        return describeFailure(jose, error);
      }
    },
  };
}

function describeFailure(jose: Jose, error: unknown): TokenCheck {
  const { errors } = jose;
  if (error instanceof errors.JWKSTimeout || (error instanceof errors.JOSEError && error.code === 'ERR_JWKS_INVALID')) {
    return { ok: false, kind: 'unavailable', description: "The issuer's key set cannot be fetched now." };
  }
  if (error instanceof errors.JWTExpired) return { ok: false, kind: 'invalid', description: 'The token has expired.' };
  if (error instanceof errors.JWTClaimValidationFailed) {
    const which = error.claim === 'aud' ? 'The token is not meant for this resource (audience).' : error.claim === 'iss' ? 'The token was issued by another issuer.' : `The token's "${error.claim}" claim is not valid (${error.reason}).`;
    return { ok: false, kind: 'invalid', description: which };
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return { ok: false, kind: 'invalid', description: 'The token is signed with an algorithm this server does not accept (asymmetric algorithms only).' };
  if (error instanceof errors.JWKSNoMatchingKey) return { ok: false, kind: 'invalid', description: "The token is signed with a key the issuer's key set does not hold." };
  if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, kind: 'invalid', description: 'The token signature is not valid.' };
  if (error instanceof errors.JOSEError) return { ok: false, kind: 'invalid', description: 'The token is malformed or not valid.' };
  // fetch failures (the key set's host is down) surface as plain errors from the key set.
  if (error instanceof TypeError) return { ok: false, kind: 'unavailable', description: "The issuer's key set cannot be fetched now." };
  return { ok: false, kind: 'invalid', description: 'The token is not valid.' };
}
