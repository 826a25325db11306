/**
 * Which command-line framework a module was built with, from its bytes alone (signatures.ts). The
 * scan is linear in the module's size and capped (MAX_SCAN_BYTES; a larger module is scanned up to
 * the cap): each distinct signature string is looked for once with Buffer.indexOf, which does not
 * backtrack over the haystack. Never throws.
 */
import { FRAMEWORK_SIGNATURES, type ProbeFramework } from './signatures.ts';

/** At most this many bytes of a module are scanned (Python and JS components run to tens of MiB). */
export const MAX_SCAN_BYTES = 128 * 1024 * 1024;

export interface Fingerprint {
  /** The best-scoring framework, or null when no signature matched. */
  framework: ProbeFramework | null;
  /** Every matched framework, best first (distinct). */
  matches: ProbeFramework[];
}

/** Fingerprints module bytes (a component or a core module; signatures are plain data strings). */
export function fingerprintModule(bytes: Uint8Array): Fingerprint {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, MAX_SCAN_BYTES));
  const found = new Map<string, boolean>();
  const has = (text: string): boolean => {
    let seen = found.get(text);
    if (seen === undefined) {
      seen = haystack.indexOf(text, 0, 'latin1') !== -1;
      found.set(text, seen);
    }
    return seen;
  };
  const scored = FRAMEWORK_SIGNATURES.filter((entry) => entry.all.some((set) => set.every(has))).sort((a, b) => b.score - a.score);
  const matches = [...new Set(scored.map((entry) => entry.framework))];
  return { framework: matches[0] ?? null, matches };
}
