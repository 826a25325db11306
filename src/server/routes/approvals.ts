/**
 * Approval routes: `GET /v1/approvals` lists the calls waiting for a person's decision;
 * `POST /v1/approvals/{id}` with `{"decision": "allow" | "deny" | "always"}` decides one.
 * Registering them marks the host's approval queue as attended, so calls from edges that cannot ask
 * interactively wait here (announced by the `approval_requested` event on /v1/events) instead of
 * being refused at once.
 *
 * In a fleet both routes work on every replica's approvals: the list is the fleet's, and a decision
 * reaches the replica where the call waits. Deciding one whose replica has died answers 410
 * `approval_lost` (its call is gone); an unreachable shared store answers 503 `state_unavailable`.
 *
 * Both routes need the admin token (`createHttpApp` guards them with `adminTokenGuard`): a tool that
 * reaches the daemon must not approve its own calls.
 */
import { Hono } from 'hono';
import { APPROVAL_DECISIONS, hostApprovals, type ApprovalDecision, type ApprovalRequest } from '../../approvals/index.ts';
import type { Host } from '../../host-types.ts';
import { HttpError } from '../http-errors.ts';
import { requestPrincipal } from '../../identity/request-principal.ts';
import { describeJsonType, readJsonObjectBody } from '../request-body.ts';

export const APPROVALS_PATH = '/v1/approvals';
export const APPROVAL_PATH = '/v1/approvals/:id';

export interface ApprovalListBody {
  approvals: ApprovalRequest[];
}

export interface ApprovalDecidedBody {
  id: string;
  decision: ApprovalDecision;
  /** Who decided (the principal's subject, or `admin-token`). */
  decided_by: string;
}

function isDecision(value: unknown): value is ApprovalDecision {
  return typeof value === 'string' && (APPROVAL_DECISIONS as readonly string[]).includes(value);
}

export function approvalRoutes(host: Host): Hono {
  const app = new Hono();
  const queue = hostApprovals(host);
  queue?.attend();

  app.get(APPROVALS_PATH, async (c) => {
    const body: ApprovalListBody = { approvals: queue === undefined ? [] : await sharedState(() => queue.listAll()) };
    return c.json(body);
  });

  app.post(APPROVAL_PATH, async (c) => {
    const id = c.req.param('id');
    const body = await readJsonObjectBody(c);
    const unknown = Object.keys(body).filter((key) => key !== 'decision');
    if (unknown.length > 0) {
      throw new HttpError(400, 'invalid_body', `Unknown field(s) ${unknown.map((key) => `"${key}"`).join(', ')}; send {"decision": "allow" | "deny" | "always"}.`);
    }
    const decision = body['decision'];
    if (!isDecision(decision)) {
      const received = typeof decision === 'string' ? `"${decision}"` : decision === undefined ? 'nothing' : describeJsonType(decision);
      throw new HttpError(400, 'invalid_body', `"decision" must be one of ${APPROVAL_DECISIONS.map((value) => `"${value}"`).join(', ')}; received ${received}.`, { allowed: [...APPROVAL_DECISIONS] });
    }
    // Who decided: the signed-in principal (identity mode), else the admin token, the only other way in.
    const decidedBy = requestPrincipal(c.req.raw)?.subject ?? 'admin-token';
    const outcome = queue === undefined ? undefined : await sharedState(() => queue.decideAnywhere(id, decision, 'http', decidedBy));
    if (outcome?.status === 'lost') {
      throw new HttpError(
        410,
        'approval_lost',
        `Approval "${id}" was pending on replica ${outcome.replica}, which has stopped: the call that waited for it is gone and nothing was run. The client retries it if it still needs it.`,
        { replica: outcome.replica },
      );
    }
    if (outcome?.status !== 'decided') {
      throw new HttpError(404, 'not_found', `No approval "${id}" is pending: it was already decided, timed out, its call was cancelled, or it never existed. GET /v1/approvals lists the pending ones.`);
    }
    const answer: ApprovalDecidedBody = { id, decision, decided_by: decidedBy };
    return c.json(answer);
  });

  return app;
}

/** Runs a read or write of the fleet's shared approvals; an unreachable store is a 503, never an empty answer. */
async function sharedState<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new HttpError(503, 'state_unavailable', `The fleet's shared approval state is unreachable (${error instanceof Error ? error.message : String(error)}); retry shortly.`);
  }
}
