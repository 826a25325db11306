/**
 * `mergeDataSegments`: rewrites a core module's active data segments into as few as give the same
 * memory, so instantiating it copies a handful of spans instead of tens of thousands (standard Go
 * emits ~36,000 segments for a 3 MB binary, and V8 pays per segment on every instantiation: about
 * 5 ms a call). When no two segments overlap (so their order does not matter), they are taken by
 * address, and each that starts at most MERGE_GAP_BYTES after the previous one's end joins it, the
 * gap written as zeros — what a new memory holds there anyway — so the memory after instantiation is
 * byte for byte the same, and a segment out of bounds still fails the instantiation.
 *
 * Left alone (`undefined`): a module with a data count section (its code may name segments by index:
 * `memory.init`, `data.drop`), a passive segment, a segment of another memory or with an offset that
 * is not an `i32.const`, overlapping segments, or nothing to merge. Linear in the size
 * of the data section; malformed input throws an Error.
 */
import { readBinaryLayout } from '../binary-sections.ts';
import { concatBytes } from '../bytes.ts';
import { ByteReader } from '../core-module.ts';
import { encodeUnsigned } from '../leb128.ts';

const DATA_SECTION_ID = 11;
const DATA_COUNT_SECTION_ID = 12;
const I32_CONST = 0x41;
const END = 0x0b;
/** Zeros up to this long between two segments are written rather than starting a new segment. */
export const MERGE_GAP_BYTES = 4096;

interface Span {
  offset: number;
  end: number;
  /** Indices of the segments it holds, by address. */
  segments: number[];
}

function readSigned32(reader: ByteReader): number {
  let result = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = reader.byte();
    result |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte & 0x80 && shift < 35);
  if (byte & 0x80) throw new Error('i32.const immediate is too long');
  if (shift < 32 && byte & 0x40) result |= -1 << shift;
  return result | 0;
}

function encodeSigned32(value: number): Uint8Array {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return Uint8Array.from(out);
  }
}

export function mergeDataSegments(bytes: Uint8Array): Uint8Array | undefined {
  const layout = readBinaryLayout(bytes);
  if (layout.kind !== 'core-module') throw new Error('not a core module');
  if (layout.sections.some((section) => section.id === DATA_COUNT_SECTION_ID)) return undefined;
  const data = layout.sections.find((section) => section.id === DATA_SECTION_ID);
  if (data === undefined) return undefined;
  const reader = new ByteReader(bytes, data.payloadStart, data.end);
  const count = reader.unsigned();
  // Numbers only (no view per segment): a large Go binary has hundreds of thousands of segments.
  const offsets: number[] = [];
  const starts: number[] = [];
  const lengths: number[] = [];
  // An empty segment copies nothing but still fails the instantiation when it starts past the memory's end.
  let emptyEnd = 0;
  for (let index = 0; index < count; index += 1) {
    const flags = reader.unsigned();
    if (flags === 2 && reader.unsigned() !== 0) return undefined;
    if (flags !== 0 && flags !== 2) return undefined;
    if (reader.byte() !== I32_CONST) return undefined;
    const offset = readSigned32(reader) >>> 0;
    if (reader.byte() !== END) return undefined;
    const length = reader.unsigned();
    if (reader.offset + length > data.end) throw new Error(`data segment ${index} runs past its section`);
    if (length > 0) {
      offsets.push(offset);
      starts.push(reader.offset);
      lengths.push(length);
    } else {
      emptyEnd = Math.max(emptyEnd, offset);
    }
    reader.offset += length;
  }
  if (reader.offset !== data.end) throw new Error('the data section has trailing bytes');
  const order = offsets.map((_, index) => index);
  let sorted = true;
  for (let index = 1; index < offsets.length && sorted; index += 1) sorted = (offsets[index - 1] as number) <= (offsets[index] as number);
  if (!sorted) order.sort((a, b) => (offsets[a] as number) - (offsets[b] as number));
  // Spans: [first, last) runs of `order`, each from its first segment's offset to its last one's end.
  const spans: Span[] = [];
  let current: Span | undefined;
  for (const index of order) {
    const offset = offsets[index] as number;
    const end = offset + (lengths[index] as number);
    if (current !== undefined && offset < current.end) return undefined;
    if (current !== undefined && offset - current.end <= MERGE_GAP_BYTES) {
      current.segments.push(index);
      current.end = end;
    } else {
      current = { offset, end, segments: [index] };
      spans.push(current);
    }
  }
  if (emptyEnd > (current?.end ?? 0)) spans.push({ offset: emptyEnd, end: emptyEnd, segments: [] });
  if (spans.length >= count) return undefined;
  const heads = spans.map((span) => concatBytes([Uint8Array.of(0, I32_CONST), encodeSigned32(span.offset | 0), Uint8Array.of(END), encodeUnsigned(span.end - span.offset)]));
  const payloadLength = encodeUnsigned(spans.length).length + spans.reduce((sum, span, index) => sum + (heads[index] as Uint8Array).length + span.end - span.offset, 0);
  const sectionHead = concatBytes([Uint8Array.of(DATA_SECTION_ID), encodeUnsigned(payloadLength), encodeUnsigned(spans.length)]);
  const outLength = bytes.length - (data.end - data.start) + sectionHead.length + payloadLength - encodeUnsigned(spans.length).length;
  // One output buffer, zero-filled: the gaps between merged segments stay zeros.
  const out = new Uint8Array(outLength);
  // Buffer#copy copies a range without making a view of it (one per segment would be ~1 µs each).
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let position = 0;
  const copy = (from: number, to: number) => {
    out.set(bytes.subarray(from, to), position);
    position += to - from;
  };
  copy(0, data.start);
  out.set(sectionHead, position);
  position += sectionHead.length;
  spans.forEach((span, spanIndex) => {
    const head = heads[spanIndex] as Uint8Array;
    out.set(head, position);
    position += head.length;
    const base = position - span.offset;
    for (const index of span.segments) {
      const start = starts[index] as number;
      source.copy(out, base + (offsets[index] as number), start, start + (lengths[index] as number));
    }
    position += span.end - span.offset;
  });
  copy(data.end, bytes.length);
  if (position !== outLength) throw new Error('merged data section length mismatch');
  return out;
}
