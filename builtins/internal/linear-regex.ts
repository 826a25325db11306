/**
 * JavaScript regular expressions run on a linear-time engine.
 *
 * V8's own engine backtracks: a pattern such as `^(a|a)+$` takes exponential time on a line of 33
 * characters, and since it runs on the main thread nothing else (timeouts, health checks, other calls)
 * runs meanwhile. This module keeps the JavaScript syntax the tools promise, but matches with RE2
 * (re2js, a pure JavaScript port: no native build, no install step), whose time is linear in the
 * input for every pattern.
 *
 * The pattern is parsed as a JavaScript regular expression (no `u` flag, Annex B syntax allowed, as
 * `new RegExp(pattern)` does) and rewritten node by node into RE2 syntax with the same meaning: `.`,
 * `\s` and literals are spelled out explicitly, so RE2's differing readings of `\s`, `\Q`, `\z`,
 * `\A`, `\p` or `\u` never apply. Lookbehinds run on RE2's linear lookbehind support. Constructs no
 * linear-time engine can run, backreferences and lookaheads, are refused with a message naming the
 * construct, never silently changed.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { RE2JS } from 're2js';

/** A compiled pattern; `test` takes time linear in the length of its input. */
export interface LinearRegex {
  /** The RE2 source the pattern was rewritten to. */
  readonly engineSource: string;
  /** True when the pattern matches somewhere in `text` (like `RegExp.prototype.test` without `g`). */
  test(text: string): boolean;
}

/** Why a pattern could not be compiled: not valid JavaScript, valid but beyond a linear engine, or too large. */
export type LinearRegexProblem = 'syntax' | 'unsupported' | 'too_large';

export type LinearRegexCompilation =
  | { ok: true; regex: LinearRegex }
  | { ok: false; problem: LinearRegexProblem; message: string; construct?: string };

export interface LinearRegexOptions {
  caseInsensitive?: boolean;
  /**
   * Raw texts of lookarounds the caller knows to be always true for its inputs; they are dropped
   * instead of refused (used for the guards picomatch adds to its glob regexes).
   */
  neutralLookarounds?: ReadonlySet<string>;
}

/** Largest counted repetition RE2 accepts, e.g. `a{1000}`. */
export const LINEAR_REGEX_MAX_REPEAT = 1000;

const MAX_CODE_POINT = 0x10ffff;
/** Code points JavaScript's `\s` matches (WhiteSpace and LineTerminator), as inclusive ranges. */
const JAVASCRIPT_SPACE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
/** Code points JavaScript's `.` does not match without the `s` flag. */
const LINE_TERMINATOR_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

/** Thrown inside the rewrite to stop at the first construct RE2 cannot run; never leaves this module. */
class UnsupportedConstruct extends Error {
  constructor(
    readonly construct: string,
    readonly hint: string,
  ) {
    super(construct);
  }
}

interface RewriteContext {
  neutralLookarounds: ReadonlySet<string>;
  dotAll: boolean;
  usesLookbehind: boolean;
}

function isHighSurrogate(value: number): boolean {
  return value >= 0xd800 && value <= 0xdbff;
}

function isLowSurrogate(value: number): boolean {
  return value >= 0xdc00 && value <= 0xdfff;
}

function combineSurrogates(high: number, low: number): number {
  return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
}

