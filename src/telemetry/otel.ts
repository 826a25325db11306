/**
 * The OpenTelemetry implementation of `Telemetry` (span.ts): a TracerProvider with a
 * BatchSpanProcessor exporting over OTLP/HTTP to `<otlp_endpoint>/v1/traces`, W3C trace context
 * (`traceparent`/`tracestate`) read with the W3CTraceContextPropagator, and, when a daemon offers
 * them, its metrics over OTLP/HTTP to `<otlp_endpoint>/v1/metrics` (otel-metrics.ts).
 *
 * Imported only by `startTelemetry` in index.ts when telemetry is configured: a host without
 * telemetry loads none of this. No global provider, propagator or context manager is installed:
 * spans are passed explicitly (a parent span's context is built with `trace.setSpan` on the root
 * context), so nothing else in the process is traced by accident.
 */
import { defaultTextMapGetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { ERROR_TYPE } from './attributes.ts';
import { signalUrl, type TelemetryConfig } from './config.ts';
import type { MetricsSource } from './metrics-source.ts';
import { startOtlpMetrics } from './otel-metrics.ts';
import { epochNow, type SpanAttributes, type SpanKind as ToolhostSpanKind, type SpanOptions, type Telemetry, type TraceCarrier, type TraceSpan } from './span.ts';

const KINDS: Record<ToolhostSpanKind, SpanKind> = { internal: SpanKind.INTERNAL, server: SpanKind.SERVER, client: SpanKind.CLIENT };

function cleanAttributes(attributes: SpanAttributes | undefined): Attributes | undefined {
  if (attributes === undefined) return undefined;
  const clean: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) clean[key] = value;
  return clean;
}

class OtelSpan implements TraceSpan {
  private ended = false;
  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
  ) {}

  child(name: string, options: SpanOptions = {}): TraceSpan {
    return startOtelSpan(this.tracer, name, trace.setSpan(ROOT_CONTEXT, this.span), options);
  }

  setAttributes(attributes: SpanAttributes): void {
    const clean = cleanAttributes(attributes);
    if (clean !== undefined) this.span.setAttributes(clean);
  }

  updateName(name: string): void {
    this.span.updateName(name);
  }

  fail(type: string, message?: string): void {
    this.span.setAttribute(ERROR_TYPE, type);
    this.span.setStatus(message === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message });
  }

  end(endTime?: number): void {
    if (this.ended) return;
    this.ended = true;
    this.span.end(endTime ?? epochNow());
  }

  traceparent(): string {
    const { traceId, spanId, traceFlags } = this.span.spanContext();
    return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
  }
}

function startOtelSpan(tracer: Tracer, name: string, parent: Context, options: SpanOptions): TraceSpan {
  const attributes = cleanAttributes(options.attributes);
  const span = tracer.startSpan(
    name,
    {
      kind: KINDS[options.kind ?? 'internal'],
      ...(attributes !== undefined ? { attributes } : {}),
      // One clock for every span (timeOrigin + performance.now(), as the wasm workers' timings): the SDK's
      // own default anchors each span at Date.now(), a millisecond apart from its neighbours at worst.
      startTime: options.startTime ?? epochNow(),
    },
    parent,
  );
  return new OtelSpan(tracer, span);
}

/** The standard `OTEL_BSP_SCHEDULE_DELAY` (ms between span batch exports; the spec's default 5000). */
function scheduleDelayMs(): number {
  const value = Number(process.env['OTEL_BSP_SCHEDULE_DELAY']);
  return Number.isFinite(value) && value > 0 ? value : 5000;
}

export interface OtelTelemetryOptions {
  /** The `service.version` resource attribute. */
  serviceVersion?: string;
}

export function createOtelTelemetry(config: TelemetryConfig, options: OtelTelemetryOptions = {}): Telemetry {
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: config.serviceName,
    ...(options.serviceVersion !== undefined ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
  });
  const provider = new TracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: signalUrl(config, 'traces') }), scheduledDelayMillis: scheduleDelayMs() })],
  });
  const tracer = provider.getTracer('toolhost', options.serviceVersion);
  const propagator = new W3CTraceContextPropagator();
  const metricsStops: (() => Promise<void>)[] = [];
  let shuttingDown: Promise<void> | undefined;
  return {
    startSpan(name: string, carrier: TraceCarrier | undefined, spanOptions: SpanOptions = {}): TraceSpan {
      const parent = carrier?.traceparent === undefined ? ROOT_CONTEXT : propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
      return startOtelSpan(tracer, name, parent, spanOptions);
    },
    exportMetrics(source: MetricsSource): void {
      metricsStops.push(startOtlpMetrics(config, resource, source));
    },
    shutdown(): Promise<void> {
      shuttingDown ??= Promise.allSettled([provider.shutdown(), ...metricsStops.map((stop) => stop())]).then(() => undefined);
      return shuttingDown;
    },
  };
}
