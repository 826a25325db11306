/**
 * wasi:http/types and wasi:http/outgoing-handler (0.2.0–0.2.3). Outgoing requests reach exactly the
 * destinations the policy's `network.allow` admits (src/wasm/net/allow-list.ts); every request is
 * checked, redirects are the guest's to handle (the host never follows one), bodies are capped, and
 * the policy's connect, first-byte and total timeouts apply. The I/O runs in a network thread while
 * this (synchronous) guest thread blocks (src/wasm/net/sync-client.ts); the response arrives whole,
 * up to the body cap, so every pollable here is ready. A refused or failed request is a wasi:http
 * `error-code` the guest sees, and one record in the call's network events. Headers the policy adds
 * (secrets) are merged at dispatch and never stored where the guest could read them.
 */
import type { CallContext } from './call-context.ts';
import { IoError, STREAM_CLOSED, type StreamError } from './io-error.ts';
import { READY_POLLABLE, type Pollable } from './io-poll.ts';
import { InputStream, OutputStream } from './io-streams.ts';
import { WasiTimeout } from './types.ts';
import { specialAddressClass } from '../net/address-class.ts';
import { defaultPort, matchAllowList, normalizeHost, parseAllowList, type AllowEntry, type NetScheme } from '../net/allow-list.ts';
import type { InjectedHeader, NetworkCallOptions } from '../net/call-options.ts';
import { recordNetworkEvent, type NetworkEvent, type NetworkEventLog } from '../net/events.ts';
import type { ExchangeReply, HttpErrorCode } from '../net/protocol.ts';
import { netClient } from '../net/sync-client.ts';

type FieldEntry = [string, Uint8Array];

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function invalidSyntax(): never {
  throw { tag: 'invalid-syntax' };
}

function checkName(name: string): string {
  if (!TOKEN.test(name)) invalidSyntax();
  return name.toLowerCase();
}

function checkValue(value: Uint8Array): Uint8Array {
  for (const byte of value) if (byte === 0 || byte === 10 || byte === 13) invalidSyntax();
  return value;
}

export class Fields {
  private list: FieldEntry[] = [];
  immutable = false;

  static fromList(entries: Array<[string, Uint8Array]>): Fields {
    const fields = new Fields();
    for (const [name, value] of entries) fields.list.push([checkName(name), checkValue(value)]);
    return fields;
  }

  private mutate(): void {
    if (this.immutable) throw { tag: 'immutable' };
  }

  get(name: string): Uint8Array[] {
    const key = name.toLowerCase();
    return this.list.filter(([k]) => k === key).map(([, v]) => v);
  }

  has(name: string): boolean {
    const key = name.toLowerCase();
    return this.list.some(([k]) => k === key);
  }

  set(name: string, values: Uint8Array[]): void {
    this.mutate();
    const key = checkName(name);
    values.forEach(checkValue);
    this.list = this.list.filter(([k]) => k !== key).concat(values.map((v): FieldEntry => [key, v]));
  }

  delete(name: string): void {
    this.mutate();
    const key = checkName(name);
    this.list = this.list.filter(([k]) => k !== key);
  }

  append(name: string, value: Uint8Array): void {
    this.mutate();
    this.list.push([checkName(name), checkValue(value)]);
  }

  entries(): Array<[string, Uint8Array]> {
    return this.list.slice();
  }

  /** Immutable fields from a list the host built (response headers): no syntax checks. */
  static trusted(entries: Array<[string, Uint8Array]>): Fields {
    const fields = new Fields();
    fields.list = entries;
    fields.immutable = true;
    return fields;
  }

  clone(): Fields {
    const copy = new Fields();
    copy.list = this.list.slice();
    return copy;
  }
}


type Method = { tag: string; val?: string };
type Scheme = { tag: string; val?: string };

/** A stream error whose `error` resource carries a wasi:http error code (read by `http-error-code`). */
export class HttpIoError extends IoError {
  readonly httpCode: HttpErrorCode;
  constructor(message: string, httpCode: HttpErrorCode) {
    super(message);
    this.httpCode = httpCode;
  }
}

function httpStreamError(message: string, code: HttpErrorCode): StreamError {
  return { tag: 'last-operation-failed', val: new HttpIoError(message, code) };
}

/** Bytes a body may buffer before `handle` set the policy's cap (the policy schema's maximum). */
const UNBOUNDED_BODY_BYTES = 1024 * 1024 * 1024;

