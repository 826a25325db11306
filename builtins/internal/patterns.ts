/**
 * Glob patterns shared by the tools that take them (glob, grep include): confinement checks and a
 * matcher whose time is linear in the path's length.
 *
 * picomatch gives the glob its meaning (braces, classes, extglobs, `**`), but its regexes backtrack:
 * `*a*a*a*a*a*ab` against a long file name of a's runs for seconds on the main thread. So the regex
 * picomatch builds is run on the linear-time engine of `linear-regex.ts` instead of V8's.
 */
import picomatch from 'picomatch';
import { compileLinearRegex } from './linear-regex.ts';

/** Refuses patterns that would reach outside the base directory; returns a message, or undefined when fine. */
export function checkRelativePattern(pattern: string, parameter: string): string | undefined {
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern)) {
    return `${parameter} "${pattern}" is absolute; give a pattern relative to the search directory (e.g. "**/*.ts") and set path to choose the directory.`;
  }
  if (pattern.split(/[\\/]/).includes('..')) {
    return `${parameter} "${pattern}" contains a ".." segment; patterns cannot climb out of the search directory. Set path to the directory to search instead.`;
  }
  return undefined;
}

/**
 * The lookaheads picomatch (with `dot: true`) puts in its regexes only to reject empty, "." and ".."
 * path segments. The candidates matched here are paths built from directory entries, which never hold
 * such segments, so for them these lookaheads are always true and are dropped, not refused.
 */
const PICOMATCH_SEGMENT_GUARDS: ReadonlySet<string> = (() => {
  const chars = picomatch.constants.globChars(false);
  return new Set([chars.ONE_CHAR, chars.NO_DOTS, chars.NO_DOTS_SLASH, chars.NO_DOT_SLASH]);
})();

/** A compiled glob; `test` takes time linear in the candidate's length. */
export interface GlobMatcher {
  /** `candidate`: a relative path with "/" separators and no empty, "." or ".." segments. */
  test(candidate: string): boolean;
}

export type GlobCompilation = { ok: true; matcher: GlobMatcher } | { ok: false; message: string };

export interface GlobOptions {
  /** Match patterns without a "/" against the candidate's last segment (its file name). */
  matchBasename?: boolean;
}

/** Compiles a glob with picomatch's meaning (dot files included) for linear-time matching. */
export function compileGlob(pattern: string, parameter: string, options: GlobOptions = {}): GlobCompilation {
  let body = pattern;
  let negated = false;
  // A leading "!" negates the whole pattern; picomatch would express that with a lookahead.
  const scanned = picomatch.scan(pattern);
  if (scanned.negated && !scanned.negatedExtglob) {
    body = pattern.slice(scanned.start);
    negated = true;
    if (body === '') return { ok: false, message: `${parameter} "${pattern}" negates nothing; give a pattern after the "!".` };
  }
  let source: string;
  try {
    source = picomatch.makeRe(body, { dot: true }).source;
  } catch (error) {
    return { ok: false, message: `${parameter} "${pattern}" is not a valid glob: ${(error as Error).message}` };
  }
  const compiled = compileLinearRegex(source, { neutralLookarounds: PICOMATCH_SEGMENT_GUARDS });
  if (!compiled.ok) {
    const reason =
      compiled.problem === 'unsupported'
        ? 'it needs a negated extglob such as "!(...)", which cannot be matched in linear time. List the wanted names positively, e.g. "*.{ts,js}".'
        : compiled.message;
    return { ok: false, message: `${parameter} "${pattern}" cannot be used: ${reason}` };
  }
  const regex = compiled.regex;
  const onBasename = options.matchBasename === true && !body.includes('/');
  const matches = (candidate: string): boolean => {
    const subject = onBasename ? candidate.slice(candidate.lastIndexOf('/') + 1) : candidate;
    // picomatch also accepts a candidate equal to the pattern text (a literal name with glob characters).
    return subject === body || regex.test(subject);
  };
  return { ok: true, matcher: { test: (candidate) => matches(candidate) !== negated } };
}
