/**
 * A light walk over the framing of a wasm binary (core module or component): magic, version/layer,
 * then `id, size, payload` sections. It validates the framing only, which is enough to tell the
 * kinds apart and to notice truncated or garbage files before handing bytes to heavier tools.
 */
import { decodeUnsigned } from './leb128.ts';

export type BinaryKind = 'core-module' | 'component';

export interface BinarySection {
  id: number;
  /** Offset of the section id byte. */
  start: number;
  /** Offset of the first payload byte. */
  payloadStart: number;
  /** Offset just past the payload. */
  end: number;
}

export interface BinaryLayout {
  kind: BinaryKind;
  sections: BinarySection[];
}

const MAGIC = [0x00, 0x61, 0x73, 0x6d];
export const HEADER_SIZE = 8;

/** Classifies the 8-byte header; throws an Error with a human reason when it is not wasm. */
export function readBinaryKind(bytes: Uint8Array): BinaryKind {
  if (bytes.length < HEADER_SIZE) throw new Error(`file too short to be wasm (${bytes.length} bytes)`);
  for (let index = 0; index < MAGIC.length; index += 1) {
    if (bytes[index] !== MAGIC[index]) throw new Error('not a wasm binary (bad magic number)');
  }
  const version = (bytes[4] as number) | ((bytes[5] as number) << 8);
  const layer = (bytes[6] as number) | ((bytes[7] as number) << 8);
  if (layer === 0 && version === 1) return 'core-module';
  if (layer === 1) return 'component';
  throw new Error(`unsupported wasm version ${version} layer ${layer}`);
}

/** Walks the section framing; throws an Error naming the offset when a section runs past the end. */
export function readBinaryLayout(bytes: Uint8Array): BinaryLayout {
  const kind = readBinaryKind(bytes);
  const sections: BinarySection[] = [];
  let offset = HEADER_SIZE;
  while (offset < bytes.length) {
    const id = bytes[offset] as number;
    const size = decodeUnsigned(bytes, offset + 1);
    const end = size.next + size.value;
    if (end > bytes.length) {
      throw new Error(`truncated: section ${id} at byte ${offset} needs ${end - bytes.length} more bytes`);
    }
    sections.push({ id, start: offset, payloadStart: size.next, end });
    offset = end;
  }
  return { kind, sections };
}
