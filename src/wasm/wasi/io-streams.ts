/**
 * wasi:io/streams (0.2.0–0.2.3): the `input-stream` and `output-stream` resource classes the glue
 * checks with `instanceof`. Concrete streams subclass them (stdio in cli-stdio.ts, files in
 * filesystem-types.ts). All host I/O is synchronous, so every stream is always ready, `flush` is a
 * no-op and the blocking variants equal the non-blocking ones.
 */
import { lastOperationFailed, STREAM_CLOSED } from './io-error.ts';
import { READY_POLLABLE, type Pollable } from './io-poll.ts';

/** Largest chunk a single `read` returns or `check-write` permits. */
export const MAX_CHUNK = 1 << 20;

function chunkLength(len: bigint): number {
  return len > BigInt(MAX_CHUNK) ? MAX_CHUNK : Number(len);
}

export class InputStream {
  /** Reads up to `max` bytes; throws `STREAM_CLOSED` at the end. Subclasses override. */
  protected readChunk(_max: number): Uint8Array {
    throw STREAM_CLOSED;
  }

  read(len: bigint): Uint8Array {
    if (len === 0n) return new Uint8Array(0);
    return this.readChunk(chunkLength(len));
  }

  blockingRead(len: bigint): Uint8Array {
    return this.read(len);
  }

  skip(len: bigint): bigint {
    if (len === 0n) return 0n;
    return BigInt(this.readChunk(chunkLength(len)).byteLength);
  }

  blockingSkip(len: bigint): bigint {
    return this.skip(len);
  }

  subscribe(): Pollable {
    return READY_POLLABLE;
  }
}

/** An input stream over bytes in memory (stdin). */
export class BytesInputStream extends InputStream {
  private readonly data: Uint8Array;
  private pos = 0;

  constructor(data: Uint8Array) {
    super();
    this.data = data;
  }

  protected override readChunk(max: number): Uint8Array {
    const start = this.pos;
    if (start >= this.data.byteLength) throw STREAM_CLOSED;
    const end = Math.min(this.data.byteLength, start + max);
    this.pos = end;
    return this.data.subarray(start, end);
  }
}

export class OutputStream {
  /** Writes all of `bytes`; throws a stream-error on failure. Subclasses override. */
  protected writeBytes(_bytes: Uint8Array): void {
    throw STREAM_CLOSED;
  }

  checkWrite(): bigint {
    return BigInt(MAX_CHUNK);
  }

  write(contents: Uint8Array): void {
    this.writeBytes(contents);
  }

  blockingWriteAndFlush(contents: Uint8Array): void {
    this.writeBytes(contents);
  }

  flush(): void {}

  blockingFlush(): void {}

  subscribe(): Pollable {
    return READY_POLLABLE;
  }

  writeZeroes(len: bigint): void {
    if (len > BigInt(MAX_CHUNK)) throw lastOperationFailed('write-zeroes: longer than check-write permits');
    if (len > 0n) this.writeBytes(new Uint8Array(Number(len)));
  }

  blockingWriteZeroesAndFlush(len: bigint): void {
    this.writeZeroes(len);
  }

  splice(src: InputStream, len: bigint): bigint {
    if (len === 0n) return 0n;
    const bytes = src.read(len);
    this.writeBytes(bytes);
    return BigInt(bytes.byteLength);
  }

  blockingSplice(src: InputStream, len: bigint): bigint {
    return this.splice(src, len);
  }
}

/** Accepts and drops everything (e.g. the body of a denied HTTP request). */
export class DiscardOutputStream extends OutputStream {
  protected override writeBytes(_bytes: Uint8Array): void {}
}

export const ioStreamsImports = Object.freeze({ InputStream, OutputStream });