/** The bytes written to an outgoing body, capped. */
class BodyBuffer {
  private readonly chunks: Uint8Array[] = [];
  size = 0;
  cap = UNBOUNDED_BODY_BYTES;
  overflowed = false;
  finished = false;

  append(bytes: Uint8Array): void {
    if (this.finished) throw STREAM_CLOSED;
    if (this.size + bytes.byteLength > this.cap) {
      this.overflowed = true;
      throw httpStreamError(`request body larger than ${this.cap} bytes`, bodySizeError(this.size + bytes.byteLength));
    }
    this.chunks.push(bytes.slice());
    this.size += bytes.byteLength;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  }
}

function bodySizeError(size: number): HttpErrorCode {
  return { tag: 'HTTP-request-body-size', val: BigInt(size) };
}

class BodySink extends OutputStream {
  private readonly buffer: BodyBuffer;
  constructor(buffer: BodyBuffer) {
    super();
    this.buffer = buffer;
  }
  protected override writeBytes(bytes: Uint8Array): void {
    this.buffer.append(bytes);
  }
}

export class OutgoingBody {
  private written = false;
  /** What the guest wrote (a response body's bytes are kept too, and unused). */
  readonly buffer = new BodyBuffer();

  write(): OutputStream {
    if (this.written) throw undefined;
    this.written = true;
    return new BodySink(this.buffer);
  }

  static finish(body: OutgoingBody, _trailers: Fields | undefined): void {
    if (body.buffer.overflowed) throw bodySizeError(body.buffer.size);
    body.buffer.finished = true;
  }
}

export class OutgoingRequest {
  private readonly fields: Fields;
  private outgoingBody: OutgoingBody | undefined;
  private m: Method = { tag: 'get' };
  private path: string | undefined;
  private s: Scheme | undefined;
  private auth: string | undefined;

  constructor(headers: Fields) {
    headers.immutable = true;
    this.fields = headers;
  }

