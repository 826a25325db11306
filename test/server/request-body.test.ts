/**
 * readJsonBody's own size limit, on both paths it reads: straight from the Node request under
 * @hono/node-server (real HTTP on loopback) and from a web Request (`app.request()`).
 */
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, jsonError } from '../../src/server/http-errors.ts';
import { jsonBodyLimit, readJsonBody } from '../../src/server/request-body.ts';

const LIMIT = 1000;

function echoApp(): Hono {
  const app = new Hono();
  app.onError((error, c) => (error instanceof HttpError ? jsonError(c, error.status, error.code, error.message, error.details) : c.text(String(error), 500)));
  app.use('*', jsonBodyLimit(LIMIT));
  app.post('/echo', async (c) => c.json({ received: await readJsonBody(c) }));
  return app;
}

/** A body sent without Content-Length (chunked), in pieces of `chunkBytes`. */
function chunkedBody(totalBytes: number, chunkBytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) {
        controller.close();
        return;
      }
      const size = Math.min(chunkBytes, totalBytes - sent);
      sent += size;
      controller.enqueue(new TextEncoder().encode(' '.repeat(size)));
    },
  });
}

type Send = (init: RequestInit & { duplex?: 'half' }) => Promise<Response>;

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createAdaptorServer({ fetch: echoApp().fetch, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const paths: [string, () => Send][] = [
  ['the Node request (real HTTP)', () => (init) => fetch(`${baseUrl}/echo`, { method: 'POST', ...init })],
  ['a web Request (app.request)', () => {
    const app = echoApp();
    return async (init) => app.request('/echo', { method: 'POST', ...init });
  }],
];

describe.each(paths)('readJsonBody from %s', (_name, makeSend) => {
  const json = { 'content-type': 'application/json' };

  it('parses a body at the limit', async () => {
    const value = { text: 'x'.repeat(LIMIT - 20) };
    const body = JSON.stringify(value).padEnd(LIMIT, ' ');
    expect(new TextEncoder().encode(body).length).toBe(LIMIT);
    const response = await makeSend()({ headers: json, body });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: value });
  });

  it('answers 413 with the limit for a declared Content-Length over it', async () => {
    const response = await makeSend()({ headers: json, body: JSON.stringify({ text: 'x'.repeat(LIMIT) }) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: 'payload_too_large', message: `The request body is larger than the limit of ${LIMIT} bytes.`, details: { limit_bytes: LIMIT } },
    });
  });

  it('answers 413 for a chunked body that grows past the limit', async () => {
    const response = await makeSend()({ headers: json, body: chunkedBody(LIMIT * 8, 300), duplex: 'half' });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('reads a chunked body within the limit', async () => {
    const encoder = new TextEncoder();
    const pieces = ['{"a":', '[1,2,', '3]}'];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece = pieces.shift();
        if (piece === undefined) controller.close();
        else controller.enqueue(encoder.encode(piece));
      },
    });
    const response = await makeSend()({ headers: json, body, duplex: 'half' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: { a: [1, 2, 3] } });
  });

  it('drops a leading byte-order mark, as Request.text() does', async () => {
    const response = await makeSend()({ headers: json, body: '\uFEFF{"ok":true}' });
    expect(await response.json()).toEqual({ received: { ok: true } });
  });

  it('keeps 415 for a non-JSON type and 400 for empty or malformed bodies', async () => {
    const send = makeSend();
    expect((await send({ headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
    const empty = await send({ headers: json, body: '' });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
    const malformed = await send({ headers: json, body: '{"a":' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });
});

describe('after an oversized body on a keep-alive connection', () => {
  it('the server still answers the next request', async () => {
    const over = await fetch(`${baseUrl}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chunkedBody(LIMIT * 50, 1000), duplex: 'half' } as RequestInit);
    expect(over.status).toBe(413);
    await over.arrayBuffer();
    const next = await fetch(`${baseUrl}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1]' });
    expect(await next.json()).toEqual({ received: [1] });
  });
});
