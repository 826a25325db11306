/**
 * The daemon's metrics over OTLP/HTTP (`<otlp_endpoint>/v1/metrics`, a PeriodicExportingMetricReader,
 * every 15 s or `OTEL_METRIC_EXPORT_INTERVAL`), the same families `GET /metrics` serves, mapped by name:
 *   toolhost_tool_calls_total            → toolhost.tool.calls            (counter, {tool})
 *   toolhost_tool_call_errors_total      → toolhost.tool.call.errors      (counter, {tool})
 *   toolhost_tool_call_duration_seconds  → toolhost.tool.call.duration    (histogram, s, {tool}, same buckets)
 *   toolhost_network_denied_total        → toolhost.network.denied        (counter, {tool, kind})
 *   toolhost_tools_loaded                → toolhost.tools.loaded          (gauge)
 *   toolhost_tool_calls_in_flight        → toolhost.tool.calls.in_flight  (gauge)
 *   toolhost_tool_reloads_total          → toolhost.tool.reloads          (counter)
 *   toolhost_extension_load_failures_total → toolhost.extension.load_failures (counter)
 *   toolhost_extension_load_failures     → toolhost.extension.load_failures.current (gauge)
 *   toolhost_quota_{in_use,waiting,window_calls} → toolhost.quota.{in_use,waiting,window_calls} (gauges, {tool})
 *   toolhost_quota_{queued,refused}_total → toolhost.quota.{queued,refused} (counters, {tool[, reason]})
 * Counters and gauges are observed from the registry's snapshot at each export; the histogram records
 * each call as the registry does. Only loaded (by otel.ts) when telemetry is configured.
 */
import type { Attributes } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { CALL_DURATION_BUCKETS } from '../server/metrics.ts';
import { signalUrl, type TelemetryConfig } from './config.ts';
import type { MetricsSnapshot, MetricsSource } from './metrics-source.ts';

const DEFAULT_EXPORT_INTERVAL_MS = 15_000;

function exportIntervalMs(): number {
  const value = Number(process.env['OTEL_METRIC_EXPORT_INTERVAL']);
  return Number.isFinite(value) && value >= 100 ? value : DEFAULT_EXPORT_INTERVAL_MS;
}

type Observe = (snapshot: MetricsSnapshot, observe: (value: number, attributes?: Attributes) => void) => void;

/** Starts exporting `source`; the returned function flushes and stops. */
export function startOtlpMetrics(config: TelemetryConfig, resource: Resource, source: MetricsSource): () => Promise<void> {
  const reader = new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: signalUrl(config, 'metrics') }), exportIntervalMillis: exportIntervalMs() });
  const provider = new MeterProvider({ resource, readers: [reader] });
  const meter = provider.getMeter('toolhost');
  const observed: [ReturnType<typeof meter.createObservableCounter>, Observe][] = [];
  const counter = (name: string, description: string, observe: Observe): void => {
    observed.push([meter.createObservableCounter(name, { description }), observe]);
  };
  const gauge = (name: string, description: string, observe: Observe): void => {
    observed.push([meter.createObservableGauge(name, { description }), observe]);
  };
  counter('toolhost.tool.calls', 'Tool calls, by tool.', (s, o) => s.tools.forEach((t) => o(t.calls, { tool: t.tool })));
  counter('toolhost.tool.call.errors', 'Tool calls that returned is_error, by tool.', (s, o) => s.tools.forEach((t) => o(t.errors, { tool: t.tool })));
  counter('toolhost.network.denied', 'Outgoing requests of wasm tools refused by their network policy, by tool and kind.', (s, o) => s.networkDenials.forEach((d) => o(d.count, { tool: d.tool, kind: d.kind })));
  gauge('toolhost.tools.loaded', 'Tools visible to clients.', (s, o) => o(s.toolsLoaded));
  gauge('toolhost.tool.calls.in_flight', 'Tool calls currently running.', (s, o) => o(s.callsInFlight));
  counter('toolhost.tool.reloads', 'Tools replaced by a new version (hot reload).', (s, o) => o(s.reloads));
  counter('toolhost.extension.load_failures', 'Extension files that failed to load since start.', (s, o) => o(s.loadFailuresTotal));
  gauge('toolhost.extension.load_failures.current', 'Extension files currently failing to load.', (s, o) => o(s.loadFailuresCurrent));
  gauge('toolhost.quota.in_use', 'Calls running under a quota, by quota key.', (s, o) => s.quotas.forEach((q) => o(q.inUse, { tool: q.key })));
  gauge('toolhost.quota.waiting', 'Calls queued for a concurrency slot of a quota, by quota key.', (s, o) => s.quotas.forEach((q) => o(q.waiting, { tool: q.key })));
  gauge('toolhost.quota.window_calls', 'Calls admitted under a quota in the last 60 seconds, by quota key.', (s, o) => s.quotas.forEach((q) => o(q.windowCalls, { tool: q.key })));
  counter('toolhost.quota.queued', 'Calls that waited in a quota queue, by quota key.', (s, o) => s.quotas.forEach((q) => o(q.queued, { tool: q.key })));
  counter('toolhost.quota.refused', 'Calls refused by a quota, by quota key and reason.', (s, o) =>
    s.quotas.forEach((q) => Object.entries(q.refused).forEach(([reason, count]) => o(count, { tool: q.key, reason }))),
  );
  // One snapshot per collection serves every observable instrument.
  meter.addBatchObservableCallback(
    (result) => {
      const snapshot = source.snapshot();
      for (const [instrument, observe] of observed) observe(snapshot, (value, attributes) => result.observe(instrument, value, attributes));
    },
    observed.map(([instrument]) => instrument),
  );
  const duration = meter.createHistogram('toolhost.tool.call.duration', { description: 'Tool call latency in seconds, by tool.', unit: 's', advice: { explicitBucketBoundaries: [...CALL_DURATION_BUCKETS] } });
  const unsubscribe = source.onCall((tool, seconds) => duration.record(seconds, { tool }));
  return async () => {
    unsubscribe();
    await provider.shutdown();
  };
}
