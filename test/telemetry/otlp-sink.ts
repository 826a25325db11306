/**
 * A local OTLP/HTTP sink for tests and benches that need an endpoint but not a real receiver: it
 * answers every POST with 200 and an empty body, counts the requests per path (`/v1/traces`,
 * `/v1/metrics`) and keeps the JSON bodies (the `-otlp-http` exporters send OTLP/JSON).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  url: string;
  requests(path: string): number;
  /** The JSON bodies received on `path` (bodies that are not JSON are left out). */
  bodies(path: string): unknown[];
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const counts = new Map<string, number>();
  const bodies = new Map<string, unknown[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      counts.set(path, (counts.get(path) ?? 0) + 1);
      try {
        bodies.set(path, [...(bodies.get(path) ?? []), JSON.parse(Buffer.concat(chunks).toString('utf8'))]);
      } catch {
        // Not JSON (a protobuf exporter): counted only.
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: (path) => counts.get(path) ?? 0,
    bodies: (path) => bodies.get(path) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
