/** Builds raw wasm binary pieces for tests: custom sections and LEB128 sizes (src/wasm/leb128.ts encodes). */
import { encodeUnsigned } from '../../src/wasm/leb128.ts';

/** The bytes of an unsigned LEB128 integer, as a plain array to spread into a byte list. */
export function leb(value: number): number[] {
  return [...encodeUnsigned(value)];
}

/** A custom section: id 0, size, name length, name, payload. */
export function customSection(name: string, payload: Uint8Array): Uint8Array {
  const nameBytes = new TextEncoder().encode(name);
  const body = [...leb(nameBytes.length), ...nameBytes, ...payload];
  return new Uint8Array([0, ...leb(body.length), ...body]);
}
