/**
 * Who made a call. In identity mode (config `auth`) the HTTP and MCP edges set it from the validated
 * access token; with the static bearer token (or none) it is absent, or an edge-specific principal
 * such as the CLI's local user or a schedule. It rides on every call through the one call path
 * (`CallToolOptions.principal`), so approvals, quotas, the audit log and traces all see the same one.
 */

export interface Principal {
  /** The token's `sub` (or e.g. `schedule:<name>`, `local:<user>` for calls that did not come with a token). */
  readonly subject: string;
  /** The OAuth client the token was issued to (`client_id` / `azp`), when the token says. */
  readonly clientId?: string | undefined;
  /** The token's scopes (space-separated `scope` claim, or `scp`), in token order. */
  readonly scopes: readonly string[];
  /** Groups / roles the token carries (e.g. a `groups` claim), for per-principal policy rules. */
  readonly groups?: readonly string[] | undefined;
  /** Where the identity came from. */
  readonly kind: 'token' | 'static-token' | 'local' | 'schedule';
}
