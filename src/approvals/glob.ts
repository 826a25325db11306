/**
 * The glob dialect of approval rules, on plain strings (not paths): `*` is any run of characters
 * (empty, `/` and newlines included), `?` is exactly one character, `[abc]`, `[a-z]` and `[!abc]`
 * are character classes, and `\` makes the next character literal. Everything else is literal and the
 * pattern must match the whole value, case-sensitively.
 *
 * Why not picomatch: it is built for paths (a `*` stops at `/`, never matches an empty string, and
 * input is path-normalised), and approval rules glob shell commands, URLs and free text as often as paths.
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

/** A compiled glob: `test(value)` is true when the whole value matches. */
export function compileGlob(pattern: string): (value: string) => boolean {
  const regex = globToRegExp(pattern);
  return (value) => regex.test(value);
}
