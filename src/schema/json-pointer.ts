/**
 * Resolution of same-document `$ref` values: `#` (the root) and `#/a/b/0` JSON pointers
 * (RFC 6901, with the URI-fragment percent-encoding of RFC 3986).
 */
import { isPlainObject } from './schema-keywords.ts';

/** Splits a `#...` ref into unescaped pointer tokens; undefined when it is not a local JSON pointer. */
export function parseLocalPointer(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  const tokens: string[] = [];
  for (const rawToken of ref.slice(2).split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(rawToken);
    } catch {
      return undefined;
    }
    tokens.push(decoded.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return tokens;
}

/** Escapes one token for use in a JSON pointer (the inverse of the unescaping above). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Resolves a local ref against `root`; undefined when it is external, malformed or dangling. */
export function resolveLocalPointer(root: unknown, ref: string): unknown {
  const tokens = parseLocalPointer(ref);
  if (tokens === undefined) return undefined;
  let current: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (isPlainObject(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}
