/** The one JSON error shape every HTTP endpoint answers with: `{"error": {"code", "message"}}`. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export type HttpErrorCode =
  | 'invalid_json'
  | 'invalid_body'
  | 'invalid_query'
  | 'unknown_tool'
  | 'tool_load_failed'
  | 'tool_loading'
  | 'unrecognized_message'
  | 'too_many_calls'
  | 'payload_too_large'
  | 'unauthorized'
  | 'admin_token_required'
  | 'invalid_token'
  | 'invalid_request'
  | 'insufficient_scope'
  | 'approver_required'
  | 'auth_unavailable'
  | 'forbidden_host'
  | 'forbidden_origin'
  | 'unsupported_media_type'
  | 'not_found'
  | 'shutting_down'
  | 'approval_lost'
  | 'state_unavailable'
  | 'internal_error';

export interface HttpErrorBody {
  error: { code: HttpErrorCode; message: string; details?: Record<string, unknown> };
}

export function httpErrorBody(code: HttpErrorCode, message: string, details?: Record<string, unknown>): HttpErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export function jsonError(c: Context, status: ContentfulStatusCode, code: HttpErrorCode, message: string, details?: Record<string, unknown>): Response {
  return c.json(httpErrorBody(code, message, details), status);
}

/** A typed failure a route throws; the app's error handler turns it into the JSON error shape. */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: HttpErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: ContentfulStatusCode, code: HttpErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}
