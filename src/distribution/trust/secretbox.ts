/**
 * NaCl `secretbox_open` (XSalsa20-Poly1305), the cipher of cosign's encrypted private keys.
 *
 * Contract: `secretboxOpen(box, nonce, key)` takes `tag(16) || ciphertext` as Go's
 * `golang.org/x/crypto/nacl/secretbox.Seal` writes it, a 24-byte nonce and a 32-byte key, and returns
 * the plaintext, or `undefined` when the tag does not authenticate (wrong password, altered file).
 * Only opening is needed: toolhost never writes encrypted keys (cosign's `generate-key-pair` does).
 *
 * Why hand-written: Node's crypto has no XSalsa20 and no package in the tree provides it; the inputs
 * are a key file of a few hundred bytes, so BigInt Poly1305 is fast enough. Checked against keys
 * written by the real cosign CLI (test/distribution/trust-keys.test.ts).
 */
import { timingSafeEqual } from 'node:crypto';

const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574] as const;

const rotl = (value: number, shift: number): number => ((value << shift) | (value >>> (32 - shift))) >>> 0;

function quarter(x: Uint32Array, a: number, b: number, c: number, d: number): void {
  x[b] = (x[b]! ^ rotl((x[a]! + x[d]!) >>> 0, 7)) >>> 0;
  x[c] = (x[c]! ^ rotl((x[b]! + x[a]!) >>> 0, 9)) >>> 0;
  x[d] = (x[d]! ^ rotl((x[c]! + x[b]!) >>> 0, 13)) >>> 0;
  x[a] = (x[a]! ^ rotl((x[d]! + x[c]!) >>> 0, 18)) >>> 0;
}

function rounds(x: Uint32Array): void {
  for (let i = 0; i < 10; i += 1) {
    quarter(x, 0, 4, 8, 12);
    quarter(x, 5, 9, 13, 1);
    quarter(x, 10, 14, 2, 6);
    quarter(x, 15, 3, 7, 11);
    quarter(x, 0, 1, 2, 3);
    quarter(x, 5, 6, 7, 4);
    quarter(x, 10, 11, 8, 9);
    quarter(x, 15, 12, 13, 14);
  }
}

const word = (bytes: Uint8Array, offset: number): number =>
  (bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16) | (bytes[offset + 3]! << 24)) >>> 0;

/** The initial state: key (32 bytes), 16 bytes of nonce-and-counter. */
function state(key: Uint8Array, input16: Uint8Array): Uint32Array {
  const x = new Uint32Array(16);
  x[0] = SIGMA[0];
  x[5] = SIGMA[1];
  x[10] = SIGMA[2];
  x[15] = SIGMA[3];
  for (let i = 0; i < 4; i += 1) {
    x[1 + i] = word(key, 4 * i);
    x[11 + i] = word(key, 16 + 4 * i);
    x[6 + i] = word(input16, 4 * i);
  }
  return x;
}

function hsalsa20(key: Uint8Array, nonce16: Uint8Array): Uint8Array {
  const x = state(key, nonce16);
  rounds(x);
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  [0, 5, 10, 15, 6, 7, 8, 9].forEach((index, i) => view.setUint32(4 * i, x[index]!, true));
  return out;
}

/** `length` bytes of the Salsa20 stream for `key` and an 8-byte nonce, from block 0. */
function salsa20Stream(key: Uint8Array, nonce8: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  const input = new Uint8Array(16);
  input.set(nonce8, 0);
  const inputView = new DataView(input.buffer);
  for (let block = 0; block * 64 < length; block += 1) {
    inputView.setUint32(8, block >>> 0, true);
    inputView.setUint32(12, Math.floor(block / 2 ** 32), true);
    const initial = state(key, input);
    const x = Uint32Array.from(initial);
    rounds(x);
    const bytes = new Uint8Array(64);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < 16; i += 1) view.setUint32(4 * i, (x[i]! + initial[i]!) >>> 0, true);
    out.set(bytes.subarray(0, Math.min(64, length - block * 64)), block * 64);
  }
  return out;
}

const littleEndian = (bytes: Uint8Array): bigint => {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i -= 1) value = (value << 8n) | BigInt(bytes[i]!);
  return value;
};

function poly1305(message: Uint8Array, key: Uint8Array): Uint8Array {
  const p = (1n << 130n) - 5n;
  const r = littleEndian(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const s = littleEndian(key.subarray(16, 32));
  let accumulator = 0n;
  for (let offset = 0; offset < message.length; offset += 16) {
    const chunk = message.subarray(offset, Math.min(offset + 16, message.length));
    accumulator = ((accumulator + littleEndian(chunk) + (1n << BigInt(8 * chunk.length))) * r) % p;
  }
  let tag = (accumulator + s) & ((1n << 128n) - 1n);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i += 1) {
    out[i] = Number(tag & 0xffn);
    tag >>= 8n;
  }
  return out;
}

/** Opens a NaCl secretbox; `undefined` when it does not authenticate. */
export function secretboxOpen(box: Uint8Array, nonce: Uint8Array, key: Uint8Array): Uint8Array | undefined {
  if (nonce.length !== 24 || key.length !== 32 || box.length < 16) return undefined;
  const subkey = hsalsa20(key, nonce.subarray(0, 16));
  const ciphertext = box.subarray(16);
  const stream = salsa20Stream(subkey, nonce.subarray(16, 24), 32 + ciphertext.length);
  const expected = poly1305(ciphertext, stream.subarray(0, 32));
  if (!timingSafeEqual(expected, box.subarray(0, 16))) return undefined;
  const plaintext = new Uint8Array(ciphertext.length);
  for (let i = 0; i < ciphertext.length; i += 1) plaintext[i] = ciphertext[i]! ^ stream[32 + i]!;
  return plaintext;
}
