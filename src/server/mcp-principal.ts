/**
 * The principal of an MCP request over Streamable HTTP, carried the SDK's way: the transport hands
 * `authInfo` to every request handler (`extra.authInfo`); the principal rides in `authInfo.extra`.
 * The MCP server reads it back per request (tools/list, tools/call), so a session never holds an
 * identity of its own.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Principal } from '../identity/principal.ts';

const PRINCIPAL_KEY = 'toolhost/principal';

export function principalAuthInfo(principal: Principal): AuthInfo {
  return { token: '', clientId: principal.clientId ?? '', scopes: [...principal.scopes], extra: { [PRINCIPAL_KEY]: principal } };
}

/** The principal a request handler's `extra.authInfo` carries, if any. */
export function principalOfAuthInfo(authInfo: AuthInfo | undefined): Principal | undefined {
  const value = authInfo?.extra?.[PRINCIPAL_KEY];
  return typeof value === 'object' && value !== null && 'subject' in value ? (value as Principal) : undefined;
}
