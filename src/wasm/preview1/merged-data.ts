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
  parts: Uint8Array[];
  end: number;
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
  const segments: { offset: number; content: Uint8Array }[] = [];
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
    const content = bytes.subarray(reader.offset, reader.offset + length);
    reader.offset += length;
    if (length > 0) segments.push({ offset, content });
    else emptyEnd = Math.max(emptyEnd, offset);
  }
  if (reader.offset !== data.end) throw new Error('the data section has trailing bytes');
  segments.sort((a, b) => a.offset - b.offset);
  const spans: Span[] = [];
  let current: Span | undefined;
  for (const { offset, content } of segments) {
    if (current !== undefined && offset < current.end) return undefined;
    if (current !== undefined && offset - current.end <= MERGE_GAP_BYTES) {
      if (offset > current.end) current.parts.push(new Uint8Array(offset - current.end));
      current.parts.push(content);
      current.end = offset + content.length;
    } else {
      current = { offset, parts: [content], end: offset + content.length };
      spans.push(current);
    }
  }
  if (emptyEnd > (current?.end ?? 0)) spans.push({ offset: emptyEnd, parts: [], end: emptyEnd });
  if (spans.length >= count) return undefined;
  const encoded: Uint8Array[] = [encodeUnsigned(spans.length)];
  for (const span of spans) {
    const content = concatBytes(span.parts);
    encoded.push(Uint8Array.of(0, I32_CONST), encodeSigned32(span.offset | 0), Uint8Array.of(END), encodeUnsigned(content.length), content);
  }
  const payload = concatBytes(encoded);
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  for (const section of layout.sections) {
    if (section === data) parts.push(Uint8Array.of(DATA_SECTION_ID), encodeUnsigned(payload.length), payload);
    else parts.push(bytes.subarray(section.start, section.end));
  }
  return concatBytes(parts);
}
