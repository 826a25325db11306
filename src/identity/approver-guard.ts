/**
 * Identity mode's guard of the approval routes (`GET /v1/approvals`, `POST /v1/approvals/{id}`): the
 * admin token, or a signed-in principal whose `principals` rule says `approver: true`. Anyone else
 * signed in gets 403 `approver_required` (a tool's client must not approve its own calls). Runs after
 * the identity guard, which has refused requests without a valid token.
 */
import type { MiddlewareHandler } from 'hono';
import type { Host } from '../host-types.ts';
import { jsonError } from '../server/http-errors.ts';
import { principalGrant } from './host-policy.ts';
import type { Principal } from './principal.ts';
import { ADMIN_TOKEN_PRINCIPAL, requestPrincipal } from './request-principal.ts';

/** True when `principal` may list and decide approvals on `host`. */
export function isApprover(host: Pick<Host, 'registry'>, principal: Principal | undefined): boolean {
  if (principal === undefined) return false;
  if (principal === ADMIN_TOKEN_PRINCIPAL) return true;
  return principalGrant(host, principal)?.approver === true;
}

export function approverGuard(host: Pick<Host, 'registry'>): MiddlewareHandler {
  return async (c, next) => {
    const principal = requestPrincipal(c.req.raw);
    if (isApprover(host, principal)) {
      await next();
      return undefined;
    }
    return jsonError(
      c,
      403,
      'approver_required',
      `"${principal?.subject ?? 'this client'}" may not list or decide approvals: that needs a principal whose rule in the host's "principals" policy says "approver": true, or the admin token.`,
    );
  };
}
