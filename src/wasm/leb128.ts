/**
 * Unsigned LEB128, the variable-length integer encoding of the wasm binary format.
 * Values are limited to 32 bits, which is all the section framing and limits need.
 */

export interface DecodedUnsigned {
  value: number;
  /** Offset just past the encoded integer. */
  next: number;
}

/** Decodes an unsigned LEB128 u32 at `offset`; throws a RangeError on truncation or overflow. */
export function decodeUnsigned(bytes: Uint8Array, offset: number): DecodedUnsigned {
  let value = 0;
  let shift = 0;
  let position = offset;
  for (;;) {
    if (position >= bytes.length) throw new RangeError(`truncated LEB128 integer at byte ${offset}`);
    const byte = bytes[position] as number;
    position += 1;
    if (shift === 28 && (byte & 0x70) !== 0) throw new RangeError(`LEB128 integer at byte ${offset} exceeds 32 bits`);
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return { value, next: position };
    shift += 7;
    if (shift > 28) throw new RangeError(`LEB128 integer at byte ${offset} exceeds 32 bits`);
  }
}

/** Encodes an unsigned integer (0 .. 2^32-1) in the shortest LEB128 form. */
export function encodeUnsigned(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new RangeError(`cannot encode ${value} as an unsigned 32-bit LEB128 integer`);
  }
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return Uint8Array.from(out);
}
