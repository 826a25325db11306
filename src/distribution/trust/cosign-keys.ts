/**
 * cosign key files: public keys (`cosign.pub`, a PEM `PUBLIC KEY`) and private keys, either cosign's
 * encrypted format (`ENCRYPTED SIGSTORE PRIVATE KEY` / `ENCRYPTED COSIGN PRIVATE KEY`: scrypt + NaCl
 * secretbox over PKCS#8, as `cosign generate-key-pair` writes them) or a plain PKCS#8 / SEC1 PEM.
 *
 * Contract: `readPublicKey(path)` and `readPrivateKey(path, password)` return Node `KeyObject`s or
 * throw `TrustError('bad_key')` naming the file and what is wrong (never the password).
 * `keyFingerprint(key)` is `sha256:<hex>` of the public key's SPKI DER: how a key is named in
 * messages, the lockfile and `inspect`. Signing and verifying follow cosign: ECDSA/RSA over SHA-256
 * of the payload (DER signatures), Ed25519 over the payload itself.
 */
import { createHash, createPrivateKey, createPublicKey, scryptSync, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { secretboxOpen } from './secretbox.ts';
import { TrustError } from './trust-error.ts';

/** Larger files are not key files. */
const MAX_KEY_FILE_BYTES = 64 * 1024;
/** scrypt cost caps: cosign writes N=32768, r=8, p=1. */
const MAX_SCRYPT_N = 1 << 20;
const MAX_SCRYPT_R = 32;
const MAX_SCRYPT_P = 16;

function readKeyFile(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new TrustError('bad_key', `Cannot read key file ${path}: ${(error as Error).message}`);
  }
  if (bytes.length > MAX_KEY_FILE_BYTES) throw new TrustError('bad_key', `Key file ${path} is ${bytes.length} bytes; a key file is at most ${MAX_KEY_FILE_BYTES}.`);
  return bytes.toString('utf8');
}

/** The PEM blocks of a text: label and base64-decoded body. */
function pemBlocks(text: string): Array<{ label: string; body: Buffer }> {
  const blocks: Array<{ label: string; body: Buffer }> = [];
  const pattern = /-----BEGIN ([A-Z0-9 ]{1,64})-----\r?\n([A-Za-z0-9+/=\r\n]{0,65536}?)-----END \1-----/g;
  for (const match of text.matchAll(pattern)) blocks.push({ label: match[1]!, body: Buffer.from(match[2]!.replace(/\s/g, ''), 'base64') });
  return blocks;
}

/** A public key from a PEM file (`cosign.pub`). */
export function readPublicKey(path: string): KeyObject {
  return parsePublicKey(readKeyFile(path), path);
}

/** A public key from PEM text; `source` names it in errors. */
export function parsePublicKey(pem: string, source: string): KeyObject {
  try {
    const key = createPublicKey({ key: pem, format: 'pem' });
    assertSupported(key, source);
    return key;
  } catch (error) {
    if (error instanceof TrustError) throw error;
    throw new TrustError('bad_key', `${source} is not a PEM public key (expected "-----BEGIN PUBLIC KEY-----" as cosign writes cosign.pub): ${(error as Error).message}`);
  }
}

function assertSupported(key: KeyObject, source: string): void {
  const type = key.asymmetricKeyType;
  if (type === 'ec' || type === 'rsa' || type === 'ed25519') return;
  throw new TrustError('bad_key', `${source} holds a ${type ?? 'unknown'} key; cosign keys are ECDSA, RSA or Ed25519.`);
}

interface EncryptedKeyJson {
  kdf: { name: string; params: { N: number; r: number; p: number }; salt: string };
  cipher: { name: string; nonce: string };
  ciphertext: string;
}

