/**
 * A validated access token's claims → the `Principal` that rides on its calls: `sub` → subject,
 * `client_id` (RFC 9068) or `azp` → clientId, `scope` (space-separated, RFC 9068) or `scp` (string
 * or array) → scopes, `groups` (array of strings, or one string) → groups. Values are capped (count
 * and length) since the issuer, not this host, decides their size.
 */
import type { Principal } from './principal.ts';

const MAX_VALUES = 256;
const MAX_VALUE_LENGTH = 256;

function strings(value: unknown, separator?: RegExp): string[] | undefined {
  const list = typeof value === 'string' ? (separator === undefined ? [value] : value.split(separator)) : Array.isArray(value) ? value : undefined;
  if (list === undefined) return undefined;
  return list
    .filter((item): item is string => typeof item === 'string' && item !== '' && item.length <= MAX_VALUE_LENGTH)
    .slice(0, MAX_VALUES);
}

function shortString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= MAX_VALUE_LENGTH ? value : undefined;
}

/** The principal of a token's claims; undefined when it has no usable `sub`. */
export function principalFromClaims(claims: Readonly<Record<string, unknown>>): Principal | undefined {
  const subject = shortString(claims['sub']);
  if (subject === undefined) return undefined;
  const clientId = shortString(claims['client_id']) ?? shortString(claims['azp']);
  const scopes = strings(claims['scope'], / +/) ?? strings(claims['scp'], / +/) ?? [];
  const groups = strings(claims['groups']);
  return { subject, ...(clientId !== undefined ? { clientId } : {}), scopes, ...(groups !== undefined ? { groups } : {}), kind: 'token' };
}
