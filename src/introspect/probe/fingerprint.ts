/**
 * Which command-line framework a module was built with, from its bytes alone (signatures.ts). The
 * scan is linear in the module's size and capped (MAX_SCAN_BYTES; a larger module is scanned up to
 * the cap): each distinct signature string is looked for once with Buffer.indexOf, which does not
 * backtrack over the haystack. Never throws.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
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
  const haystack = scanWindow(bytes);
  const found = new Map<string, boolean>();
  return scoreSignatures((text) => {
    let seen = found.get(text);
    if (seen === undefined) {
      seen = haystack.indexOf(text, 0, 'latin1') !== -1;
      found.set(text, seen);
    }
    return seen;
  });
}

/**
 * The same fingerprint, giving the event loop back between signature strings: one `indexOf` over a 28 MB module
 * takes a few ms, all of them ~100 ms, which a daemon loading a dropped tool must not spend in one piece.
 */
export async function fingerprintModuleInTurns(bytes: Uint8Array): Promise<Fingerprint> {
  const haystack = scanWindow(bytes);
  const found = new Map<string, boolean>();
  for (const text of new Set(FRAMEWORK_SIGNATURES.flatMap((entry) => entry.all.flat()))) {
    found.set(text, haystack.indexOf(text, 0, 'latin1') !== -1);
    await nextTurn();
  }
  return scoreSignatures((text) => found.get(text) === true);
}

function scanWindow(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, MAX_SCAN_BYTES));
}

function scoreSignatures(has: (text: string) => boolean): Fingerprint {
  const scored = FRAMEWORK_SIGNATURES.filter((entry) => entry.all.some((set) => set.every(has))).sort((a, b) => b.score - a.score);
  const matches = [...new Set(scored.map((entry) => entry.framework))];
  return { framework: matches[0] ?? null, matches };
}
