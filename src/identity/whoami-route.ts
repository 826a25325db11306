/**
 * `GET /v1/whoami`: who the request's token stands for, and what it may do here, so a client (the
 * console) can show who is signed in. Identity mode: `{identity: true, subject, client_id?, scopes,
 * groups?, kind, permission_mode, approver}`; otherwise `{identity: false}` (the static token names
 * nobody). Behind the same guard as every other route: it needs a valid token.
 */
import { Hono } from 'hono';
import type { Host } from '../host-types.ts';
import type { PermissionLevel } from '../permission.ts';
import { isApprover } from './approver-guard.ts';
import { principalGrant } from './host-policy.ts';
import { requestPrincipal } from './request-principal.ts';

export const WHOAMI_PATH = '/v1/whoami';

export type WhoamiBody =
  | { identity: false }
  | {
      identity: true;
      subject: string;
      client_id?: string;
      scopes: string[];
      groups?: string[];
      kind: string;
      /** The highest permission level this principal's tools may need (`none` when denied). */
      permission_mode: PermissionLevel;
      /** May list and decide approvals. */
      approver: boolean;
    };

export function whoamiRoutes(host: Host): Hono {
  const app = new Hono();
  app.get(WHOAMI_PATH, (c) => {
    const principal = requestPrincipal(c.req.raw);
    if (principal === undefined) return c.json({ identity: false } satisfies WhoamiBody);
    const grant = principalGrant(host, principal);
    const body: WhoamiBody = {
      identity: true,
      subject: principal.subject,
      ...(principal.clientId !== undefined ? { client_id: principal.clientId } : {}),
      scopes: [...principal.scopes],
      ...(principal.groups !== undefined ? { groups: [...principal.groups] } : {}),
      kind: principal.kind,
      permission_mode: grant === undefined ? host.permissionMode : grant.allowed ? grant.permissionMode : 'none',
      approver: isApprover(host, principal),
    };
    return c.json(body);
  });
  return app;
}
