/**
 * Reading a JSON request body with errors that name the problem. The body must be declared
 * `Content-Type: application/json`: other types (a form's `text/plain` a web page can send without a
 * CORS preflight) are refused with 415 before the body is read.
 */
import type { Context } from 'hono';
import { HttpError } from './http-errors.ts';
import { isJsonContentType } from './security.ts';

/** Parses the body as JSON; a non-JSON Content-Type is a 415, malformed or empty bodies a 400 `invalid_json`. */
export async function readJsonBody(c: Context): Promise<unknown> {
  const contentType = c.req.header('content-type');
  if (!isJsonContentType(contentType)) {
    throw new HttpError(415, 'unsupported_media_type', `The request body must be sent with "Content-Type: application/json" (received ${contentType === undefined ? 'none' : `"${contentType}"`}).`);
  }
  const text = await c.req.text();
  if (text.trim() === '') {
    throw new HttpError(400, 'invalid_json', 'The request body is empty; send a JSON object (Content-Type: application/json).');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Parses the body as a JSON object; any other JSON value becomes a 400 `invalid_body`. */
export async function readJsonObjectBody(c: Context): Promise<Record<string, unknown>> {
  const value = await readJsonBody(c);
  if (!isPlainObject(value)) {
    throw new HttpError(400, 'invalid_body', `The request body must be a JSON object, received ${describeJsonType(value)}.`);
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
