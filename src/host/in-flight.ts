/**
 * The calls a host is running, so shutdown can wait for them (up to a grace period) and health
 * endpoints can count them.
 */
import type { ToolResult } from '../result.ts';

export class InFlightCalls {
  private readonly calls = new Set<Promise<ToolResult>>();

  get size(): number {
    return this.calls.size;
  }

  /** Counts `call` until it settles; returns it unchanged. */
  track(call: Promise<ToolResult>): Promise<ToolResult> {
    this.calls.add(call);
    const forget = (): void => {
      this.calls.delete(call);
    };
    call.then(forget, forget);
    return call;
  }

  /** Resolves once every call now running has settled, or after `graceMs`, whichever is first. */
  async settle(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.calls]),
      new Promise<void>((resolveWait) => {
        timer = setTimeout(resolveWait, graceMs);
      }),
    ]);
    if (timer) clearTimeout(timer);
  }
}
