/**
 * The `/metrics` families over OTLP: a real server (startServer on loopback) with telemetry pointed at
 * a local OTLP/HTTP sink makes real calls; when it closes, the periodic reader's last export must carry
 * the same numbers `/metrics` shows: calls and errors per tool, the latency histogram (same buckets,
 * same count), tools loaded, in flight. And the traces of the same calls arrived at `/v1/traces`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_DURATION_BUCKETS } from '../../src/server/metrics.ts';
import { createOtelTelemetry } from '../../src/telemetry/otel.ts';
import { postJson, startTestServer, type TestServer } from '../server/helpers.ts';
import { startOtlpSink, type OtlpSink } from './otlp-sink.ts';

interface JsonAttribute {
  key: string;
  value: { stringValue?: string };
}
interface JsonPoint {
  attributes?: JsonAttribute[];
  asInt?: string | number;
  asDouble?: number;
  count?: string | number;
  explicitBounds?: number[];
  bucketCounts?: (string | number)[];
}
interface JsonMetric {
  name: string;
  sum?: { dataPoints: JsonPoint[]; isMonotonic?: boolean };
  gauge?: { dataPoints: JsonPoint[] };
  histogram?: { dataPoints: JsonPoint[] };
}

/** The metrics of the last export the sink received, by name. */
function lastExport(sink: OtlpSink): Map<string, JsonMetric> {
  const bodies = sink.bodies('/v1/metrics') as { resourceMetrics: { scopeMetrics: { metrics: JsonMetric[] }[] }[] }[];
  const last = bodies.at(-1);
  if (last === undefined) throw new Error('no metrics export arrived');
  return new Map(last.resourceMetrics.flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics)).map((metric) => [metric.name, metric]));
}

function pointFor(points: JsonPoint[] | undefined, tool?: string): JsonPoint | undefined {
  return points?.find((point) => tool === undefined || point.attributes?.some((attribute) => attribute.key === 'tool' && attribute.value.stringValue === tool));
}

const valueOf = (point: JsonPoint | undefined): number => Number(point?.asInt ?? point?.asDouble ?? NaN);

describe('metrics over OTLP mirror /metrics', { timeout: 60_000 }, () => {
  let sink: OtlpSink;
  let server: TestServer;
  let exposition: string;

  beforeAll(async () => {
    sink = await startOtlpSink();
    const telemetry = createOtelTelemetry({ otlpEndpoint: sink.url, serviceName: 'toolhost-metrics-test' });
    server = await startTestServer({ telemetry });
    for (const text of ['a', 'b', 'c']) expect((await postJson(`${server.url}/v1/tools/echo/call`, { arguments: { text } })).status).toBe(200);
    expect((await postJson(`${server.url}/v1/tools/fail/call`, { arguments: {} })).status).toBe(200);
    exposition = await (await fetch(`${server.url}/metrics`)).text();
    // Closing the server shuts telemetry down: the reader exports once more, with everything above.
    await server.close();
  });
  afterAll(async () => {
    await sink?.close();
  });

  it('calls and errors per tool: the same counts as /metrics', () => {
    const metrics = lastExport(sink);
    expect(exposition).toContain('toolhost_tool_calls_total{tool="echo"} 3');
    expect(valueOf(pointFor(metrics.get('toolhost.tool.calls')?.sum?.dataPoints, 'echo'))).toBe(3);
    expect(metrics.get('toolhost.tool.calls')?.sum?.isMonotonic).toBe(true);
    expect(valueOf(pointFor(metrics.get('toolhost.tool.calls')?.sum?.dataPoints, 'fail'))).toBe(1);
    expect(exposition).toContain('toolhost_tool_call_errors_total{tool="fail"} 1');
    expect(valueOf(pointFor(metrics.get('toolhost.tool.call.errors')?.sum?.dataPoints, 'fail'))).toBe(1);
    expect(valueOf(pointFor(metrics.get('toolhost.tool.call.errors')?.sum?.dataPoints, 'echo'))).toBe(0);
  });

  it('the latency histogram: same buckets, same count per tool', () => {
    const point = pointFor(lastExport(sink).get('toolhost.tool.call.duration')?.histogram?.dataPoints, 'echo');
    expect(point?.explicitBounds).toEqual([...CALL_DURATION_BUCKETS]);
    expect(Number(point?.count)).toBe(3);
    expect(exposition).toContain('toolhost_tool_call_duration_seconds_count{tool="echo"} 3');
    expect((point?.bucketCounts ?? []).reduce((sum: number, count) => sum + Number(count), 0)).toBe(3);
  });

  it('the gauges: tools loaded and calls in flight', () => {
    const metrics = lastExport(sink);
    const loaded = /^toolhost_tools_loaded (\d+)$/m.exec(exposition)?.[1];
    expect(valueOf(pointFor(metrics.get('toolhost.tools.loaded')?.gauge?.dataPoints))).toBe(Number(loaded));
    expect(valueOf(pointFor(metrics.get('toolhost.tool.calls.in_flight')?.gauge?.dataPoints))).toBe(0);
  });

  it('the calls were traced to /v1/traces as well', () => {
    const spans = (sink.bodies('/v1/traces') as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] }[]).flatMap((body) =>
      body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name))),
    );
    expect(spans.filter((name) => name === 'execute_tool echo')).toHaveLength(3);
    expect(spans.filter((name) => name === 'POST /v1/tools/:name/call')).toHaveLength(4);
  });
});
