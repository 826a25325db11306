/**
 * wasi:cli/stdin, stdout, stderr (0.2.0–0.2.3), per call: stdin reads the bytes given in the
 * options (empty by default); stdout and stderr are captured into buffers capped at
 * `outputLimitBytes`. Bytes past the cap are counted and dropped, so host memory stays bounded
 * however much the guest writes. The buffer starts small and grows geometrically up to the cap.
 */
import type { CapturedOutput } from './types.ts';
import { BytesInputStream, type InputStream, OutputStream } from './io-streams.ts';

const INITIAL_CAPTURE_BYTES = 4096;
const EMPTY = new Uint8Array(0);

export class CaptureOutputStream extends OutputStream {
  private buf: Uint8Array = EMPTY;
  private len = 0;
  private total = 0;
  private readonly cap: number;
  private readonly tap: ((bytes: Uint8Array) => void) | undefined;

  /** `tap` sees every write whole, before the cap applies (it must copy what it keeps). */
  constructor(cap: number, tap?: (bytes: Uint8Array) => void) {
    super();
    this.cap = Math.max(0, Math.floor(cap));
    this.tap = tap;
  }

  protected override writeBytes(bytes: Uint8Array): void {
    if (this.tap !== undefined) this.tap(bytes);
    const n = bytes.byteLength;
    this.total += n;
    const room = this.cap - this.len;
    if (room <= 0 || n === 0) return;
    const take = n < room ? n : room;
    const need = this.len + take;
    if (need > this.buf.byteLength) {
      let size = Math.max(INITIAL_CAPTURE_BYTES, this.buf.byteLength * 2);
      while (size < need) size *= 2;
      const grown = new Uint8Array(Math.min(size, this.cap));
      grown.set(this.buf.subarray(0, this.len));
      this.buf = grown;
    }
    this.buf.set(take === n ? bytes : bytes.subarray(0, take), this.len);
    this.len = need;
  }

  captured(): CapturedOutput {
    return { bytes: this.buf.subarray(0, this.len), totalBytes: this.total, truncated: this.total > this.len };
  }
}

export interface Stdio {
  readonly stdin: { getStdin(): InputStream };
  readonly stdout: { getStdout(): OutputStream };
  readonly stderr: { getStderr(): OutputStream };
  readonly out: CaptureOutputStream;
  readonly err: CaptureOutputStream;
}

export function createStdio(stdinBytes: Uint8Array | undefined, outputLimitBytes: number, onStderr?: (bytes: Uint8Array) => void): Stdio {
  // One object per stream and call. The glue may drop a handle to it; streams have no dispose, so
  // handing out the same object again stays valid.
  const input = new BytesInputStream(stdinBytes ?? EMPTY);
  const out = new CaptureOutputStream(outputLimitBytes);
  const err = new CaptureOutputStream(outputLimitBytes, onStderr);
  return {
    stdin: { getStdin: () => input },
    stdout: { getStdout: () => out },
    stderr: { getStderr: () => err },
    out,
    err,
  };
}
