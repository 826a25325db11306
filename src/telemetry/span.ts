/**
 * The tracing contract the host, the edges and the tool kinds see: a span they can add children to,
 * annotate and end, and a `Telemetry` that starts spans from a W3C trace context. Nothing here imports
 * OpenTelemetry (src/telemetry/otel.ts implements it and is imported only when telemetry is on), so
 * code on the call path pays one `undefined` check when tracing is off.
 *
 * Times are epoch milliseconds (fractions allowed): a span made after the fact from timings measured
 * elsewhere (a wasm worker's instantiate and run) gives its start and end explicitly.
 */
import type { MetricsSource } from './metrics-source.ts';

export type SpanAttributeValue = string | number | boolean;
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue | undefined>>;

export type SpanKind = 'internal' | 'server' | 'client';

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: SpanAttributes;
  /** Epoch milliseconds; default now. */
  startTime?: number;
}

export interface TraceSpan {
  /** A child of this span, started now (or at `options.startTime`). */
  child(name: string, options?: SpanOptions): TraceSpan;
  setAttributes(attributes: SpanAttributes): void;
  /** Renames the span (an HTTP span learns its route after routing). */
  updateName(name: string): void;
  /** Marks the span failed: status ERROR with `message`, and `error.type` = `type`. */
  fail(type: string, message?: string): void;
  /** Ends the span now (or at `endTime`, epoch milliseconds). Later calls are ignored. */
  end(endTime?: number): void;
  /** The span's W3C `traceparent` (for logs and tests). */
  traceparent(): string;
}

/** Incoming W3C trace context: the `traceparent` and `tracestate` header values (or MCP `_meta` fields). */
export interface TraceCarrier {
  traceparent?: string | undefined;
  tracestate?: string | undefined;
}

export interface Telemetry {
  /**
   * A span whose parent is the remote span `carrier` names when it is a valid W3C trace context, else
   * a new trace's root span.
   */
  startSpan(name: string, carrier: TraceCarrier | undefined, options?: SpanOptions): TraceSpan;
  /** Offers a daemon's metrics (`GET /metrics`) over OTLP too, exported periodically until shutdown. */
  exportMetrics(source: MetricsSource): void;
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

/** Epoch milliseconds now, with the sub-millisecond precision of performance.now(). */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}
