/**
 * Messages between a thread running guests (which blocks on `Atomics.wait`) and its network thread
 * (which does the real I/O). All plain data, so they cross `postMessage` by structured clone.
 */
import type { NetScheme } from './allow-list.ts';

/** A wasi:http `error-code` as jco's glue reads it: `{ tag: 'connection-refused' }`, `{ tag: 'internal-error', val: 'why' }`. */
export interface HttpErrorCode {
  tag: string;
  val?: unknown;
}

export interface ExchangeRequest {
  id: number;
  scheme: NetScheme;
  /** Normalized host name or IP literal (no brackets). */
  host: string;
  port: number;
  /** The `Host` header (the guest's authority). */
  authority: string;
  method: string;
  /** Path with query, starting with `/`. */
  path: string;
  /** Header fields as bytes (hop-by-hop ones removed, policy headers added). */
  headers: Array<[string, Uint8Array]>;
  body: Uint8Array;
  /** The allow entry names this host or IP exactly: special addresses are allowed. */
  exact: boolean;
  /** Pinned addresses (policy `resolve`): used instead of DNS. */
  pinned: string[] | undefined;
  connectTimeoutMs: number;
  firstByteTimeoutMs: number;
  totalTimeoutMs: number;
  maxResponseBodyBytes: number;
}

export interface ExchangeResponse {
  id: number;
  ok: true;
  status: number;
  headers: Array<[string, Uint8Array]>;
  body: Uint8Array;
  /** The body went past `maxResponseBodyBytes`: `body` holds the first that many bytes. */
  bodyCapped: boolean;
  /** The address connected to. */
  address: string;
}

export interface ExchangeFailure {
  id: number;
  ok: false;
  error: HttpErrorCode;
  /** Human-readable cause, for events (never holds header values). */
  message: string;
  /** The address refused or connected to, when known. */
  address?: string;
}

export type ExchangeReply = ExchangeResponse | ExchangeFailure;

/** Sent by the guest's thread when the call's deadline passed: stop that request. */
export interface ExchangeCancel {
  cancel: number;
}