  body(): OutgoingBody {
    if (this.outgoingBody !== undefined) throw undefined;
    this.outgoingBody = new OutgoingBody();
    return this.outgoingBody;
  }
  /** The body's buffer, when the guest took the body (host side). */
  bodyBuffer(): BodyBuffer | undefined {
    return this.outgoingBody?.buffer;
  }
  method(): Method {
    return this.m;
  }
  setMethod(method: Method): void {
    if (method.tag === 'other' && !TOKEN.test(method.val ?? '')) throw undefined;
    this.m = method;
  }
  pathWithQuery(): string | undefined {
    return this.path;
  }
  setPathWithQuery(path: string | undefined): void {
    if (path !== undefined && /[\s\0]/.test(path)) throw undefined;
    this.path = path;
  }
  scheme(): Scheme | undefined {
    return this.s;
  }
  setScheme(scheme: Scheme | undefined): void {
    this.s = scheme;
  }
  authority(): string | undefined {
    return this.auth;
  }
  setAuthority(authority: string | undefined): void {
    if (authority !== undefined && /[\s\0/?#@]/.test(authority)) throw undefined;
    this.auth = authority;
  }
  headers(): Fields {
    return this.fields;
  }
}

export class RequestOptions {
  private connect: bigint | undefined;
  private firstByte: bigint | undefined;
  private betweenBytes: bigint | undefined;

  connectTimeout(): bigint | undefined {
    return this.connect;
  }
  setConnectTimeout(duration: bigint | undefined): void {
    this.connect = duration;
  }
  firstByteTimeout(): bigint | undefined {
    return this.firstByte;
  }
  setFirstByteTimeout(duration: bigint | undefined): void {
    this.firstByte = duration;
  }
  betweenBytesTimeout(): bigint | undefined {
    return this.betweenBytes;
  }
  setBetweenBytesTimeout(duration: bigint | undefined): void {
    this.betweenBytes = duration;
  }
}

/** A response body in memory; past the end of a capped body the guest gets `HTTP-response-body-size`. */
class ResponseBodyStream extends InputStream {
  private readonly data: Uint8Array;
  private readonly cappedAt: number | undefined;
  private pos = 0;
  private failed = false;

  constructor(data: Uint8Array, cappedAt: number | undefined) {
    super();
    this.data = data;
    this.cappedAt = cappedAt;
  }

  protected override readChunk(max: number): Uint8Array {
    const start = this.pos;
    if (start >= this.data.byteLength) {
      if (this.cappedAt !== undefined && !this.failed) {
        this.failed = true;
        throw httpStreamError(`response body larger than ${this.cappedAt} bytes`, { tag: 'HTTP-response-body-size', val: BigInt(this.cappedAt) });
      }
      throw STREAM_CLOSED;
    }
    const end = Math.min(this.data.byteLength, start + max);
    this.pos = end;
    return this.data.subarray(start, end);
  }
}

export class IncomingBody {
  private readonly data: Uint8Array;
  private readonly cappedAt: number | undefined;
  private streamed = false;

  constructor(data: Uint8Array = new Uint8Array(), cappedAt?: number) {
    this.data = data;
    this.cappedAt = cappedAt;
  }
  stream(): InputStream {
    if (this.streamed) throw undefined;
    this.streamed = true;
    return new ResponseBodyStream(this.data, this.cappedAt);
  }
  static finish(_body: IncomingBody): FutureTrailers {
    return new FutureTrailers();
  }
}

export class FutureTrailers {
  subscribe(): Pollable {
    return READY_POLLABLE;
  }
  get(): { tag: 'ok'; val: { tag: 'ok'; val: undefined } } {
    return { tag: 'ok', val: { tag: 'ok', val: undefined } };
  }
}

export class IncomingResponse {
  private readonly code: number;
  private readonly fields: Fields;
  private body: IncomingBody | undefined;

  constructor(status = 0, headers: Array<[string, Uint8Array]> = [], body: IncomingBody = new IncomingBody()) {
    this.code = status;
    this.fields = Fields.trusted(headers);
    this.body = body;
  }
  status(): number {
    return this.code;
  }
  headers(): Fields {
    return this.fields;
  }
  consume(): IncomingBody {
    const body = this.body;
    if (body === undefined) throw undefined;
    this.body = undefined;
    return body;
  }
}

/** Per-call state of the outgoing handler. */
interface HandlerState {
  readonly ctx: CallContext;
  readonly options: NetworkCallOptions;
  readonly entries: readonly AllowEntry[];
  readonly log: NetworkEventLog;
}

/** A checked request, sent on the first `get` (by then the guest has written and finished its body). */
interface PendingExchange {
  readonly state: HandlerState;
  readonly event: Omit<NetworkEvent, 'decision' | 'durationMs'> & { method: string; scheme: NetScheme };
  readonly exact: boolean;
  readonly authority: string;
  readonly path: string;
  readonly headers: Array<[string, Uint8Array]>;
  readonly body: BodyBuffer | undefined;
  readonly connectTimeoutMs: number;
  readonly firstByteTimeoutMs: number;
  readonly startedMs: number;
}

type ResponseResult = { tag: 'ok'; val: IncomingResponse } | { tag: 'err'; val: HttpErrorCode };

export class FutureIncomingResponse {
  private pending: PendingExchange | undefined;
  private result: ResponseResult | undefined;
  private taken = false;

  constructor(pending?: PendingExchange) {
    this.pending = pending;
  }

  subscribe(): Pollable {
    return READY_POLLABLE;
  }

  get(): { tag: 'ok'; val: ResponseResult } | { tag: 'err'; val: undefined } {
    if (this.taken) return { tag: 'err', val: undefined };
    if (this.result === undefined) {
      const pending = this.pending;
      this.pending = undefined;
      this.result = pending === undefined ? { tag: 'err', val: { tag: 'HTTP-request-denied' } } : dispatch(pending);
    }
    this.taken = true;
    return { tag: 'ok', val: this.result };
  }
}
export class IncomingRequest {
  method(): Method {
    return { tag: 'get' };
  }
  pathWithQuery(): string | undefined {
    return undefined;
  }
  scheme(): Scheme | undefined {
    return undefined;
  }
  authority(): string | undefined {
    return undefined;
  }
  headers(): Fields {
    const fields = new Fields();
    fields.immutable = true;
    return fields;
  }
  consume(): IncomingBody {
    return new IncomingBody();
  }
}

export class OutgoingResponse {
  private readonly fields: Fields;
  private code = 200;
  private bodyTaken = false;

  constructor(headers: Fields) {
    headers.immutable = true;
    this.fields = headers;
  }
  statusCode(): number {
    return this.code;
  }
  setStatusCode(code: number): void {
    if (code < 100 || code > 999) throw undefined;
    this.code = code;
  }
  headers(): Fields {
    return this.fields;
  }
  body(): OutgoingBody {
    if (this.bodyTaken) throw undefined;
    this.bodyTaken = true;
    return new OutgoingBody();
  }
}

export class ResponseOutparam {
  static set(_param: ResponseOutparam, _response: unknown): void {}
}


export const HTTP_REQUEST_DENIED = Object.freeze({ tag: 'HTTP-request-denied' });

/** Header fields the host sets itself, or that only mean something hop by hop: dropped from guest requests. */
const HOST_MANAGED_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'http2-settings',
]);

