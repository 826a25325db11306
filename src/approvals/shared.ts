/**
 * Approvals shared by the replicas of a fleet (the interface; src/approvals/redis-approvals.ts is the
 * Redis implementation, and without one a host keeps today's in-memory queue alone).
 *
 * Contract:
 * - The replica where a call waits `announce`s its pending approval (with its own replica id): every
 *   replica lists it (`list`) and may `decide` it.
 * - Every ending goes through one atomic `claim`/`decide`: of two deciders (two replicas, or a person
 *   and the waiting replica's timeout) exactly one wins. The winner, when it is not the waiting
 *   replica, delivers the decision to it (`onDecision` there), which releases the call.
 * - A pending approval lives no longer than its deadline plus a margin, and its owner's lease: one
 *   whose replica died is neither listed nor decidable; `decide` reports `lost` with that replica.
 * - `always` decisions are kept for the whole fleet.
 * Any method may reject while the shared store is unreachable: callers fail closed (the call is
 * refused, or asked again), never allowed.
 */
import type { ApprovalDecision, ApprovalRequest } from './types.ts';

/** A decision made on another replica for an approval waiting here. */
export interface SharedDecision {
  id: string;
  decision: ApprovalDecision;
  /** Who decided (a principal's subject, `admin-token`), recorded on the waiting replica's `approval_decided`. */
  decidedBy?: string;
}

export type SharedDecideOutcome =
  /** This decider won; the waiting call is (being) released on `replica`. */
  | { status: 'decided'; replica: string }
  /** No such pending approval (decided already, expired, cancelled, or never existed). */
  | { status: 'not_found' }
  /** It was pending on a replica that is gone (no lease): its call no longer exists. */
  | { status: 'lost'; replica: string };

export interface SharedApprovals {
  readonly replicaId: string;
  /** Makes a pending approval of this replica visible to the fleet until `expiresAtMs`. */
  announce(request: ApprovalRequest, expiresAtMs: number): Promise<void>;
  /** Pending approvals of every live replica, oldest first. */
  list(): Promise<ApprovalRequest[]>;
  /** Decides an approval pending anywhere (atomic: exactly one decider wins). */
  decide(id: string, decision: ApprovalDecision, decidedBy?: string): Promise<SharedDecideOutcome>;
  /** For the waiting replica ending its own approval (timeout, cancel, prompt): true when it won the approval. */
  claim(id: string): Promise<boolean>;
  /** The decision another replica made for `id` (kept a while after it won), for a waiting replica that lost its claim. */
  decisionOf(id: string): Promise<ApprovalDecision | undefined>;
  /** Decisions made elsewhere for approvals of this replica; returns the unsubscribe. */
  onDecision(listener: (decision: SharedDecision) => void): () => void;
  /** Records an `always` decision for the fleet. */
  addAlways(key: string): Promise<void>;
  hasAlways(key: string): Promise<boolean>;
  /**
   * What of a background process's stdin a shell would join to the next write (`write_stdin` input is
   * checked as a shell script: a command split over writes through two replicas must still be seen
   * whole); `'lost'` when it can no longer be followed; undefined when nothing is pending.
   */
  stdinTail(processId: string): Promise<string | 'lost' | undefined>;
  /** Sets it (undefined: nothing pending). */
  setStdinTail(processId: string, tail: string | 'lost' | undefined): Promise<void>;
  close(): Promise<void>;
}
