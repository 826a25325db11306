import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/approvals/glob.ts';
import { globToRegExp } from './glob-regex-oracle.ts';

const matches = (pattern: string, value: string): boolean => compileGlob(pattern)(value);

describe('approval globs (strings, not paths)', () => {
  it('* is any run of characters, across / and newlines, and may be empty', () => {
    expect(matches('git *', 'git push origin/main')).toBe(true);
    expect(matches('git *', 'git status\nrm -rf /')).toBe(true);
    expect(matches('git *', 'git ')).toBe(true);
    expect(matches('git *', 'git')).toBe(false);
    expect(matches('*', '')).toBe(true);
    expect(matches('*.ts', 'src/deep/x.ts')).toBe(true);
    expect(matches('*rm *', 'echo hi; rm -rf x')).toBe(true);
  });

  it('matches the whole value, case-sensitively', () => {
    expect(matches('git', 'git status')).toBe(false);
    expect(matches('status', 'git status')).toBe(false);
    expect(matches('GIT *', 'git log')).toBe(false);
  });

  it('? is one character (one code point), classes and negated classes work', () => {
    expect(matches('a?c', 'abc')).toBe(true);
    expect(matches('a?c', 'ac')).toBe(false);
    expect(matches('?', '😀')).toBe(true);
    expect(matches('[a-c]x', 'bx')).toBe(true);
    expect(matches('[a-c]x', 'dx')).toBe(false);
    expect(matches('[!a-c]x', 'bx')).toBe(false);
    expect(matches('[!a-c]x', 'dx')).toBe(true);
    expect(matches('x[-]y', 'x-y')).toBe(true);
    expect(matches('[]]', ']')).toBe(true);
  });

  it('regex characters are literal; backslash escapes; an unterminated [ is literal', () => {
    expect(matches('(a|b).+', '(a|b).+')).toBe(true);
    expect(matches('(a|b).+', 'a')).toBe(false);
    expect(matches('\\*', '*')).toBe(true);
    expect(matches('\\*', 'x')).toBe(false);
    expect(matches('a[b', 'a[b')).toBe(true);
    expect(matches('^$', '^$')).toBe(true);
  });

  it('refuses a class range out of order', () => {
    expect(() => compileGlob('[z-a]')).toThrow(SyntaxError);
    expect(() => compileGlob('x[a--]')).toThrow(SyntaxError);
    expect(() => compileGlob('[a\\-z]')).not.toThrow();
  });

  it('agrees with the regex compiler it replaced, on matches and refusals (property, fixed seed)', () => {
    // Alphabets rich in syntax, so classes, ranges, escapes and negations come up often.
    const patternChar = fc.constantFrom('a', 'b', 'z', '-', '*', '?', '[', ']', '!', '^', '\\', '/', ' ', '\n', '😀', '.', '(');
    const valueChar = fc.constantFrom('a', 'b', 'z', '-', ']', '[', '!', '^', '\\', '/', ' ', '\n', '😀', '.', '(');
    const pattern = fc.array(patternChar, { maxLength: 12 }).map((chars) => chars.join(''));
    const value = fc.array(valueChar, { maxLength: 12 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(pattern, fc.array(value, { minLength: 1, maxLength: 6 }), (glob, values) => {
        let oracle: RegExp | undefined;
        try {
          oracle = globToRegExp(glob);
        } catch {
          expect(() => compileGlob(glob)).toThrow(SyntaxError);
          return;
        }
        const test = compileGlob(glob);
        for (const candidate of values) expect(test(candidate), `${JSON.stringify(glob)} on ${JSON.stringify(candidate)}`).toBe(oracle.test(candidate));
        // Values built from the pattern's own literal pieces match more often than random ones.
        const echo = glob.replace(/[*?\\[\]]/g, '');
        expect(test(echo), `${JSON.stringify(glob)} on ${JSON.stringify(echo)}`).toBe(oracle.test(echo));
      }),
      { seed: 2718, numRuns: 4_000 },
    );
  });

  it('a pattern without wildcards matches exactly itself (property, fixed seed)', () => {
    const literal = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((text) => !/[*?[\\]/.test(text));
    fc.assert(
      fc.property(literal, fc.string({ maxLength: 30 }), (pattern, other) => {
        expect(matches(pattern, pattern)).toBe(true);
        expect(matches(pattern, other)).toBe(other === pattern);
        expect(matches(`${pattern}*`, `${pattern}${other}`)).toBe(true);
      }),
      { seed: 1414, numRuns: 300 },
    );
  });
});
