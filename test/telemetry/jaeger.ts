/**
 * A real OTLP receiver for the tracing tests: Jaeger all-in-one (in-memory store), built by
 * `.ci/install-otel-receiver.sh`, every port on 127.0.0.1 and free, OTLP/HTTP in and the query API
 * (`GET /api/traces/<trace id>`) out. The binary comes from TOOLHOST_TEST_JAEGER, else PATH
 * (`jaeger-all-in-one`), else the install script's cache folder; missing, the tests skip, except in CI
 * (`CI` set), where they fail.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '../fleet/harness.ts';

export const JAEGER_ENV = 'TOOLHOST_TEST_JAEGER';

/** Where the receiver binary is, or undefined; throws in CI when there is none. */
export function jaegerBinary(): string | undefined {
  const fromEnv = process.env[JAEGER_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!existsSync(fromEnv)) throw new Error(`${JAEGER_ENV}=${fromEnv} does not exist; run .ci/install-otel-receiver.sh`);
    return fromEnv;
  }
  const onPath = spawnSync('sh', ['-c', 'command -v jaeger-all-in-one'], { encoding: 'utf8' }).stdout.trim();
  if (onPath !== '') return onPath;
  const cached = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'toolhost-ci', 'go-bin', 'jaeger-all-in-one');
  if (existsSync(cached)) return cached;
  if (process.env['CI']) throw new Error(`no Jaeger all-in-one: set ${JAEGER_ENV} (CI builds it with .ci/install-otel-receiver.sh)`);
  return undefined;
}

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: { refType: string; traceID: string; spanID: string }[];
  /** Microseconds since the epoch. */
  startTime: number;
  /** Microseconds. */
  duration: number;
  tags: { key: string; type: string; value: unknown }[];
  processID: string;
}

export interface Jaeger {
  /** The OTLP/HTTP base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  otlpUrl: string;
  queryUrl: string;
  /** The spans Jaeger holds for `traceId` (none yet: []). */
  spans(traceId: string): Promise<JaegerSpan[]>;
  /** Waits (polling the query API, at most `timeoutMs`) until `ready(spans)` holds for the trace's spans. */
  waitForSpans(traceId: string, ready: (spans: JaegerSpan[]) => boolean, timeoutMs?: number): Promise<JaegerSpan[]>;
  stop(): Promise<void>;
}

export async function startJaeger(binary: string): Promise<Jaeger> {
  const otlpHttp = await freePort();
  const otlpGrpc = await freePort();
  const query = await freePort();
  const queryGrpc = await freePort();
  const admin = await freePort();
  const collectorHttp = await freePort();
  const collectorGrpc = await freePort();
  const at = (port: number): string => `127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    binary,
    [
      `--collector.otlp.http.host-port=${at(otlpHttp)}`,
      `--collector.otlp.grpc.host-port=${at(otlpGrpc)}`,
      `--query.http-server.host-port=${at(query)}`,
      `--query.grpc-server.host-port=${at(queryGrpc)}`,
      `--admin.http.host-port=${at(admin)}`,
      `--collector.http-server.host-port=${at(collectorHttp)}`,
      `--collector.grpc-server.host-port=${at(collectorGrpc)}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-10_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`cannot start ${binary}: ${error.message}`)));
    void exited.then(() => reject(new Error(`${binary} exited before listening\n${stderr}`)));
  });
  await Promise.race([Promise.all([waitForPort(otlpHttp), waitForPort(query)]), failed]);
  const queryUrl = `http://${at(query)}`;
  const spans = async (traceId: string): Promise<JaegerSpan[]> => {
    const response = await fetch(`${queryUrl}/api/traces/${traceId}`);
    if (response.status === 404) return [];
    if (!response.ok) throw new Error(`Jaeger answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { data?: { spans: JaegerSpan[] }[] };
    return (body.data ?? []).flatMap((trace) => trace.spans);
  };
  return {
    otlpUrl: `http://${at(otlpHttp)}`,
    queryUrl,
    spans,
    async waitForSpans(traceId, ready, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = await spans(traceId);
        if (ready(found)) return found;
        if (Date.now() > deadline) throw new Error(`trace ${traceId} not complete in Jaeger after ${timeoutMs} ms; it holds: ${found.map((span) => span.operationName).join(', ') || 'nothing'}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      // Its store is in memory and nothing is left to flush: SIGTERM would wait out its 10 s grace.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A span's tags as a record. */
export function tagsOf(span: JaegerSpan): Record<string, unknown> {
  return Object.fromEntries(span.tags.map((tag) => [tag.key, tag.value]));
}

/** The span's parent span id (its CHILD_OF reference), undefined for a root. */
export function parentOf(span: JaegerSpan): string | undefined {
  return span.references.find((reference) => reference.refType === 'CHILD_OF')?.spanID;
}
