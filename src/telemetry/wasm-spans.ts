/**
 * A wasm call's `instantiate` and `run` spans, made after the call from the timings its worker
 * measured (src/wasm/invoke.ts `InvokeTiming`: epoch start, then the two durations), as children of
 * the tool call span with explicit start and end times.
 */
import { SPAN_INSTANTIATE, SPAN_RUN } from './attributes.ts';
import type { TraceSpan } from './span.ts';

export interface PhaseTiming {
  /** Epoch milliseconds. */
  startedAt: number;
  instantiateMs: number;
  runMs: number;
}

export function traceWasmPhases(parent: TraceSpan, timing: PhaseTiming): void {
  const instantiated = timing.startedAt + timing.instantiateMs;
  parent.child(SPAN_INSTANTIATE, { startTime: timing.startedAt }).end(instantiated);
  parent.child(SPAN_RUN, { startTime: instantiated }).end(instantiated + timing.runMs);
}
