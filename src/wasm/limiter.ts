/**
 * Fair admission of calls: at most `capacity` calls hold a slot at once, at most `perKeyCapacity` of
 * them for one key (a tool), and waiting calls sit in one FIFO queue per key. A freed slot goes to
 * the queued key served least recently (round-robin across keys), so a tool with fifty queued calls
 * cannot starve a tool with one. A key's queue holds at most `queueLimit` waiters; one more is
 * refused with ToolHostError('QUEUE_FULL'). A waiter whose abort signal fires leaves its queue at
 * once and its `acquire` rejects with the signal's reason.
 */
import { ToolHostError } from '../errors.ts';

export type Release = () => void;

export interface CallLimiterOptions {
  /** Slots across all keys. */
  capacity: number;
  /** Slots one key may hold; more than `capacity` means no per-key limit. */
  perKeyCapacity: number;
  /** Waiters one key may queue. */
  queueLimit: number;
}

interface Waiter {
  grant: () => void;
}

interface KeyState {
  label: string;
  active: number;
  waiting: Waiter[];
  /** The admission sequence number of this key's latest slot (0 = never served). */
  lastServed: number;
}

function checkCount(value: number, minimum: number, name: string): void {
  if (!Number.isInteger(value) || value < minimum) throw new RangeError(`call limiter: ${name} must be an integer >= ${minimum}`);
}

export class CallLimiter {
  readonly capacity: number;
  readonly perKeyCapacity: number;
  readonly queueLimit: number;
  #active = 0;
  #queued = 0;
  #served = 0;
  readonly #keys = new Map<string, KeyState>();
  /** Keys with at least one waiter. */
  readonly #waitingKeys = new Set<KeyState>();

  constructor(options: CallLimiterOptions) {
    checkCount(options.capacity, 1, 'capacity');
    checkCount(options.perKeyCapacity, 1, 'per-key capacity');
    checkCount(options.queueLimit, 0, 'queue limit');
    this.capacity = options.capacity;
    this.perKeyCapacity = options.perKeyCapacity;
    this.queueLimit = options.queueLimit;
  }

  /** Slots held across all keys. */
  get active(): number {
    return this.#active;
  }

  /** Waiters across all keys. */
  get queued(): number {
    return this.#queued;
  }

  /** Slots held and waiters of one key. */
  usage(key: string): { active: number; queued: number } {
    const state = this.#keys.get(key);
    return { active: state?.active ?? 0, queued: state?.waiting.length ?? 0 };
  }

  /** Number of keys with a slot or a waiter (keys are forgotten when idle). */
  get trackedKeys(): number {
    return this.#keys.size;
  }

  /**
   * Resolves with a release function once `key` has a slot. Rejects with QUEUE_FULL when the key's
   * queue is full, and with `signal.reason` when the signal fires first (the waiter leaves the queue).
   */
  acquire(key: string, label: string, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const state = this.#stateOf(key, label);
    if (this.#active < this.capacity && state.active < this.perKeyCapacity && state.waiting.length === 0) {
      this.#admit(state);
      return Promise.resolve(this.#releaser(key, state));
    }
    if (state.waiting.length >= this.queueLimit) {
      this.#forgetIfIdle(key, state);
      return Promise.reject(
        new ToolHostError(
          'QUEUE_FULL',
          `Too many calls for ${label}: ${state.active} running and ${state.waiting.length} queued (limit ${this.queueLimit}); try again later`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = state.waiting.indexOf(waiter);
        if (index < 0) return;
        state.waiting.splice(index, 1);
        this.#queued -= 1;
        if (state.waiting.length === 0) this.#waitingKeys.delete(state);
        this.#forgetIfIdle(key, state);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#releaser(key, state));
        },
      };
      state.waiting.push(waiter);
      this.#queued += 1;
      this.#waitingKeys.add(state);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #stateOf(key: string, label: string): KeyState {
    let state = this.#keys.get(key);
    if (state === undefined) {
      state = { label, active: 0, waiting: [], lastServed: 0 };
      this.#keys.set(key, state);
    }
    return state;
  }

  #forgetIfIdle(key: string, state: KeyState): void {
    // Idle keys are forgotten, so the map holds only the keys in use. A key that comes back counts as
    // never served: its call goes ahead of the backlog of keys that were served all along.
    if (state.active === 0 && state.waiting.length === 0 && this.#keys.get(key) === state) this.#keys.delete(key);
  }

  #admit(state: KeyState): void {
    this.#active += 1;
    state.active += 1;
    this.#served += 1;
    state.lastServed = this.#served;
  }

  #releaser(key: string, state: KeyState): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active -= 1;
      state.active -= 1;
      this.#dispatch();
      this.#forgetIfIdle(key, state);
    };
  }

  /** Hands free slots to waiters: each time to the eligible key served least recently. */
  #dispatch(): void {
    while (this.#active < this.capacity) {
      let next: KeyState | undefined;
      for (const state of this.#waitingKeys) {
        if (state.active >= this.perKeyCapacity) continue;
        if (next === undefined || state.lastServed < next.lastServed) next = state;
      }
      if (next === undefined) return;
      const waiter = next.waiting.shift() as Waiter;
      this.#queued -= 1;
      if (next.waiting.length === 0) this.#waitingKeys.delete(next);
      this.#admit(next);
      waiter.grant();
    }
  }
}