function isEncryptedKeyJson(value: unknown): value is EncryptedKeyJson {
  const v = value as EncryptedKeyJson | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.kdf?.name === 'string' &&
    typeof v.kdf.salt === 'string' &&
    typeof v.kdf.params === 'object' &&
    [v.kdf.params.N, v.kdf.params.r, v.kdf.params.p].every((n) => Number.isSafeInteger(n) && n > 0) &&
    typeof v.cipher?.name === 'string' &&
    typeof v.cipher.nonce === 'string' &&
    typeof v.ciphertext === 'string'
  );
}

/**
 * A private key from a cosign key file (encrypted with `password`, as cosign's COSIGN_PASSWORD) or a
 * plain PEM private key (the password is then ignored).
 */
export function readPrivateKey(path: string, password: string | undefined): KeyObject {
  const text = readKeyFile(path);
  const encrypted = pemBlocks(text).find((block) => block.label === 'ENCRYPTED SIGSTORE PRIVATE KEY' || block.label === 'ENCRYPTED COSIGN PRIVATE KEY');
  if (encrypted === undefined) {
    try {
      const key = createPrivateKey({ key: text, format: 'pem' });
      assertSupported(key, path);
      return key;
    } catch (error) {
      if (error instanceof TrustError) throw error;
      throw new TrustError('bad_key', `${path} is neither a cosign private key ("ENCRYPTED SIGSTORE PRIVATE KEY") nor a PEM private key: ${(error as Error).message}`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(encrypted.body.toString('utf8'));
  } catch {
    json = undefined;
  }
  if (!isEncryptedKeyJson(json)) throw new TrustError('bad_key', `${path}: the encrypted cosign key is malformed.`);
  if (json.kdf.name !== 'scrypt' || json.cipher.name !== 'nacl/secretbox') {
    throw new TrustError('bad_key', `${path}: unsupported key encryption ${json.kdf.name} + ${json.cipher.name} (expected scrypt + nacl/secretbox).`);
  }
  const { N, r, p } = json.kdf.params;
  if (N > MAX_SCRYPT_N || (N & (N - 1)) !== 0 || r > MAX_SCRYPT_R || p > MAX_SCRYPT_P) {
    throw new TrustError('bad_key', `${path}: scrypt parameters N=${N} r=${r} p=${p} are out of range.`);
  }
  const secret = scryptSync(Buffer.from(password ?? '', 'utf8'), Buffer.from(json.kdf.salt, 'base64'), 32, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 });
  const plaintext = secretboxOpen(Buffer.from(json.ciphertext, 'base64'), Buffer.from(json.cipher.nonce, 'base64'), secret);
  if (plaintext === undefined) {
    throw new TrustError('bad_key', `${path}: wrong password for the encrypted cosign key (set COSIGN_PASSWORD, as for cosign).`);
  }
  try {
    const key = createPrivateKey({ key: Buffer.from(plaintext), format: 'der', type: 'pkcs8' });
    assertSupported(key, path);
    return key;
  } catch (error) {
    if (error instanceof TrustError) throw error;
    throw new TrustError('bad_key', `${path}: the decrypted key is not PKCS#8: ${(error as Error).message}`);
  }
}

/** `sha256:<hex>` of the SPKI DER of a (public or private) key's public half. */
export function keyFingerprint(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return `sha256:${createHash('sha256').update(publicKey.export({ format: 'der', type: 'spki' })).digest('hex')}`;
}

const digestAlgorithm = (key: KeyObject): string | null => (key.asymmetricKeyType === 'ed25519' ? null : 'sha256');

/** A cosign signature over `payload` (DER for ECDSA). */
export function signPayload(key: KeyObject, payload: Uint8Array): Buffer {
  return sign(digestAlgorithm(key), payload, key);
}

/** Whether `signature` is `key`'s signature over `payload`; malformed signatures are just `false`. */
export function verifyPayload(key: KeyObject, payload: Uint8Array, signature: Uint8Array): boolean {
  try {
    return verify(digestAlgorithm(key), payload, key, signature);
  } catch {
    return false;
  }
}
