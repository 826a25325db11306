/**
 * A counting semaphore with a bounded wait queue: at most `capacity` holders, at most `queueLimit`
 * waiters; one more waiter is refused with ToolHostError('QUEUE_FULL').
 */
import { ToolHostError } from '../errors.ts';

export type Release = () => void;

export class CallLimiter {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly capacity: number,
    readonly queueLimit: number,
    readonly label: string,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`${label}: capacity must be a positive integer`);
    if (!Number.isInteger(queueLimit) || queueLimit < 0) throw new RangeError(`${label}: queue limit must be a non-negative integer`);
  }

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  /** Resolves with a release function once a slot is free; throws QUEUE_FULL when the queue is full. */
  acquire(): Promise<Release> {
    if (this.#active < this.capacity) {
      this.#active += 1;
      return Promise.resolve(this.#releaser());
    }
    if (this.#waiting.length >= this.queueLimit) {
      return Promise.reject(
        new ToolHostError(
          'QUEUE_FULL',
          `Too many calls for ${this.label}: ${this.#active} running and ${this.#waiting.length} queued (limit ${this.queueLimit}); try again later`,
        ),
      );
    }
    return new Promise((resolve) => {
      this.#waiting.push(() => resolve(this.#releaser()));
    });
  }

  #releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next === undefined) this.#active -= 1;
      else next();
    };
  }
}
