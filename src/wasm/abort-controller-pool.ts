/**
 * Reuses the AbortControllers a runtime hands to its worker pool, one per call. On Node 20 creating
 * an AbortController with its signal costs about 6 µs (more than the pool's own bookkeeping for a
 * call), and the controller never leaves the runtime: only piscina sees its signal, and piscina
 * removes its listener when the task settles. A controller goes back to the pool only if it was never
 * aborted and nothing listens on its signal any more, so a reused one is indistinguishable from a new
 * one to whoever gets it next.
 */
import { getEventListeners } from 'node:events';

export class AbortControllerPool {
  readonly #free: AbortController[] = [];
  readonly #capacity: number;

  constructor(capacity = 64) {
    this.#capacity = capacity;
  }

  take(): AbortController {
    return this.#free.pop() ?? new AbortController();
  }

  /** Hands a controller back after its call; an aborted or still-listened-to one is dropped. */
  give(controller: AbortController): void {
    if (this.#free.length >= this.#capacity || controller.signal.aborted) return;
    if (getEventListeners(controller.signal, 'abort').length > 0) return;
    this.#free.push(controller);
  }

  get size(): number {
    return this.#free.length;
  }
}