function methodName(method: Method): string {
  return method.tag === 'other' ? (method.val ?? '') : method.tag.toUpperCase();
}

function schemeOf(scheme: Scheme | undefined): NetScheme | undefined {
  if (scheme === undefined || scheme.tag === 'HTTPS') return 'https';
  if (scheme.tag === 'HTTP') return 'http';
  return undefined;
}

function nsToMs(duration: bigint | undefined): number | undefined {
  return duration === undefined ? undefined : Math.max(1, Number(duration / 1_000_000n));
}

function minDefined(limit: number, asked: number | undefined): number {
  return asked === undefined ? limit : Math.min(limit, asked);
}

/** Plain HTTP cannot leak a secret off the machine to these: loopback literals and `localhost`. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || specialAddressClass(host) === 'loopback';
}

function headersFor(options: NetworkCallOptions, host: string, port: number): InjectedHeader[] {
  return options.headers.filter((header) => header.host === host && (header.port === undefined || header.port === port));
}

const encoder = new TextEncoder();

function deny(state: HandlerState, event: Omit<NetworkEvent, 'decision' | 'durationMs'>, error: HttpErrorCode, reason: string): never {
  recordNetworkEvent(state.log, { ...event, decision: 'denied', reason, errorCode: error.tag, durationMs: 0 });
  throw error;
}

/** `outgoing-handler.handle`: checks the request against the allow list now; it is sent on the first `get`. */
function handle(state: HandlerState, request: OutgoingRequest, requestOptions: RequestOptions | undefined): FutureIncomingResponse {
  const method = methodName(request.method());
  const scheme = schemeOf(request.scheme());
  const authority = request.authority() ?? '';
  const base = { kind: 'http' as const, method, scheme: scheme ?? request.scheme()?.val ?? '', host: authority, port: 0 };
  if (scheme === undefined) deny(state, base, { tag: 'HTTP-request-URI-invalid' }, 'unsupported scheme');
  let url: URL;
  try {
    url = new URL(`${scheme}://${authority}/`);
    if (authority === '' || url.username !== '' || url.password !== '') throw new TypeError('bad authority');
  } catch {
    return deny(state, base, { tag: 'HTTP-request-URI-invalid' }, 'invalid authority');
  }
  const host = normalizeHost(url.hostname);
  const port = url.port === '' ? defaultPort(scheme) : Number(url.port);
  const event = { ...base, host: host ?? url.hostname, port };
  if (host === undefined) deny(state, event, { tag: 'HTTP-request-URI-invalid' }, 'invalid host');
  const path = request.pathWithQuery() ?? '/';
  if (!path.startsWith('/')) deny(state, event, { tag: 'HTTP-request-URI-invalid' }, 'path must start with /');
  const entry = matchAllowList(state.entries, { scheme, host, port });
  if (entry === undefined) deny(state, event, HTTP_REQUEST_DENIED, 'not in network.allow');
  const injected = headersFor(state.options, host, port);
  const missing = injected.flatMap((header) => header.missingSecrets);
  if (missing.length > 0) deny(state, event, HTTP_REQUEST_DENIED, `secret not configured: ${[...new Set(missing)].join(', ')}`);
  if (scheme === 'http' && injected.some((header) => header.secret) && !isLoopbackHost(host)) {
    deny(state, event, HTTP_REQUEST_DENIED, 'policy headers with secrets are sent over https only');
  }
  const injectedNames = new Set(injected.map((header) => header.name));
  const headers: Array<[string, Uint8Array]> = request
    .headers()
    .entries()
    .filter(([name]) => !HOST_MANAGED_HEADERS.has(name) && !injectedNames.has(name));
  for (const header of injected) headers.push([header.name, encoder.encode(header.value ?? '')]);
  const body = request.bodyBuffer();
  if (body !== undefined) {
    body.cap = state.options.maxRequestBodyBytes;
    if (body.size > body.cap) deny(state, event, bodySizeError(body.size), 'request body too large');
  }
  return new FutureIncomingResponse({
    state,
    event: { ...event, scheme, host },
    exact: !entry.wildcard,
    authority,
    path,
    headers,
    body,
    connectTimeoutMs: minDefined(state.options.connectTimeoutMs, nsToMs(requestOptions?.connectTimeout())),
    firstByteTimeoutMs: minDefined(state.options.firstByteTimeoutMs, nsToMs(requestOptions?.firstByteTimeout())),
    startedMs: performance.now(),
  });
}

