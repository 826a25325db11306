/**
 * The output of a background process: a ring buffer keeping the newest `capacity` bytes of its
 * combined stdout and stderr, addressed by absolute byte offsets since the process started (so a
 * reader can say "from offset N" and learn how much was overwritten before it read it).
 *
 * The storage grows by doubling up to `capacity` (a quiet process does not cost a full buffer), and
 * byte `offset` always lives at `offset % capacity`: before the first wrap the storage is shorter than
 * `capacity` but every kept offset is below its length.
 */

export interface OutputSlice {
  /** The bytes read. */
  bytes: Buffer;
  /** Absolute offset of the first byte of `bytes`. */
  offset: number;
  /** Absolute offset just past `bytes`: where the next read continues. */
  nextOffset: number;
  /** Bytes between the requested offset and `offset` that the buffer had already overwritten. */
  droppedBytes: number;
}

export class OutputRing {
  private storage: Buffer = Buffer.alloc(0);
  /** Absolute offset just past the newest byte: every byte ever written. */
  private end = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }

  /** Every byte written so far, kept or not. */
  get totalBytes(): number {
    return this.end;
  }

  /** Absolute offset of the oldest byte still kept. */
  get startOffset(): number {
    return Math.max(0, this.end - this.capacity);
  }

  write(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (chunk.length > this.capacity) {
      // Only the newest `capacity` bytes of it can be kept; the rest counts as written and dropped.
      this.end += chunk.length - this.capacity;
      chunk = chunk.subarray(chunk.length - this.capacity);
    }
    this.ensureStorage(this.end + chunk.length);
    let position = this.end % this.capacity;
    let remaining = chunk;
    while (remaining.length > 0) {
      const room = Math.min(remaining.length, this.storage.length - position);
      this.storage.set(remaining.subarray(0, room), position);
      remaining = remaining.subarray(room);
      position = 0;
    }
    this.end += chunk.length;
  }

  /** Up to `maxBytes` bytes from absolute offset `from` (moved up to the oldest kept byte if older). */
  read(from: number, maxBytes: number): OutputSlice {
    const start = Math.min(Math.max(from, this.startOffset), this.end);
    const droppedBytes = Math.max(0, this.startOffset - from);
    const stop = Math.min(this.end, start + Math.max(0, maxBytes));
    const bytes = Buffer.alloc(stop - start);
    let copied = 0;
    while (copied < bytes.length) {
      const position = (start + copied) % this.capacity;
      const count = Math.min(bytes.length - copied, this.storage.length - position);
      this.storage.copy(bytes, copied, position, position + count);
      copied += count;
    }
    return { bytes, offset: start, nextOffset: stop, droppedBytes };
  }

  private ensureStorage(neededEnd: number): void {
    if (this.storage.length === this.capacity || neededEnd <= this.storage.length) return;
    const grown = Buffer.alloc(Math.min(this.capacity, Math.max(neededEnd, this.storage.length * 2, 4096)));
    // Not wrapped yet: the kept bytes are exactly [0, end) of the old storage.
    this.storage.copy(grown, 0, 0, this.end);
    this.storage = grown;
  }
}

/** How many leading bytes are UTF-8 continuation bytes (a slice that starts inside a character). */
export function leadingContinuationBytes(bytes: Uint8Array): number {
  let count = 0;
  while (count < Math.min(3, bytes.length) && ((bytes[count] as number) & 0xc0) === 0x80) count += 1;
  return count;
}

/** The length of `bytes` without a final UTF-8 character that is not complete yet. */
export function completeUtf8Length(bytes: Uint8Array): number {
  // Look back at most 3 bytes for the lead byte of the last character.
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
