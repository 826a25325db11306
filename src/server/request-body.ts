/**
 * Reading a JSON request body with errors that name the problem. The body must be declared
 * `Content-Type: application/json`: other types (a form's `text/plain` a web page can send without a
 * CORS preflight) are refused with 415 before the body is read.
 *
 * The size limit is enforced here rather than by `hono/body-limit`: that middleware touches
 * `c.req.raw.body`, which makes @hono/node-server build a full web `Request` (with its own
 * AbortController and a `Readable.toWeb` stream) for every call. Under the Node adapter the body is
 * read straight from the `IncomingMessage`, counting bytes, so an oversized chunked body stops at the
 * limit; a declared `Content-Length` over the limit is refused before anything is read.
 */
import { Readable } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
import { HttpError } from './http-errors.ts';
import { isJsonContentType } from './security.ts';
import { isPlainObject } from '../json-value.ts';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

declare module 'hono' {
  interface ContextVariableMap {
    /** The largest JSON body `readJsonBody` accepts, set by `jsonBodyLimit`. */
    jsonBodyLimitBytes: number;
  }
}

/** Sets the limit `readJsonBody` enforces for the requests it runs on (no body is touched here). */
export function jsonBodyLimit(limitBytes: number): MiddlewareHandler {
  return async (c, next) => {
    c.set('jsonBodyLimitBytes', limitBytes);
    await next();
  };
}

function payloadTooLarge(limitBytes: number): HttpError {
  return new HttpError(413, 'payload_too_large', `The request body is larger than the limit of ${limitBytes} bytes.`, { limit_bytes: limitBytes });
}

/** UTF-8 with a leading BOM dropped, as `Request.text()` decodes. */
const utf8 = new TextDecoder();

/** Parses the body as JSON; a non-JSON Content-Type is a 415, malformed or empty bodies a 400 `invalid_json`. */
export async function readJsonBody(c: Context): Promise<unknown> {
  const limitBytes = c.get('jsonBodyLimitBytes') ?? DEFAULT_BODY_LIMIT_BYTES;
  const declaredLength = c.req.header('content-length');
  if (declaredLength !== undefined && c.req.header('transfer-encoding') === undefined && Number.parseInt(declaredLength, 10) > limitBytes) {
    throw payloadTooLarge(limitBytes);
  }
  const contentType = c.req.header('content-type');
  if (!isJsonContentType(contentType)) {
    throw new HttpError(415, 'unsupported_media_type', `The request body must be sent with "Content-Type: application/json" (received ${contentType === undefined ? 'none' : `"${contentType}"`}).`);
  }
  const text = utf8.decode(await readBodyBytes(c, limitBytes));
  if (text.trim() === '') {
    throw new HttpError(400, 'invalid_json', 'The request body is empty; send a JSON object (Content-Type: application/json).');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The Node request under @hono/node-server (`c.env.incoming`); undefined under `app.request()` or another adapter. */
function nodeIncoming(c: Context): Readable | undefined {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined;
  const incoming = (env as { incoming: unknown }).incoming;
  return incoming instanceof Readable ? incoming : undefined;
}

async function readBodyBytes(c: Context, limitBytes: number): Promise<Uint8Array> {
  const incoming = nodeIncoming(c);
  if (incoming !== undefined && !incoming.readableDidRead) return readIncoming(incoming, limitBytes);
  return readWebBody(c.req.raw.body, limitBytes);
}

/** Reads a Node request to its end; past `limitBytes` it stops listening and pauses (the adapter drains or closes it after the answer). */
function readIncoming(incoming: Readable, limitBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limitBytes) {
        cleanup();
        incoming.pause();
        reject(payloadTooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onClose = (): void => {
      cleanup();
      reject(new Error('Client connection prematurely closed.'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

/** The same limit for a web `Request` body (`app.request()`, other adapters). */
async function readWebBody(body: ReadableStream<Uint8Array> | null, limitBytes: number): Promise<Uint8Array> {
  if (body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** Parses the body as a JSON object; any other JSON value becomes a 400 `invalid_body`. */
export async function readJsonObjectBody(c: Context): Promise<Record<string, unknown>> {
  const value = await readJsonBody(c);
  if (!isPlainObject(value)) {
    throw new HttpError(400, 'invalid_body', `The request body must be a JSON object, received ${describeJsonType(value)}.`);
  }
  return value;
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
