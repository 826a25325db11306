/**
 * Config keys of identity mode.
 *
 * `auth`: `{"issuer": URL, "audience": URL, "jwks_uri"?: URL, "scopes"?: {"<scope>": "<permission
 * level>"}}` turns identity mode on: toolhost is an OAuth 2.1 resource server (src/identity/) and every
 * route but the probes and the metadata needs a JWT access token the issuer signed for `audience`.
 * URLs are https, or http on a loopback host (a local issuer, tests).
 *
 * `principals`: per-principal policy rules, first match wins (src/identity/policy.ts):
 * `[{"match": {"subject"?, "client_id"?, "scope"?, "group"?}, "permission_mode"?, "include"?,
 * "exclude"?, "approver"?, "approvals"?, "quotas"?}]`. Every field of `match` given must hold; `{}` matches every signed-in
 * principal. Only meaningful with `auth`.
 */
import { z } from 'zod';
import { approvalRulesSchema } from '../approvals/rules.ts';
import { PERMISSION_LEVELS } from '../permission.ts';
import { quotasSchema } from '../quotas/config.ts';

/** True for an https URL, or an http URL on a loopback host; no credentials, no fragment. */
export function isTrustedUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHostname(url.hostname);
}

/** localhost, 127.0.0.0/8 or [::1], as a URL's hostname spells them. */
function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

const trustedUrl = z.string().min(1).max(2048).refine(isTrustedUrl, 'must be an https URL (or http on a loopback host) without credentials or fragment');

export const authConfigSchema = z
  .object({
    /** The authorization server's issuer identifier: the `iss` every token must carry. */
    issuer: trustedUrl,
    /** This server's resource identifier (RFC 8707): every token's `aud` must contain it. */
    audience: trustedUrl,
    /** The issuer's key set; default: discovered from the issuer's metadata. */
    jwks_uri: trustedUrl.optional(),
    /** Scope → permission level; a token gets the highest level among its mapped scopes. */
    scopes: z.record(z.string().min(1).max(256).regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'a scope is visible ASCII without spaces, quotes or backslashes'), z.enum(PERMISSION_LEVELS)).optional(),
  })
  .strict();

export type AuthConfig = z.infer<typeof authConfigSchema>;

const matchValue = z.string().min(1).max(256);

export const principalMatchSchema = z
  .object({
    /** The token's `sub`, exactly. */
    subject: matchValue.optional(),
    /** The token's `client_id` (or `azp`), exactly. */
    client_id: matchValue.optional(),
    /** A scope the token carries. */
    scope: matchValue.optional(),
    /** A group in the token's `groups` claim. */
    group: matchValue.optional(),
  })
  .strict();

export const principalRuleSchema = z
  .object({
    match: principalMatchSchema,
    /** The most this principal may do (never more than the host's permission mode or the token's scopes give). */
    permission_mode: z.enum(PERMISSION_LEVELS).optional(),
    /** Tool name globs this principal sees; absent = all the host serves. */
    include: z.array(z.string().min(1)).optional(),
    /** Tool name globs hidden from this principal; wins over include. */
    exclude: z.array(z.string().min(1)).optional(),
    /** May list and decide approvals (`/v1/approvals`). */
    approver: z.boolean().optional(),
    /** Approval rules tried before the host's `approvals` for this principal's calls (first match wins over both). */
    approvals: approvalRulesSchema.optional(),
    /** Quotas of each principal this rule matches, on top of the host's `quotas` (same shape; one budget per principal). */
    quotas: quotasSchema.optional(),
  })
  .strict();

export const principalRulesSchema = z.array(principalRuleSchema).max(1000);

export type PrincipalMatch = z.infer<typeof principalMatchSchema>;
export type PrincipalRule = z.infer<typeof principalRuleSchema>;