/** Grace past the total timeout before the guest thread stops waiting for a network thread that never answered. */
const REPLY_GRACE_MS = 2_000;

/** Sends a checked request and blocks until its response, its failure, or the call's deadline. */
function dispatch(pending: PendingExchange): ResponseResult {
  const { state, event } = pending;
  const { ctx, options } = state;
  const finish = (decision: NetworkEvent['decision'], extra: Partial<NetworkEvent>) =>
    recordNetworkEvent(state.log, { ...event, decision, ...extra, durationMs: Math.round(performance.now() - pending.startedMs) });
  const body = pending.body;
  if (body?.overflowed || (body !== undefined && body.size > options.maxRequestBodyBytes)) {
    const error = bodySizeError(body.size);
    finish('denied', { reason: 'request body too large', errorCode: error.tag });
    return { tag: 'err', val: error };
  }
  const scheme = event.scheme;
  const replyDeadline = process.hrtime.bigint() + BigInt(options.requestTimeoutMs + REPLY_GRACE_MS) * 1_000_000n;
  const deadlineNs = ctx.deadlineNs !== undefined && ctx.deadlineNs < replyDeadline ? ctx.deadlineNs : replyDeadline;
  const reply: ExchangeReply | 'deadline' = netClient().exchange(
    {
      scheme,
      host: event.host,
      port: event.port,
      authority: pending.authority,
      method: event.method,
      path: pending.path,
      headers: pending.headers,
      body: body?.bytes() ?? new Uint8Array(),
      exact: pending.exact,
      pinned: options.resolve[event.host],
      connectTimeoutMs: pending.connectTimeoutMs,
      firstByteTimeoutMs: pending.firstByteTimeoutMs,
      totalTimeoutMs: options.requestTimeoutMs,
      maxResponseBodyBytes: options.maxResponseBodyBytes,
    },
    deadlineNs,
  );
  if (reply === 'deadline') {
    finish('allowed', { errorCode: 'call-timeout', reason: 'the call ran out of time' });
    if (ctx.deadlineNs !== undefined && process.hrtime.bigint() >= ctx.deadlineNs) throw new WasiTimeout();
    return { tag: 'err', val: { tag: 'HTTP-response-timeout' } };
  }
  if (!reply.ok) {
    const prohibited = reply.error.tag === 'destination-IP-prohibited';
    finish(prohibited ? 'denied' : 'allowed', {
      errorCode: reply.error.tag,
      reason: reply.message,
      ...(reply.address !== undefined ? { address: reply.address } : {}),
    });
    return { tag: 'err', val: reply.error };
  }
  finish('allowed', { status: reply.status, address: reply.address, responseBytes: reply.body.byteLength });
  const incoming = new IncomingBody(reply.body, reply.bodyCapped ? options.maxResponseBodyBytes : undefined);
  return { tag: 'ok', val: new IncomingResponse(reply.status, reply.headers, incoming) };
}

export const httpTypesImports = Object.freeze({
  Fields,
  FutureIncomingResponse,
  FutureTrailers,
  IncomingBody,
  IncomingRequest,
  IncomingResponse,
  OutgoingBody,
  OutgoingRequest,
  OutgoingResponse,
  RequestOptions,
  ResponseOutparam,
  httpErrorCode: (error: IoError): HttpErrorCode | undefined => (error instanceof HttpIoError ? error.httpCode : undefined),
});

/** `wasi:http/outgoing-handler` for one call: requests go to `options.allow` hosts only; events go to `log`. */
export function createOutgoingHandler(ctx: CallContext, options: NetworkCallOptions, log: NetworkEventLog): { handle: (request: OutgoingRequest, requestOptions: RequestOptions | undefined) => FutureIncomingResponse } {
  const state: HandlerState = { ctx, options, entries: parseAllowList(options.allow), log };
  return { handle: (request, requestOptions) => handle(state, request, requestOptions) };
}
