/**
 * wasi:http/types (0.2.0–0.2.3): fields, requests, responses and bodies. Bodies live in memory: an
 * outgoing body is buffered (capped once `handle` knows the policy) and sent whole; a response
 * arrives whole, up to the policy's body cap, so every pollable here is ready. A capped response
 * body ends with a stream error whose `http-error-code` is `HTTP-response-body-size`. The policy
 * checks and the I/O are in http-outgoing.ts.
 */
import { IoError, STREAM_CLOSED, type StreamError } from './io-error.ts';
import { READY_POLLABLE, type Pollable } from './io-poll.ts';
import { InputStream, OutputStream } from './io-streams.ts';
import type { HttpErrorCode } from '../net/protocol.ts';

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


export type Method = { tag: string; val?: string };
export type Scheme = { tag: string; val?: string };

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
export class BodyBuffer {
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

export function bodySizeError(size: number): HttpErrorCode {
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
export type ResponseResult = { tag: 'ok'; val: IncomingResponse } | { tag: 'err'; val: HttpErrorCode };

export class FutureIncomingResponse {
  private send: (() => ResponseResult) | undefined;
  private result: ResponseResult | undefined;
  private taken = false;

  /** `send` runs the checked request on the first `get` (by then the guest has written and finished its body). */
  constructor(send?: () => ResponseResult) {
    this.send = send;
  }

  subscribe(): Pollable {
    return READY_POLLABLE;
  }

  get(): { tag: 'ok'; val: ResponseResult } | { tag: 'err'; val: undefined } {
    if (this.taken) return { tag: 'err', val: undefined };
    if (this.result === undefined) {
      const send = this.send;
      this.send = undefined;
      this.result = send === undefined ? { tag: 'err', val: HTTP_REQUEST_DENIED } : send();
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

export const HTTP_REQUEST_DENIED: HttpErrorCode = Object.freeze({ tag: 'HTTP-request-denied' });

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
