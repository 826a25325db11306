/** The public shapes of approvals: what the HTTP routes, events and per-edge approvers exchange. */

/** A person's answer: run it, refuse it, or run it and every identical call for the life of the host. */
export const APPROVAL_DECISIONS = ['allow', 'deny', 'always'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** Why a pending approval ended: a person decided, or it was refused without one. */
export type ApprovalEndReason = 'user' | 'timeout' | 'cancelled' | 'no_approver' | 'shutdown';

/** Where a person's decision came from: `POST /v1/approvals/{id}`, or the caller's own approver (MCP elicitation, CLI prompt). */
export type ApprovalChannel = 'http' | 'prompt';

/** One call waiting for a decision, as listed by `GET /v1/approvals` and sent with `approval_requested`. */
export interface ApprovalRequest {
  id: string;
  tool: string;
  /** The parsed arguments, secret parameters shown as their `<secret_ref:NAME>` placeholders (other values there redacted). */
  arguments: Record<string, unknown>;
  /** ISO 8601. */
  created_at: string;
  /** ISO 8601: when the call is refused if nobody decides. */
  expires_at: string;
  call_id: string;
  /** Who made the call: its principal's subject, when the call carried one (identity mode). */
  requested_by?: string;
}

export interface ApprovalOutcome {
  decision: ApprovalDecision;
  reason: ApprovalEndReason;
  via?: ApprovalChannel;
  /** Who decided: the deciding principal's subject (`admin-token` for the admin token), when known. */
  decided_by?: string;
  /** For refusals without a person: why nobody could be asked. */
  detail?: string;
}

/** An approver that cannot ask anyone (no TTY, no elicitation support) says why. */
export interface ApproverUnavailable {
  unavailable: string;
}

/**
 * An edge's interactive way to ask (MCP elicitation, CLI prompt). `signal` aborts when the request is
 * settled some other way (HTTP decision, timeout, cancellation): stop asking then. When it answers
 * `unavailable`, the call waits for the HTTP queue if one is served, else it is refused with that reason.
 */
export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision | ApproverUnavailable>;

/** The host events approvals add (see HostEvent). */
export type ApprovalEvent =
  | ({ type: 'approval_requested' } & ApprovalRequest)
  | { type: 'approval_decided'; id: string; tool: string; call_id: string; decision: ApprovalDecision; reason: ApprovalEndReason; via?: ApprovalChannel; decided_by?: string };
