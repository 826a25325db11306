/**
 * Draining: what a daemon does between SIGTERM (or `server.close()`) and its exit, so a load balancer
 * or Kubernetes moves traffic away before the process goes.
 *
 * Once `start`ed: `GET /readyz` answers 503 `{ready: false, draining: true, reason}` (readiness goes
 * false first, while the daemon still listens), `GET /healthz` stays 200 with `draining: true`
 * (liveness: the process is fine, only leaving), and every other request is refused with 503
 * `shutting_down` plus `Retry-After` and `Connection: close`, so a balancer retries it on another
 * replica. Calls already running finish within the drain deadline (`limits.drain_timeout_ms`, default
 * DEFAULT_DRAIN_TIMEOUT_MS, sized for Kubernetes' default 30 s termination grace period); serve.ts
 * owns that sequence, this module only the state and the refusal.
 */
import type { MiddlewareHandler } from 'hono';
import { jsonError } from './http-errors.ts';

/** The default drain deadline of `toolhost serve`: 25 s, inside Kubernetes' default 30 s grace period. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 25_000;

/** `Retry-After` (seconds) on a refusal while draining: soon, and elsewhere. */
export const DRAIN_RETRY_AFTER_SECONDS = 1;

/** Paths still answered while draining: probes and metrics. */
export const DRAIN_EXEMPT_PATHS: readonly string[] = ['/healthz', '/readyz', '/metrics'];

/** Why `/readyz` says no while draining. */
export const DRAINING_REASON = 'draining: this replica is shutting down; calls already running finish, new requests are refused';

export interface DrainStatus {
  draining: boolean;
  /** When draining began (ISO 8601). */
  since?: string;
  /** When calls still running are cancelled (ISO 8601). */
  deadline?: string;
}

/** The drain state of one daemon: off until `start`, then on for good. */
export class DrainState {
  private startedAt: number | undefined;
  private deadlineAt: number | undefined;

  get draining(): boolean {
    return this.startedAt !== undefined;
  }

  /** Starts draining (idempotent: a second call keeps the first deadline). */
  start(timeoutMs: number): void {
    if (this.startedAt !== undefined) return;
    this.startedAt = Date.now();
    this.deadlineAt = this.startedAt + Math.max(0, timeoutMs);
  }

  status(): DrainStatus {
    if (this.startedAt === undefined || this.deadlineAt === undefined) return { draining: false };
    return { draining: true, since: new Date(this.startedAt).toISOString(), deadline: new Date(this.deadlineAt).toISOString() };
  }
}

/**
 * Refuses every request but DRAIN_EXEMPT_PATHS while `isDraining()`: 503 `shutting_down`,
 * `Retry-After: 1`, `Connection: close`, details `{draining: true}`.
 */
export function drainGuard(isDraining: () => boolean): MiddlewareHandler {
  return async (c, next) => {
    if (isDraining() && !DRAIN_EXEMPT_PATHS.includes(c.req.path)) {
      c.header('Connection', 'close');
      c.header('Retry-After', String(DRAIN_RETRY_AFTER_SECONDS));
      return jsonError(c, 503, 'shutting_down', 'This replica is draining (shutting down): calls already running finish, new requests are refused. Retry; a load balancer sends the retry to another replica.', {
        draining: true,
      });
    }
    await next();
    return undefined;
  };
}
