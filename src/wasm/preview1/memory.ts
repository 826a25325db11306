/**
 * The guest's linear memory as the preview1 host functions see it: typed reads and writes at guest
 * addresses, every one bounds-checked (a pointer or length outside the memory is `FAULT`, never a
 * clamped view), and views that follow `memory.grow` (a grow detaches the old buffer). Bound to the
 * instance's exported `memory` once it exists; a host function called before that is a host bug.
 */
import { ERRNO } from './errno.ts';

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

export class GuestMemory {
  private memory: WasmMemory | undefined;
  private buffer: ArrayBuffer | undefined;
  private view = new DataView(new ArrayBuffer(0));
  private bytesView = new Uint8Array(0);

  bind(memory: WasmMemory): void {
    this.memory = memory;
  }

  private refresh(): void {
    const memory = this.memory;
    if (memory === undefined) throw new Error('preview1: guest memory used before the instance exported it');
    const buffer = memory.buffer;
    if (buffer !== this.buffer) {
      this.buffer = buffer;
      this.view = new DataView(buffer);
      this.bytesView = new Uint8Array(buffer);
    }
  }

  private check(pointer: number, length: number): void {
    if (pointer < 0 || length < 0 || pointer + length > this.bytesView.byteLength) throw ERRNO.FAULT;
  }

  /** A live view of `length` bytes at `pointer` (valid until the next grow; do not keep it). */
  bytes(pointer: number, length: number): Uint8Array {
    this.refresh();
    const start = pointer >>> 0;
    const size = length >>> 0;
    this.check(start, size);
    return this.bytesView.subarray(start, start + size);
  }

  u8(pointer: number): number {
    this.refresh();
    this.check(pointer >>> 0, 1);
    return this.view.getUint8(pointer >>> 0);
  }

  u16(pointer: number): number {
    this.refresh();
    this.check(pointer >>> 0, 2);
    return this.view.getUint16(pointer >>> 0, true);
  }

  u32(pointer: number): number {
    this.refresh();
    this.check(pointer >>> 0, 4);
    return this.view.getUint32(pointer >>> 0, true);
  }

  u64(pointer: number): bigint {
    this.refresh();
    this.check(pointer >>> 0, 8);
    return this.view.getBigUint64(pointer >>> 0, true);
  }

  setU8(pointer: number, value: number): void {
    this.refresh();
    this.check(pointer >>> 0, 1);
    this.view.setUint8(pointer >>> 0, value);
  }

  setU16(pointer: number, value: number): void {
    this.refresh();
    this.check(pointer >>> 0, 2);
    this.view.setUint16(pointer >>> 0, value, true);
  }

  setU32(pointer: number, value: number): void {
    this.refresh();
    this.check(pointer >>> 0, 4);
    this.view.setUint32(pointer >>> 0, value >>> 0, true);
  }

  setU64(pointer: number, value: bigint): void {
    this.refresh();
    this.check(pointer >>> 0, 8);
    this.view.setBigUint64(pointer >>> 0, BigInt.asUintN(64, value), true);
  }

  /** Zeroes `length` bytes at `pointer` (struct padding, so the guest never sees stale bytes). */
  zero(pointer: number, length: number): void {
    this.bytes(pointer, length).fill(0);
  }

  /** The UTF-8 string of `length` bytes at `pointer`; `ILSEQ` when it is not valid UTF-8. */
  string(pointer: number, length: number): string {
    const bytes = this.bytes(pointer, length);
    try {
      return strictDecoder.decode(bytes);
    } catch {
      throw ERRNO.ILSEQ;
    }
  }

  /**
   * The `iovec`/`ciovec` list at `pointer` (`count` entries of { buf: u32, buf_len: u32 }), as live
   * views; all of them checked before any is used.
   */
  iovecs(pointer: number, count: number): Uint8Array[] {
    const list: Uint8Array[] = [];
    for (let index = 0; index < count >>> 0; index += 1) {
      const entry = (pointer >>> 0) + index * 8;
      list.push(this.bytes(this.u32(entry), this.u32(entry + 4)));
    }
    return list;
  }
}

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
