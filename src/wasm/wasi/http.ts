/**
 * wasi:http/types and wasi:http/outgoing-handler (0.2.0–0.2.3): present so components that import
 * them load. Headers, requests and options can be built (pure data), but `outgoing-handler.handle`
 * always fails with `HTTP-request-denied`: real HTTP for `networkAllow` hosts is not implemented.
 */
import { DiscardOutputStream, InputStream, type OutputStream } from './io-streams.ts';
import { READY_POLLABLE, type Pollable } from './io-poll.ts';

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

  clone(): Fields {
    const copy = new Fields();
    copy.list = this.list.slice();
    return copy;
  }
}

type Method = { tag: string; val?: string };
type Scheme = { tag: string; val?: string };

export class OutgoingBody {
  private written = false;

  write(): OutputStream {
    if (this.written) throw undefined;
    this.written = true;
    return new DiscardOutputStream();
  }

  static finish(_body: OutgoingBody, _trailers: Fields | undefined): void {}
}

export class OutgoingRequest {
  private readonly fields: Fields;
  private bodyTaken = false;
  private m: Method = { tag: 'get' };
  private path: string | undefined;
  private s: Scheme | undefined;
  private auth: string | undefined;

  constructor(headers: Fields) {
    headers.immutable = true;
    this.fields = headers;
  }

  body(): OutgoingBody {
    if (this.bodyTaken) throw undefined;
    this.bodyTaken = true;
    return new OutgoingBody();
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

export class IncomingBody {
  stream(): InputStream {
    return new InputStream();
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
  status(): number {
    return 0;
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

export class FutureIncomingResponse {
  subscribe(): Pollable {
    return READY_POLLABLE;
  }
  get(): { tag: 'ok'; val: { tag: 'err'; val: { tag: 'HTTP-request-denied' } } } {
    return { tag: 'ok', val: { tag: 'err', val: { tag: 'HTTP-request-denied' } } };
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
  httpErrorCode: (_error: unknown): undefined => undefined,
});

export const outgoingHandlerImports = Object.freeze({
  handle: (_request: OutgoingRequest, _options: RequestOptions | undefined): never => {
    throw HTTP_REQUEST_DENIED;
  },
});
