/**
 * The regex compiler approval globs used before the linear matcher (src/approvals/glob.ts), kept as a
 * test oracle: on small inputs the two must agree on every pattern, match and refusal. It backtracks
 * (`*git*push*` on 100 KB took seconds), which is why it is no longer used by the host.
 */
/** Syntax characters: the only ones a unicode-mode RegExp lets you escape outside a class. */
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

function escapeForRegex(text: string): string {
  return text.replace(REGEX_SYNTAX, '\\$&');
}

/** Inside a class `-` is special too (and may be escaped in unicode mode). */
function escapeInClass(text: string): string {
  return text === '-' ? '\\-' : escapeForRegex(text);
}

/** The end index (exclusive) of a character class starting at `start` (`[`), or -1 when unterminated. */
function classEnd(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === '!' || pattern[index] === '^') index += 1;
  // A `]` right after the opening (or the negation) is a literal member, as in shells.
  if (pattern[index] === ']') index += 1;
  while (index < pattern.length) {
    const char = pattern[index];
    if (char === '\\') index += 2;
    else if (char === ']') return index + 1;
    else index += 1;
  }
  return -1;
}

function classToRegex(body: string): string {
  let negate = false;
  let rest = body;
  if (rest.startsWith('!') || rest.startsWith('^')) {
    negate = true;
    rest = rest.slice(1);
  }
  let out = '';
  for (let index = 0; index < rest.length; index += 1) {
    const char = rest[index] as string;
    if (char === '\\' && index + 1 < rest.length) {
      index += 1;
      out += escapeInClass(rest[index] as string);
    } else if (char === '-' && index > 0 && index < rest.length - 1) {
      out += '-';
    } else {
      out += escapeInClass(char);
    }
  }
  return `[${negate ? '^' : ''}${out}]`;
}

/**
 * Compiles a glob to an anchored RegExp (unicode mode, so `?` is one code point). An unterminated `[`
 * is a literal `[`. @throws SyntaxError for a class range out of order, e.g. `[z-a]`.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '*') {
      // Runs of stars mean the same as one; collapsing them keeps the regex linear.
      while (pattern[index + 1] === '*') index += 1;
      source += '[\\s\\S]*';
    } else if (char === '?') {
      source += '[\\s\\S]';
    } else if (char === '\\' && index + 1 < pattern.length) {
      index += 1;
      source += escapeForRegex(pattern[index] as string);
    } else if (char === '[') {
      const end = classEnd(pattern, index);
      if (end === -1) {
        source += '\\[';
      } else {
        source += classToRegex(pattern.slice(index + 1, end - 1));
        index = end - 1;
      }
    } else {
      source += escapeForRegex(char);
    }
  }
  return new RegExp(`^${source}$`, 'u');
}

