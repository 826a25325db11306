/**
 * One HTTP exchange in the network thread: check the destination (destination.ts), connect to the
 * checked address with node:http/https (TLS verifies the host name: SNI and certificate use it),
 * send the request, and read the whole response up to the body cap. Redirects are not followed:
 * a 3xx is the guest's answer, as wasi:http specifies. Connect, first-byte and total timeouts end
 * the request with the matching wasi:http error code. A request carrying a policy secret
 * (`decodeContent`) gets its coded response decoded here, within the body cap (content-coding.ts).
 * The address to connect to is checked against the reserved endpoints (the daemon's own API) too.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { CODING_HEADERS, decodeBody, responseCodings } from './content-coding.ts';
import { checkDestination, type CheckedAddress } from './destination.ts';
import { reservedEndpointAt, reservedReason } from './reserved-endpoints.ts';
import type { ExchangeReply, ExchangeRequest, HttpErrorCode } from './protocol.ts';

/** Node error codes → wasi:http error codes. */
export function errorCodeOf(error: NodeJS.ErrnoException): HttpErrorCode {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return { tag: 'connection-refused' };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return { tag: 'connection-terminated' };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return { tag: 'destination-IP-unroutable' };
  if (code === 'ETIMEDOUT') return { tag: 'connection-timeout' };
  if (code.startsWith('ERR_TLS_CERT') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return { tag: 'TLS-certificate-error' };
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS')) return { tag: 'TLS-protocol-error' };
  if (code.startsWith('HPE_')) return { tag: 'HTTP-protocol-error' };
  if (code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_HTTP_TOKEN') return { tag: 'HTTP-request-header-size' };
  return { tag: 'internal-error', val: code || error.message };
}

/** A lookup that answers with the address already checked, whatever name node asks for. */
function fixedLookup(target: CheckedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function outgoingHeaders(request: ExchangeRequest): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of request.headers) {
    const existing = headers[name];
    const text = latin1(value);
    if (existing === undefined) headers[name] = text;
    else headers[name] = Array.isArray(existing) ? [...existing, text] : [existing, text];
  }
  headers.host = request.authority;
  if (request.body.byteLength > 0 || !['GET', 'HEAD', 'OPTIONS', 'DELETE', 'TRACE'].includes(request.method)) headers['content-length'] = String(request.body.byteLength);
  return headers;
}

function incomingHeaders(raw: readonly string[]): Array<[string, Uint8Array]> {
  const fields: Array<[string, Uint8Array]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) fields.push([raw[i]!.toLowerCase(), new Uint8Array(Buffer.from(raw[i + 1]!, 'latin1'))]);
  return fields;
}

/** Runs one exchange; never rejects. `signal` aborts it (the guest's call ended). */
export async function performExchange(request: ExchangeRequest, signal: AbortSignal): Promise<ExchangeReply> {
  const { id } = request;
  const started = Date.now();
  const checked = await checkDestination({ host: request.host, exact: request.exact, pinned: request.pinned, timeoutMs: Math.min(request.connectTimeoutMs, request.totalTimeoutMs) });
  if (!checked.ok) return { id, ok: false, error: checked.error, message: checked.message, ...(checked.address !== undefined ? { address: checked.address } : {}) };
  const { target } = checked;
  const reserved = reservedEndpointAt(request.reserved, target.address, request.port);
  if (reserved !== undefined) return { id, ok: false, error: { tag: 'destination-IP-prohibited' }, message: reservedReason(reserved), address: target.address };
  if (signal.aborted) return { id, ok: false, error: { tag: 'internal-error', val: 'cancelled' }, message: 'cancelled', address: target.address };
  const remainingMs = Math.max(1, request.totalTimeoutMs - (Date.now() - started));

  return new Promise<ExchangeReply>((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    let settled = false;
    /** The response is complete (or cut) and being decoded: later socket errors no longer matter. */
    let decoding = false;
    const finish = (reply: ExchangeReply) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(reply);
    };
    const fail = (error: HttpErrorCode, message: string) => {
      if (decoding) return;
      finish({ id, ok: false, error, message, address: target.address });
      outgoing.destroy();
    };
    const onAbort = () => fail({ tag: 'internal-error', val: 'cancelled' }, 'cancelled: the call ended');
    signal.addEventListener('abort', onAbort, { once: true });

    const options: https.RequestOptions = {
      host: request.host,
      port: request.port,
      method: request.method,
      path: request.path,
      headers: outgoingHeaders(request),
      agent: false,
      lookup: fixedLookup(target),
    };
    if (request.scheme === 'https' && target.address !== request.host) options.servername = request.host;
    const outgoing = (request.scheme === 'https' ? https : http).request(options);

    // timers[0] is the total budget; the connect and first-byte timers after it end with the response head.
    timers.push(setTimeout(() => fail({ tag: 'HTTP-response-timeout' }, `no complete response within ${request.totalTimeoutMs} ms`), remainingMs));
    const connectTimer = setTimeout(() => fail({ tag: 'connection-timeout' }, `no connection within ${request.connectTimeoutMs} ms`), request.connectTimeoutMs);
    timers.push(connectTimer);
    const startFirstByteTimer = () => {
      clearTimeout(connectTimer);
      timers.push(setTimeout(() => fail({ tag: 'connection-read-timeout' }, `no response within ${request.firstByteTimeoutMs} ms of connecting`), request.firstByteTimeoutMs));
    };
    outgoing.once('socket', (socket: Socket) => {
      if (!socket.connecting) startFirstByteTimer();
      else socket.once(request.scheme === 'https' ? 'secureConnect' : 'connect', startFirstByteTimer);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => fail(errorCodeOf(error), error.message));
    outgoing.once('response', (response: http.IncomingMessage) => {
      for (const timer of timers.splice(1)) clearTimeout(timer);
      const chunks: Buffer[] = [];
      let size = 0;
      const codings = request.decodeContent ? responseCodings(response.headers) : [];
      // A coded body may be a little larger than what it decodes to: room for that before the cut.
      const cap = codings.length === 0 ? request.maxResponseBodyBytes : request.maxResponseBodyBytes + Math.ceil(request.maxResponseBodyBytes / 64) + 1024;
      const status = response.statusCode ?? 0;
      const reply = (bodyCapped: boolean) => {
        if (settled || decoding) return;
        const body = new Uint8Array(Buffer.concat(chunks, Math.min(size, cap)));
        if (codings.length === 0) return finish({ id, ok: true, status, headers: incomingHeaders(response.rawHeaders), body, bodyCapped, address: target.address });
        decoding = true;
        void decodeBody(body, codings, request.maxResponseBodyBytes, bodyCapped).then((decoded) => {
          if (!decoded.ok) return finish({ id, ok: false, error: decoded.error, message: decoded.message, address: target.address });
          const headers = incomingHeaders(response.rawHeaders).filter(([name]) => !CODING_HEADERS.has(name));
          finish({ id, ok: true, status, headers, body: decoded.body, bodyCapped: decoded.capped, address: target.address });
        });
      };
      response.on('data', (chunk: Buffer) => {
        if (settled || decoding) return;
        chunks.push(chunk);
        size += chunk.byteLength;
        if (size > cap) {
          reply(true);
          response.destroy();
          outgoing.destroy();
        }
      });
      response.once('end', () => reply(false));
      response.on('aborted', () => fail({ tag: 'HTTP-response-incomplete' }, 'the connection closed before the response ended'));
      response.on('error', (error: NodeJS.ErrnoException) => fail({ tag: 'HTTP-response-incomplete' }, error.message));
    });
    outgoing.end(request.body.byteLength > 0 ? Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength) : undefined);
  });
}
