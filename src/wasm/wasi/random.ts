/**
 * wasi:random/random, insecure and insecure-seed (0.2.0–0.2.3), all backed by node:crypto.
 * A single request is capped (a larger one traps) so a guest cannot make the host allocate
 * without bound.
 */
import { randomBytes, randomFillSync } from 'node:crypto';

export const MAX_RANDOM_BYTES = 1 << 26;

function getRandomBytes(len: bigint): Uint8Array {
  if (len > BigInt(MAX_RANDOM_BYTES)) throw new RangeError(`wasi:random: ${len} bytes requested, at most ${MAX_RANDOM_BYTES} allowed`);
  const out = new Uint8Array(Number(len));
  if (out.byteLength > 0) randomFillSync(out);
  return out;
}

const u64Buf = new BigUint64Array(1);
function getRandomU64(): bigint {
  randomFillSync(u64Buf);
  return u64Buf[0]!;
}

const seedBytes = randomBytes(16);
const seed: [bigint, bigint] = [seedBytes.readBigUInt64LE(0), seedBytes.readBigUInt64LE(8)];

export const randomImports = Object.freeze({ getRandomBytes, getRandomU64 });
export const insecureImports = Object.freeze({ getInsecureRandomBytes: getRandomBytes, getInsecureRandomU64: getRandomU64 });
export const insecureSeedImports = Object.freeze({ insecureSeed: (): [bigint, bigint] => seed });
