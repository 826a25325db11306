/** random_get: fills the guest's buffer from node:crypto, in place (no host copy, so no host allocation to cap). */
import { randomFillSync } from 'node:crypto';
import { hostFunction, type ImportFunctions, type Preview1State } from './state.ts';

/** randomFillSync takes at most 2^31-1 bytes at once; fill in chunks well below it. */
const CHUNK_BYTES = 1 << 24;

export function randomImports(state: Preview1State): ImportFunctions {
  return {
    random_get: hostFunction((pointer: number, length: number) => {
      const target = state.memory.bytes(pointer, length);
      for (let offset = 0; offset < target.byteLength; offset += CHUNK_BYTES) {
        randomFillSync(target.subarray(offset, Math.min(target.byteLength, offset + CHUNK_BYTES)));
      }
    }),
  };
}
