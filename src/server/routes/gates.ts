/**
 * The host's gates, read-only: `GET /v1/approval-rules` lists the approval rules as configured (first
 * match wins) with the approval timeout, and needs the admin token (a tool that learnt the rules could
 * shape calls around them); `GET /v1/quotas` lists each quota's configured limits and its numbers now
 * (running, waiting, calls in the current minute, refusals), as `/metrics` counts them, with the
 * regular token.
 */
import { Hono } from 'hono';
import { hostApprovalRules, hostApprovals, type ApprovalRule } from '../../approvals/index.ts';
import type { Host } from '../../host-types.ts';
import { hostQuotas, type QuotaStatus } from '../../quotas/index.ts';

export const APPROVAL_RULES_PATH = '/v1/approval-rules';
export const QUOTAS_PATH = '/v1/quotas';

export interface ApprovalRulesBody {
  /** In config order; `position` is 1-based, as refusals name it ("rule 2"). */
  rules: (ApprovalRule & { position: number })[];
  /** How long an `ask` waits for a person before the call is refused. */
  timeout_ms: number | null;
}

export interface QuotasBody {
  quotas: { key: string; limits: QuotaStatus['limits']; in_use: number; waiting: number; window_calls: number; queued: number; refused: QuotaStatus['refused'] }[];
}

export function gateRoutes(host: Host): Hono {
  const app = new Hono();
  app.get(APPROVAL_RULES_PATH, (c) => {
    const body: ApprovalRulesBody = {
      rules: hostApprovalRules(host).map((rule, index) => ({ position: index + 1, ...rule })),
      timeout_ms: hostApprovals(host)?.timeoutMs ?? null,
    };
    return c.json(body);
  });
  app.get(QUOTAS_PATH, (c) => {
    const body: QuotasBody = {
      quotas: (hostQuotas(host)?.states() ?? []).map((quota) => ({
        key: quota.key,
        limits: quota.limits,
        in_use: quota.inUse,
        waiting: quota.waiting,
        window_calls: quota.windowCalls,
        queued: quota.queued,
        refused: quota.refused,
      })),
    };
    return c.json(body);
  });
  return app;
}
