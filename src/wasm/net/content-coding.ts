/**
 * Decoding a response's content and transfer codings (gzip, deflate, br) in the network thread,
 * for requests that carry a policy secret: the redaction of echoed secrets (redact-bytes.ts) is a
 * byte search, which a compressed echo would pass, the guest then inflating the secret back. Such
 * requests ask for `Accept-Encoding: identity`, so a coded reply is a server ignoring that; it is
 * decoded here with node:zlib, its output held to the response body cap (past it the body is cut
 * and marked capped, as an uncoded body is), and the coding fields are dropped from the headers the
 * guest sees. A coding node:zlib cannot decode, or bytes that do not decode, fail the exchange with
 * wasi:http `HTTP-response-content-coding`: the guest gets no bytes rather than undecoded ones.
 */
import { Readable } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, type BrotliDecompress, type Gunzip, type Inflate } from 'node:zlib';
import type { HttpErrorCode } from './protocol.ts';

type Decoder = Gunzip | Inflate | BrotliDecompress;

/** The decoder of one coding token; undefined for one node:zlib does not decode. */
function decoderFor(coding: string): Decoder | undefined {
  // A cut-short body (at the cap) still yields what it holds instead of an error.
  const flush = { finishFlush: constants.Z_SYNC_FLUSH };
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip(flush);
    case 'deflate':
      return createInflate(flush);
    case 'br':
      return createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
}

function tokens(value: string | string[] | undefined): string[] {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '' && token !== 'identity');
}

/**
 * The codings applied to a response body, in the order they were applied: its `Content-Encoding`,
 * then the `Transfer-Encoding` codings other than `chunked` (which node:http already removed).
 */
export function responseCodings(headers: { 'content-encoding'?: string | string[] | undefined; 'transfer-encoding'?: string | string[] | undefined }): string[] {
  return [...tokens(headers['content-encoding']), ...tokens(headers['transfer-encoding']).filter((token) => token !== 'chunked')];
}

export type DecodeResult = { ok: true; body: Uint8Array; capped: boolean } | { ok: false; error: HttpErrorCode; message: string };

/** Header fields that describe the coded body, dropped once it is decoded. */
export const CODING_HEADERS: ReadonlySet<string> = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

/**
 * `body` with `codings` undone (last applied, first undone); at most `cap` bytes are kept, and
 * `capped` says there were more, or that `body` itself was cut (`bodyCut`).
 */
export async function decodeBody(body: Uint8Array, codings: readonly string[], cap: number, bodyCut: boolean): Promise<DecodeResult> {
  // No body (HEAD, 204, 304): nothing to decode, whatever the header says.
  if (body.byteLength === 0) return { ok: true, body, capped: bodyCut };
  const decoders: Decoder[] = [];
  for (const coding of [...codings].reverse()) {
    const decoder = decoderFor(coding);
    if (decoder === undefined) {
      for (const made of decoders) made.destroy();
      return { ok: false, error: { tag: 'HTTP-response-content-coding', val: coding }, message: `the response is ${coding}-coded, which the host does not decode (it asked for identity)` };
    }
    decoders.push(decoder);
  }
  return new Promise<DecodeResult>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: DecodeResult) => {
      if (settled) return;
      settled = true;
      source.destroy();
      for (const decoder of decoders) decoder.destroy();
      resolve(result);
    };
    const source = Readable.from([Buffer.from(body.buffer, body.byteOffset, body.byteLength)]);
    let stream: Readable = source;
    for (const decoder of decoders) {
      decoder.on('error', (error: Error) => finish({ ok: false, error: { tag: 'HTTP-response-content-coding', val: undefined }, message: `the response body does not decode: ${error.message}` }));
      stream = stream.pipe(decoder);
    }
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size > cap) finish({ ok: true, body: new Uint8Array(Buffer.concat(chunks, cap)), capped: true });
    });
    stream.on('end', () => finish({ ok: true, body: new Uint8Array(Buffer.concat(chunks, size)), capped: bodyCut }));
  });
}
