/**
 * The tool call's spans on the host's call path, exported by the real OTLP/HTTP exporter to a local
 * sink (OTLP/JSON) and read back: `quota wait` under `admit` only for the call that queued for a
 * quota slot, the principal's subject and client id on `execute_tool` when the call has one (and
 * nothing about a principal when it has none), and no
 * argument or result text in any span.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAITING_FOR_QUOTA } from '../../src/call-events.ts';
import { resolveConfig } from '../../src/config.ts';
import { createHost } from '../../src/host.ts';
import type { Host } from '../../src/host-types.ts';
import { createOtelTelemetry } from '../../src/telemetry/otel.ts';
import type { Telemetry } from '../../src/telemetry/span.ts';
import { TEST_TOOLS, temporaryDirectory } from '../server/helpers.ts';
import { startOtlpSink, type OtlpSink } from './otlp-sink.ts';

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

const MARKER = 'span-private-marker-91c2';

describe('tool call spans through the real exporter', { timeout: 60_000 }, () => {
  let sink: OtlpSink;
  let telemetry: Telemetry;
  let host: Host;
  let spans: JsonSpan[] = [];
  const traces: Record<string, string> = {};

  beforeAll(async () => {
    sink = await startOtlpSink();
    telemetry = createOtelTelemetry({ otlpEndpoint: sink.url, serviceName: 'call-spans-test' });
    const folder = temporaryDirectory('toolhost-call-spans-');
    const configFile = join(folder, 'toolhost.json');
    writeFileSync(configFile, JSON.stringify({ workspace: folder, quotas: { slow: { concurrency: 1, queue: 1 } } }));
    host = await createHost(resolveConfig({ configFile, env: {} }).host, { builtinTools: TEST_TOOLS });

    // A quota of one: the first call holds the slot until it is cancelled, the second queues meanwhile.
    const quotaRoot = telemetry.startSpan('quota test', undefined);
    traces['quota'] = quotaRoot.traceparent().split('-')[1] as string;
    const holder = new AbortController();
    const first = host.callTool('slow', { ms: 120_000, label: 'holder' }, { trace: quotaRoot, signal: holder.signal });
    let queued: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (queued = resolve));
    const second = host.callTool('slow', { ms: 0, label: 'queued' }, { trace: quotaRoot, events: { progress: (update) => update.message === WAITING_FOR_QUOTA && queued() } });
    await waiting;
    holder.abort();
    expect((await first).is_error).toBe(true);
    expect((await second).is_error).toBe(false);
    quotaRoot.end();

    const principalRoot = telemetry.startSpan('principal test', undefined);
    traces['principal'] = principalRoot.traceparent().split('-')[1] as string;
    await host.callTool('echo', { text: MARKER }, { trace: principalRoot, principal: { subject: 'alice@example.com', clientId: 'ide-client', scopes: ['tools:read'], kind: 'token' } });
    await host.callTool('fail', {}, { trace: principalRoot });
    principalRoot.end();

    await telemetry.shutdown();
    spans = (sink.bodies('/v1/traces') as { resourceSpans: { scopeSpans: { spans: JsonSpan[] }[] }[] }[]).flatMap((body) => body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)));
  });
  afterAll(async () => {
    await host?.close({ graceMs: 0 });
    await sink?.close();
  });

  const attributes = (span: JsonSpan | undefined): Record<string, unknown> => Object.fromEntries((span?.attributes ?? []).map((attribute) => [attribute.key, Object.values(attribute.value)[0]]));
  const inTrace = (name: string) => spans.filter((span) => span.traceId === traces[name]);
  const childrenOf = (span: JsonSpan | undefined, name: string) => spans.filter((candidate) => candidate.parentSpanId === span?.spanId && candidate.name === name);

  it('"quota wait" under admit for the call that queued, none for the one that did not', () => {
    const calls = inTrace('quota').filter((span) => span.name === 'execute_tool slow');
    expect(calls).toHaveLength(2);
    const [admitOfFirst, admitOfSecond] = calls.map((call) => childrenOf(call, 'admit')[0]);
    const waits = calls.map((call, index) => [attributes(call)['toolhost.is_error'], childrenOf([admitOfFirst, admitOfSecond][index], 'quota wait').length]);
    // The holder was cancelled (an error) and never waited; the queued call waited once and succeeded.
    expect(waits.sort()).toEqual([
      [false, 1],
      [true, 0],
    ]);
    expect(inTrace('quota').some((span) => span.name === 'approval wait')).toBe(false);
  });

  it("the principal's subject and client id on the call that has one, nothing on the call that has none", () => {
    const [echo] = inTrace('principal').filter((span) => span.name === 'execute_tool echo');
    expect(attributes(echo)).toMatchObject({ 'toolhost.principal.subject': 'alice@example.com', 'toolhost.principal.client_id': 'ide-client', 'toolhost.is_error': false });
    const [fail] = inTrace('principal').filter((span) => span.name === 'execute_tool fail');
    expect(Object.keys(attributes(fail)).filter((key) => key.startsWith('toolhost.principal'))).toEqual([]);
    expect(attributes(fail)).toMatchObject({ 'toolhost.is_error': true, 'error.type': 'tool_error' });
  });

  it('no span carries the arguments or the result', () => {
    expect(spans.length).toBeGreaterThan(0);
    expect(JSON.stringify(sink.bodies('/v1/traces'))).not.toContain(MARKER);
  });
});
