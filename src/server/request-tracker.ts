/** Counts requests being handled so shutdown can wait for them (long-lived streams excluded). */
import type { MiddlewareHandler } from 'hono';

export class RequestTracker {
  private active = 0;
  private waiters: (() => void)[] = [];

  get activeRequests(): number {
    return this.active;
  }

  /** Middleware counting each request until its handler has produced a response. */
  middleware(isLongLived: (method: string, path: string) => boolean): MiddlewareHandler {
    return async (c, next) => {
      if (isLongLived(c.req.method, c.req.path)) {
        await next();
        return;
      }
      this.active += 1;
      try {
        await next();
      } finally {
        this.active -= 1;
        if (this.active === 0) this.flush();
      }
    };
  }

  /** Resolves once no request is active, or after `timeoutMs`. Returns true when idle. */
  async idle(timeoutMs: number): Promise<boolean> {
    if (this.active === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      new Promise<boolean>((resolve) => this.waiters.push(() => resolve(true))),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), Math.max(timeoutMs, 0));
      }),
    ]);
    if (timer) clearTimeout(timer);
    return result;
  }

  private flush(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
