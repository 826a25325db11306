/**
 * clock_res_get, clock_time_get: the realtime clock is the WASI 0.2 host's wall clock, the monotonic
 * clock its monotonic clock (wasi/clocks.ts). CPU-time clocks are not offered (`BADF`, as the preview1
 * adapter and wasmtime answer).
 */
import { wallClockImports } from '../wasi/clocks.ts';
import { ERRNO } from './errno.ts';
import { hostFunction, type ImportFunctions, type Preview1State } from './state.ts';

export const CLOCK_REALTIME = 0;
export const CLOCK_MONOTONIC = 1;

const NS_PER_SECOND = 1_000_000_000n;

/** Nanoseconds since the epoch. */
export function realtimeNs(): bigint {
  const now = wallClockImports.now();
  return now.seconds * NS_PER_SECOND + BigInt(now.nanoseconds);
}

export function monotonicNs(): bigint {
  return process.hrtime.bigint();
}

/** The current value of clock `id`; `BADF` for a clock this host does not offer. */
export function clockNow(id: number): bigint {
  if (id === CLOCK_REALTIME) return realtimeNs();
  if (id === CLOCK_MONOTONIC) return monotonicNs();
  throw ERRNO.BADF;
}

export function clockImports(state: Preview1State): ImportFunctions {
  return {
    clock_res_get: hostFunction((id: number, resolutionPointer: number) => {
      if (id === CLOCK_REALTIME) state.memory.setU64(resolutionPointer, 1000n);
      else if (id === CLOCK_MONOTONIC) state.memory.setU64(resolutionPointer, 1n);
      else throw ERRNO.BADF;
    }),
    clock_time_get: hostFunction((id: number, _precision: bigint, timePointer: number) => {
      state.memory.setU64(timePointer, clockNow(id));
    }),
  };
}
