/**
 * wasi:clocks/monotonic-clock and wall-clock (0.2.0–0.2.3), plus the unstable wasi:clocks/timezone
 * (always UTC). The monotonic clock is per call because its pollables carry the call's deadline.
 */
import type { CallContext } from './call-context.ts';
import { Pollable } from './io-poll.ts';

export interface Datetime {
  seconds: bigint;
  nanoseconds: number;
}

export interface MonotonicClock {
  now(): bigint;
  resolution(): bigint;
  subscribeInstant(when: bigint): Pollable;
  subscribeDuration(duration: bigint): Pollable;
}

const monotonicNow = (): bigint => process.hrtime.bigint();
const monotonicResolution = (): bigint => 1n;

export function createMonotonicClock(ctx: CallContext): MonotonicClock {
  return {
    now: monotonicNow,
    resolution: monotonicResolution,
    subscribeInstant: (when) => new Pollable(when === 0n ? 1n : when, ctx),
    subscribeDuration: (duration) => new Pollable(process.hrtime.bigint() + duration, ctx),
  };
}

const timeOrigin = performance.timeOrigin;

function wallNow(): Datetime {
  const ms = timeOrigin + performance.now();
  const seconds = Math.floor(ms / 1000);
  return { seconds: BigInt(seconds), nanoseconds: Math.min(999_999_999, Math.floor((ms - seconds * 1000) * 1e6)) };
}

export const wallClockImports = Object.freeze({
  now: wallNow,
  resolution: (): Datetime => ({ seconds: 0n, nanoseconds: 1000 }),
});

export const timezoneImports = Object.freeze({
  display: (_when: Datetime) => ({ utcOffset: 0, name: 'UTC', inDaylightSavingTime: false }),
  utcOffset: (_when: Datetime) => 0,
});
