/**
 * Messages between a thread running guests (which blocks on `Atomics.wait`) and its network thread
 * (which does the real I/O). All plain data, so they cross `postMessage` by structured clone.
 */
import type { NetScheme } from './allow-list.ts';
import type { ReservedEndpoint } from './reserved-endpoints.ts';

/** A wasi:http `error-code` as jco's glue reads it: `{ tag: 'connection-refused' }`, `{ tag: 'internal-error', val: 'why' }`. */
export interface HttpErrorCode {
  tag: string;
  val?: unknown;
}

export interface ExchangeRequest {
  op: 'http';
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
  /**
   * The request carries a policy secret: a content- or transfer-coded response is decoded before it
   * is returned (content-coding.ts), so that redaction sees the bytes the guest reads.
   */
  decodeContent: boolean;
  /** Listeners never connected to (the daemon's own API), checked on the resolved address. */
  reserved: ReservedEndpoint[];
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

/** Name lookup for wasi:sockets/ip-name-lookup (pinned names never reach it). */
export interface LookupRequest {
  op: 'lookup';
  id: number;
  name: string;
  timeoutMs: number;
}

export type LookupReply = { id: number; ok: true; addresses: string[] } | { id: number; ok: false; error: string };

/** wasi:sockets TCP, relayed by the network thread: `conn` names a connection it holds. */
export type TcpRequest =
  | { op: 'tcp-connect'; id: number; address: string; port: number; timeoutMs: number }
  | { op: 'tcp-read'; id: number; conn: number; max: number }
  | { op: 'tcp-write'; id: number; conn: number; bytes: Uint8Array }
  | { op: 'tcp-shutdown'; id: number; conn: number; how: 'receive' | 'send' | 'both' }
  | { op: 'tcp-close'; id: number; conn: number };

/** `bytes` null: the peer closed its side (end of stream). `error` is a wasi:sockets error-code. */
export type TcpReply =
  | { id: number; ok: true; conn?: number; localAddress?: string; localPort?: number; bytes?: Uint8Array | null }
  | { id: number; ok: false; error: string };

/** wasi:sockets UDP, relayed the same way. */
export type UdpRequest =
  | { op: 'udp-open'; id: number; family: 4 | 6 }
  | { op: 'udp-send'; id: number; conn: number; address: string; port: number; bytes: Uint8Array }
  | { op: 'udp-receive'; id: number; conn: number; max: number }
  | { op: 'udp-close'; id: number; conn: number };

export type UdpReply =
  | { id: number; ok: true; conn?: number; localAddress?: string; localPort?: number; datagrams?: Array<{ address: string; port: number; data: Uint8Array }> }
  | { id: number; ok: false; error: string };

export type NetRequest = ExchangeRequest | LookupRequest | TcpRequest | UdpRequest;
