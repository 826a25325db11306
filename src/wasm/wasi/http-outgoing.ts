/**
 * wasi:http/outgoing-handler (0.2.0–0.2.3) for one call. Outgoing requests reach exactly the
 * destinations the policy's `network.allow` admits (src/wasm/net/allow-list.ts): every request is
 * checked, redirects are the guest's to handle (the host never follows one), bodies are capped, and
 * the policy's connect, first-byte and total timeouts apply (a guest's own request-options may only
 * shorten them). The I/O runs in a network thread while this (synchronous) guest thread blocks
 * (src/wasm/net/sync-client.ts), never past the call's deadline. A refused or failed request is a
 * wasi:http `error-code` the guest sees, and one record in the call's network events. Headers the
 * policy adds (secrets) are merged at dispatch into a list the guest never sees, and their secret
 * values are redacted from the response should the server echo them. So that the redaction's byte
 * search sees the bytes the guest will read, a request carrying a secret asks for
 * `Accept-Encoding: identity` and no byte range (the guest's `Accept-Encoding`, `Range` and `If-Range`
 * are dropped; `TE` always is), and the network thread decodes a reply that is content-coded anyway
 * before it gets here (exchange.ts). Methods are upper-cased once, before every check and the wire:
 * `trace` is TRACE, which is never sent with a secret.
 */
import type { CallContext } from './call-context.ts';
import { bodySizeError, FutureIncomingResponse, HTTP_REQUEST_DENIED, IncomingBody, IncomingResponse, type BodyBuffer, type Method, type OutgoingRequest, type RequestOptions, type ResponseResult, type Scheme } from './http.ts';
import { WasiTimeout } from './types.ts';
import { specialAddressClass } from '../net/address-class.ts';
import { defaultPort, matchAllowList, normalizeHost, parseAllowList, type AllowEntry, type NetScheme } from '../net/allow-list.ts';
import type { InjectedHeader, NetworkCallOptions } from '../net/call-options.ts';
import { recordNetworkEvent, type NetworkEvent, type NetworkEventLog } from '../net/events.ts';
import type { ExchangeReply, HttpErrorCode } from '../net/protocol.ts';
import { redactSecretBytes } from '../net/redact-bytes.ts';
import { netClient } from '../net/sync-client.ts';

/** Per-call state of the outgoing handler. */
interface HandlerState {
  readonly ctx: CallContext;
  readonly options: NetworkCallOptions;
  readonly entries: readonly AllowEntry[];
  readonly log: NetworkEventLog;
}

/** A checked request, sent on the future's first `get`. */
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
  /** Secret values of the headers the host added: redacted from the response the guest reads. */
  readonly secretValues: readonly string[];
}

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

/**
 * The method as it goes on the wire: upper-cased, as node:http sends it, so every check sees the
 * method the server will (`trace` and `Trace` are TRACE).
 */
function methodName(method: Method): string {
  return (method.tag === 'other' ? (method.val ?? '') : method.tag).toUpperCase();
}

/**
 * Guest header fields dropped from a request that carries a policy secret: a compressed or partial
 * echo of the request would carry the secret past the redaction's byte search (the host asks for
 * `identity` itself). Method-override fields are refused like TRACE (see `overridesToTrace`).
 */
const SECRET_REQUEST_DROPPED_HEADERS = new Set(['accept-encoding', 'range', 'if-range']);
const METHOD_OVERRIDE_HEADERS = new Set(['x-http-method-override', 'x-http-method', 'x-method-override']);

const decoder = new TextDecoder();

/** True when a method-override field asks a server to treat the request as TRACE. */
function overridesToTrace(headers: ReadonlyArray<[string, Uint8Array]>): boolean {
  return headers.some(([name, value]) => METHOD_OVERRIDE_HEADERS.has(name) && decoder.decode(value).trim().toUpperCase() === 'TRACE');
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
  const secretValues = injected.flatMap((header) => header.secretValues);
  if (scheme === 'http' && injected.some((header) => header.secret) && !isLoopbackHost(host)) {
    deny(state, event, HTTP_REQUEST_DENIED, 'policy headers with secrets are sent over https only');
  }
  const carriesSecret = secretValues.length > 0;
  const guestHeaders = request.headers().entries();
  // TRACE makes a server echo the request headers: never with a secret the host added.
  if (carriesSecret && (method === 'TRACE' || overridesToTrace(guestHeaders))) deny(state, event, HTTP_REQUEST_DENIED, 'TRACE with policy secret headers');
  const injectedNames = new Set(injected.map((header) => header.name));
  const headers: Array<[string, Uint8Array]> = guestHeaders.filter(
    ([name]) => !HOST_MANAGED_HEADERS.has(name) && !injectedNames.has(name) && !(carriesSecret && SECRET_REQUEST_DROPPED_HEADERS.has(name)),
  );
  for (const header of injected) headers.push([header.name, encoder.encode(header.value ?? '')]);
  if (carriesSecret && !injectedNames.has('accept-encoding')) headers.push(['accept-encoding', encoder.encode('identity')]);
  const body = request.bodyBuffer();
  if (body !== undefined) {
    body.cap = state.options.maxRequestBodyBytes;
    if (body.size > body.cap) deny(state, event, bodySizeError(body.size), 'request body too large');
  }
  const pending: PendingExchange = {
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
    secretValues,
  };
  return new FutureIncomingResponse(() => dispatch(pending));
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
      decodeContent: pending.secretValues.length > 0,
      reserved: options.reserved,
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
  const secrets = pending.secretValues;
  const responseBody = redactSecretBytes(reply.body, secrets, reply.bodyCapped);
  const responseHeaders = secrets.length === 0 ? reply.headers : reply.headers.map(([name, value]): [string, Uint8Array] => [name, redactSecretBytes(value, secrets)]);
  const incoming = new IncomingBody(responseBody, reply.bodyCapped ? options.maxResponseBodyBytes : undefined);
  return { tag: 'ok', val: new IncomingResponse(reply.status, responseHeaders, incoming) };
}

/** `wasi:http/outgoing-handler` for one call: requests go to `options.allow` hosts only; events go to `log`. */
export function createOutgoingHandler(ctx: CallContext, options: NetworkCallOptions, log: NetworkEventLog): { handle: (request: OutgoingRequest, requestOptions: RequestOptions | undefined) => FutureIncomingResponse } {
  const state: HandlerState = { ctx, options, entries: parseAllowList(options.allow), log };
  return { handle: (request, requestOptions) => handle(state, request, requestOptions) };
}
