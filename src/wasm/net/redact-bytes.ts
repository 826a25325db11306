/**
 * Keeps the secrets of policy headers out of what a guest reads back: a server that echoes request
 * headers (an echo endpoint, TRACE) would otherwise hand the guest the value the host added for it.
 * Every occurrence of a secret value in a response's header values and body becomes `[REDACTED]`,
 * and a body cut at the size cap loses a trailing partial secret too. Encoded forms (base64 of a
 * Basic credential, say) are out of reach of a byte search, as for `redactSecrets`.
 */
const MARKER = Buffer.from('[REDACTED]');

function replaceAll(data: Buffer, secret: Buffer): Buffer {
  let at = data.indexOf(secret);
  if (at < 0) return data;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(data.subarray(from, at), MARKER);
    from = at + secret.byteLength;
    at = data.indexOf(secret, from);
  }
  parts.push(data.subarray(from));
  return Buffer.concat(parts);
}

/** `bytes` with each secret replaced; `cutAtEnd`: the bytes were cut short, so a trailing secret prefix goes too. */
export function redactSecretBytes(bytes: Uint8Array, secrets: readonly string[], cutAtEnd = false): Uint8Array {
  if (secrets.length === 0) return bytes;
  const ordered = secrets.filter((secret) => secret.length > 0).map((secret) => Buffer.from(secret)).sort((a, b) => b.byteLength - a.byteLength);
  let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const secret of ordered) data = replaceAll(data, secret);
  if (cutAtEnd) {
    for (const secret of ordered) {
      for (let length = Math.min(secret.byteLength - 1, data.byteLength); length >= 1; length--) {
        if (data.subarray(data.byteLength - length).equals(secret.subarray(0, length))) {
          data = Buffer.concat([data.subarray(0, data.byteLength - length), MARKER]);
          break;
        }
      }
    }
  }
  return data.buffer === bytes.buffer ? bytes : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
