/**
 * A local OTLP/HTTP sink for tests and benches that need an endpoint but not a real receiver: it
 * answers every POST with 200 and an empty protobuf body, and counts the requests per path
 * (`/v1/traces`, `/v1/metrics`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  url: string;
  requests(path: string): number;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const counts = new Map<string, number>();
  const server = createServer((request, response) => {
    request.on('data', () => undefined);
    request.on('end', () => {
      const path = request.url ?? '';
      counts.set(path, (counts.get(path) ?? 0) + 1);
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
