/**
 * The glob dialect of approval rules, on plain strings (not paths): `*` is any run of characters
 * (empty, `/` and newlines included), `?` is exactly one character (one code point), `[abc]`, `[a-z]`
 * and `[!abc]` (or `[^abc]`) are character classes, and `\` makes the next character literal. A `]`
 * right after the opening `[` (or its negation) is a member, an unterminated `[` is a literal `[`.
 * Everything else is literal and the pattern must match the whole value, case-sensitively.
 *
 * Matching takes time linear in the value (at most its length times the pattern's), whatever either
 * holds: the value is often a model's argument, and matching runs on the host's thread. The pattern is
 * cut at its stars into segments; the first and last are anchored, and each one between is taken at
 * its leftmost place after the previous one (which is correct for globs whose only variable-length
 * part is `*`). Segments without wildcards are found with `indexOf`.
 *
 * Why not picomatch: it is built for paths (a `*` stops at `/`, never matches an empty string, and
 * input is path-normalised), and approval rules glob shell commands, URLs and free text as often as
 * paths. Why not a RegExp: V8 backtracks, and `*git*push*` on 100 KB took seconds.
 */

/** One position of a segment: a literal code point, `?`, or a class of inclusive code point ranges. */
type Token = { kind: 'char'; codePoint: number } | { kind: 'any' } | { kind: 'class'; negate: boolean; ranges: Array<readonly [number, number]> };

interface Segment {
  tokens: Token[];
  /** The segment as a string when every token is a literal (found with indexOf), else undefined. */
  literal: string | undefined;
}

interface CompiledGlob {
  /**
   * Pieces between stars, in order; `segments.length - 1` stars separate them (a run of stars counts
   * as one). A leading or trailing star leaves an empty first or last segment.
   */
  segments: Segment[];
}

const codePointWidth = (codePoint: number): number => (codePoint > 0xffff ? 2 : 1);

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

/**
 * A class body (between `[` and `]`) as code point ranges. A `-` between two members makes a range; a
 * `-` first or last, or escaped, is a member; after a range a new one may start with `-` (`[a-c--/]`).
 * @throws SyntaxError for a range out of order, e.g. `[z-a]`.
 */
function parseClass(body: string): Token {
  let negate = false;
  let rest = body;
  if (rest.startsWith('!') || rest.startsWith('^')) {
    negate = true;
    rest = rest.slice(1);
  }
  // Members in order; `null` is an unescaped `-` with members on both sides (a range operator).
  const items: Array<number | null> = [];
  for (let index = 0; index < rest.length; ) {
    let codePoint = rest.codePointAt(index) as number;
    if (codePoint === 0x5c && index + 1 < rest.length) {
      index += 1;
      codePoint = rest.codePointAt(index) as number;
      items.push(codePoint);
    } else if (codePoint === 0x2d && index > 0 && index < rest.length - 1) {
      items.push(null);
    } else {
      items.push(codePoint);
    }
    index += codePointWidth(codePoint);
  }
  const ranges: Array<readonly [number, number]> = [];
  for (let index = 0; index < items.length; ) {
    const low = items[index] ?? 0x2d;
    if (items[index + 1] === null && index + 2 < items.length) {
      const high = items[index + 2] ?? 0x2d;
      if (low > high) throw new SyntaxError(`Range out of order in character class [${body}]`);
      ranges.push([low, high]);
      index += 3;
    } else {
      ranges.push([low, low]);
      index += 1;
    }
  }
  return { kind: 'class', negate, ranges };
}

function compile(pattern: string): CompiledGlob {
  const segments: Segment[] = [];
  let tokens: Token[] = [];
  const close = (): void => {
    const literal = tokens.every((token) => token.kind === 'char') ? String.fromCodePoint(...tokens.map((token) => (token as { codePoint: number }).codePoint)) : undefined;
    segments.push({ tokens, literal });
    tokens = [];
  };
  for (let index = 0; index < pattern.length; ) {
    const codePoint = pattern.codePointAt(index) as number;
    const char = pattern[index];
    if (char === '*') {
      close();
      while (pattern[index] === '*') index += 1;
      continue;
    }
    if (char === '?') {
      tokens.push({ kind: 'any' });
    } else if (char === '\\' && index + 1 < pattern.length) {
      index += 1;
      const escaped = pattern.codePointAt(index) as number;
      tokens.push({ kind: 'char', codePoint: escaped });
      index += codePointWidth(escaped);
      continue;
    } else if (char === '[') {
      const end = classEnd(pattern, index);
      if (end !== -1) {
        tokens.push(parseClass(pattern.slice(index + 1, end - 1)));
        index = end;
        continue;
      }
      tokens.push({ kind: 'char', codePoint });
    } else {
      tokens.push({ kind: 'char', codePoint });
    }
    index += codePointWidth(codePoint);
  }
  close();
  return { segments };
}

