/**
 * What the daemon's metrics registry (src/server/metrics.ts, `GET /metrics`) offers an exporter: a
 * snapshot of its counters and gauges, and each call as it is recorded (for a histogram the exporter
 * keeps itself). The OTLP metrics exporter (otel-metrics.ts) reads it; nothing here is OpenTelemetry.
 */

export interface ToolCallCounts {
  tool: string;
  calls: number;
  errors: number;
}

export interface QuotaGauges {
  /** The quota's config key (a tool name or a glob). */
  key: string;
  inUse: number;
  waiting: number;
  windowCalls: number;
  queued: number;
  refused: Readonly<Record<string, number>>;
}

export interface MetricsSnapshot {
  tools: ToolCallCounts[];
  networkDenials: { tool: string; kind: string; count: number }[];
  quotas: QuotaGauges[];
  toolsLoaded: number;
  callsInFlight: number;
  reloads: number;
  loadFailuresTotal: number;
  loadFailuresCurrent: number;
}

export type CallListener = (tool: string, durationSeconds: number, isError: boolean) => void;

export interface MetricsSource {
  snapshot(): MetricsSnapshot;
  /** Hears every recorded call (tool label as `/metrics` shows it); returns an unsubscribe function. */
  onCall(listener: CallListener): () => void;
}