function shorten(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 37)}...` : raw;
}

/** One code point as an RE2 literal, valid inside and outside a class. */
function literal(value: number): string {
  if (isHighSurrogate(value) || isLowSurrogate(value)) {
    const escape = `\\u${value.toString(16).toUpperCase()}`;
    throw new UnsupportedConstruct(
      `a lone UTF-16 surrogate (${escape})`,
      'Write the whole character (or its \\u{...} code point) instead of half of a surrogate pair.',
    );
  }
  if ((value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5a) || (value >= 0x61 && value <= 0x7a)) {
    return String.fromCharCode(value);
  }
  return `\\x{${value.toString(16)}}`;
}

function rangesToClassBody(ranges: ReadonlyArray<readonly [number, number]>): string {
  return ranges.map(([low, high]) => (low === high ? literal(low) : `${literal(low)}-${literal(high)}`)).join('');
}

/** The complement of sorted, disjoint ranges within all code points, surrogates excluded. */
function complementRanges(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const result: Array<[number, number]> = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result.flatMap(([low, high]) => splitAroundSurrogates(low, high));
}

/** RE2 ranges may not contain surrogates (no decoded string holds one), so they are cut out. */
function splitAroundSurrogates(low: number, high: number): Array<[number, number]> {
  const parts: Array<[number, number]> = [];
  if (low < 0xd800) parts.push([low, Math.min(high, 0xd7ff)]);
  if (high > 0xdfff) parts.push([Math.max(low, 0xe000), high]);
  return parts;
}

const ANY_CODE_POINT_CLASS = `[${rangesToClassBody(splitAroundSurrogates(0, MAX_CODE_POINT))}]`;
const NO_CODE_POINT_CLASS = `[^${rangesToClassBody(splitAroundSurrogates(0, MAX_CODE_POINT))}]`;

/** Class body (without brackets) for `\d`, `\s`, `\w` and their negations. */
function escapeSetBody(set: AST.EscapeCharacterSet): string {
  switch (set.kind) {
    case 'digit':
      return set.negate ? '\\D' : '0-9';
    case 'word':
      return set.negate ? '\\W' : '0-9A-Za-z_';
    case 'space':
      return rangesToClassBody(set.negate ? complementRanges(JAVASCRIPT_SPACE_RANGES) : JAVASCRIPT_SPACE_RANGES);
  }
}

function rewriteCharacterSet(set: AST.CharacterSet, context: RewriteContext): string {
  if (set.kind === 'any') {
    return context.dotAll ? ANY_CODE_POINT_CLASS : `[^${rangesToClassBody(LINE_TERMINATOR_RANGES)}]`;
  }
  if (set.kind === 'property') {
    // Only reachable with the u or v flag, which these patterns never carry.
    throw new UnsupportedConstruct(`a Unicode property escape (${shorten(set.raw)})`, 'Spell the characters out in a class such as [a-z].');
  }
  return `[${escapeSetBody(set)}]`;
}

function rewriteClass(characterClass: AST.CharacterClass): string {
  const parts: string[] = [];
  const elements = characterClass.elements;
  for (let index = 0; index < elements.length; index += 1) {
    const element = elements[index] as AST.CharacterClassElement;
    if (element.type === 'Character') {
      const following = elements[index + 1];
      if (isHighSurrogate(element.value) && following?.type === 'Character' && isLowSurrogate(following.value)) {
        parts.push(literal(combineSurrogates(element.value, following.value)));
        index += 1;
      } else {
        parts.push(literal(element.value));
      }
    } else if (element.type === 'CharacterClassRange') {
      parts.push(`${literal(element.min.value)}-${literal(element.max.value)}`);
    } else if (element.type === 'CharacterSet' && element.kind !== 'property') {
      parts.push(escapeSetBody(element));
    } else {
      throw new UnsupportedConstruct(`the class element ${shorten(element.raw)}`, 'Spell the characters out in a plain class such as [a-z].');
    }
  }
  if (parts.length === 0) return characterClass.negate ? ANY_CODE_POINT_CLASS : NO_CODE_POINT_CLASS;
  return `[${characterClass.negate ? '^' : ''}${parts.join('')}]`;
}

function rewriteQuantifier(quantifier: AST.Quantifier, context: RewriteContext): string {
  const { min, max } = quantifier;
  if (min > LINEAR_REGEX_MAX_REPEAT || (Number.isFinite(max) && max > LINEAR_REGEX_MAX_REPEAT)) {
    throw new UnsupportedConstruct(
      `a counted repetition above ${LINEAR_REGEX_MAX_REPEAT} (${shorten(quantifier.raw)})`,
      `Use a count of at most ${LINEAR_REGEX_MAX_REPEAT}, or + / * when the exact count does not matter.`,
    );
  }
  let operator: string;
  if (max === Number.POSITIVE_INFINITY) operator = min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  else if (min === 0 && max === 1) operator = '?';
  else operator = min === max ? `{${min}}` : `{${min},${max}}`;
  return `(?:${rewriteElement(quantifier.element, context)})${operator}${quantifier.greedy ? '' : '?'}`;
}

function rewriteAlternatives(alternatives: readonly AST.Alternative[], context: RewriteContext): string {
  return alternatives.map((alternative) => rewriteSequence(alternative.elements, context)).join('|');
}

function rewriteSequence(elements: readonly AST.Element[], context: RewriteContext): string {
  let output = '';
  for (let index = 0; index < elements.length; index += 1) {
    const element = elements[index] as AST.Element;
    const following = elements[index + 1];
    if (element.type === 'Character' && isHighSurrogate(element.value) && following?.type === 'Character' && isLowSurrogate(following.value)) {
      // Without the u flag a character outside the BMP is two pattern characters; RE2 sees one code point.
      output += literal(combineSurrogates(element.value, following.value));
      index += 1;
      continue;
    }
    output += rewriteElement(element, context);
  }
  return output;
}

function rewriteModifiers(group: AST.Group, context: RewriteContext): { prefix: string; context: RewriteContext } {
  const modifiers = group.modifiers;
  if (!modifiers) return { prefix: '(?:', context };
  if (modifiers.add.multiline || modifiers.remove?.multiline) {
    throw new UnsupportedConstruct(`the multiline modifier (${shorten(modifiers.raw)})`, 'Lines are matched one at a time; drop the m modifier.');
  }
  const add = modifiers.add.ignoreCase ? 'i' : '';
  const remove = modifiers.remove?.ignoreCase ? 'i' : '';
  const flags = add + (remove ? `-${remove}` : '');
  let dotAll = context.dotAll;
  if (modifiers.add.dotAll) dotAll = true;
  if (modifiers.remove?.dotAll) dotAll = false;
  return { prefix: flags ? `(?${flags}:` : '(?:', context: { ...context, dotAll } };
}

function rewriteElement(element: AST.Element, context: RewriteContext): string {
  switch (element.type) {
    case 'Character':
      return literal(element.value);
    case 'CharacterSet':
      return rewriteCharacterSet(element, context);
    case 'CharacterClass':
      return rewriteClass(element);
    case 'Quantifier':
      return rewriteQuantifier(element, context);
    case 'CapturingGroup':
      // Only whether a line matches is asked, so groups need not capture (which keeps RE2 on its DFA).
      return `(?:${rewriteAlternatives(element.alternatives, context)})`;
    case 'Group': {
      const { prefix, context: inner } = rewriteModifiers(element, context);
      return `${prefix}${rewriteAlternatives(element.alternatives, inner)})`;
    }
    case 'Backreference':
      throw new UnsupportedConstruct(
        `a backreference (${element.raw})`,
        'Backreferences need a backtracking engine; match the repeated text explicitly, or use shell with grep -E / grep -P.',
      );
    case 'Assertion':
      switch (element.kind) {
        case 'start':
          return '^';
        case 'end':
          return '$';
        case 'word':
          return element.negate ? '\\B' : '\\b';
        case 'lookahead':
        case 'lookbehind': {
          if (context.neutralLookarounds.has(element.raw)) return '';
          if (element.kind === 'lookahead') {
            throw new UnsupportedConstruct(
              `a ${element.negate ? 'negative ' : ''}lookahead (${shorten(element.raw)})`,
              'Lookaheads need a backtracking engine; match the following text directly, or use shell with grep -P.',
            );
          }
          context.usesLookbehind = true;
          return `(?<${element.negate ? '!' : '='}${rewriteAlternatives(element.alternatives, context)})`;
        }
      }
    // falls through: every assertion kind returned above
    default:
      throw new UnsupportedConstruct(`the construct ${shorten(element.raw)}`, 'Rewrite the pattern with plain characters, classes, groups and quantifiers.');
  }
}

const javascriptParser = new RegExpParser({ ecmaVersion: 2025, strict: false });

/**
 * Compiles a JavaScript regular expression source (as given to `new RegExp(source)`) for linear-time
 * matching. Problems come back as data: a syntax error carries the JavaScript engine's wording.
 */
export function compileLinearRegex(source: string, options: LinearRegexOptions = {}): LinearRegexCompilation {
  try {
    new RegExp(source, options.caseInsensitive ? 'i' : '');
  } catch (error) {
    return { ok: false, problem: 'syntax', message: (error as Error).message };
  }
  let pattern: AST.Pattern;
  try {
    pattern = javascriptParser.parsePattern(source, 0, source.length, { unicode: false, unicodeSets: false });
  } catch (error) {
    return { ok: false, problem: 'syntax', message: (error as Error).message };
  }
  const context: RewriteContext = { neutralLookarounds: options.neutralLookarounds ?? new Set(), dotAll: false, usesLookbehind: false };
  let engineSource: string;
  try {
    engineSource = rewriteAlternatives(pattern.alternatives, context);
  } catch (error) {
    if (!(error instanceof UnsupportedConstruct)) throw error;
    return {
      ok: false,
      problem: 'unsupported',
      construct: error.construct,
      message: `it uses ${error.construct}, which the linear-time matching engine (RE2) cannot run. ${error.hint}`,
    };
  }
  let flags = options.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0;
  if (context.usesLookbehind) flags |= RE2JS.LOOKBEHINDS;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(engineSource, flags);
  } catch (error) {
    return {
      ok: false,
      problem: 'too_large',
      message: `the matching engine refused it (${(error as Error).message}); nested counted repetitions such as (a{100}){100} grow too large. Simplify the pattern.`,
    };
  }
  return { ok: true, regex: { engineSource, test: (text) => compiled.test(text) } };
}