function tokenMatches(token: Token, codePoint: number): boolean {
  switch (token.kind) {
    case 'char':
      return token.codePoint === codePoint;
    case 'any':
      return true;
    case 'class': {
      for (const [low, high] of token.ranges) if (codePoint >= low && codePoint <= high) return !token.negate;
      return token.negate;
    }
  }
}

/** The end index when `segment` matches `value` starting at `start` and ending at or before `limit`, else -1. */
function matchAt(segment: Segment, value: string, start: number, limit: number): number {
  let index = start;
  for (const token of segment.tokens) {
    if (index >= limit) return -1;
    const codePoint = value.codePointAt(index) as number;
    if (!tokenMatches(token, codePoint)) return -1;
    index += codePointWidth(codePoint);
  }
  return index <= limit ? index : -1;
}

/** A literal whose ends are surrogate halves could match inside a pair: search those code point by code point. */
function safeForIndexOf(literal: string): boolean {
  const first = literal.charCodeAt(0);
  const last = literal.charCodeAt(literal.length - 1);
  return !(first >= 0xdc00 && first <= 0xdfff) && !(last >= 0xd800 && last <= 0xdbff);
}

/** The end of the leftmost match of `segment` in `value[from, limit)` that starts on a code point boundary, or -1. */
function findLeftmost(segment: Segment, value: string, from: number, limit: number): number {
  if (segment.literal !== undefined && segment.literal.length > 0 && safeForIndexOf(segment.literal)) {
    const found = value.indexOf(segment.literal, from);
    return found === -1 || found + segment.literal.length > limit ? -1 : found + segment.literal.length;
  }
  for (let start = from; start <= limit; ) {
    const end = matchAt(segment, value, start, limit);
    if (end !== -1) return end;
    if (start === limit) break;
    start += codePointWidth(value.codePointAt(start) as number);
  }
  return -1;
}

/** Where a segment of `length` code points must start to end exactly at the end of `value`, or -1 if it is too short. */
function suffixStart(value: string, length: number, floor: number): number {
  let index = value.length;
  for (let count = 0; count < length; count += 1) {
    if (index <= floor) return -1;
    const low = value.charCodeAt(index - 1);
    const high = index >= 2 ? value.charCodeAt(index - 2) : 0;
    index -= low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
  }
  return index;
}

function matches(glob: CompiledGlob, value: string): boolean {
  const { segments } = glob;
  const first = segments[0] as Segment;
  if (segments.length === 1) return matchAt(first, value, 0, value.length) === value.length;
  // Anchored head.
  let cursor = matchAt(first, value, 0, value.length);
  if (cursor === -1) return false;
  // Anchored tail: it must not overlap the head.
  const last = segments[segments.length - 1] as Segment;
  const tailStart = suffixStart(value, last.tokens.length, cursor);
  if (tailStart === -1 || matchAt(last, value, tailStart, value.length) !== value.length) return false;
  // Every segment between two stars, leftmost first, inside [head end, tail start).
  for (let index = 1; index < segments.length - 1; index += 1) {
    cursor = findLeftmost(segments[index] as Segment, value, cursor, tailStart);
    if (cursor === -1) return false;
  }
  return true;
}

/**
 * Compiles a glob into a matcher: `test(value)` is true when the whole value matches. An unterminated
 * `[` is a literal `[`. @throws SyntaxError for a class range out of order, e.g. `[z-a]`.
 */
export function compileGlob(pattern: string): (value: string) => boolean {
  const glob = compile(pattern);
  return (value) => matches(glob, value);
}
