import { describe, expect, it } from 'vitest';
import { expandTabs, helpLines, MAX_LINE_CHARS } from '../../src/introspect/limits.ts';

describe('help text limits', () => {
  it('caps every line at MAX_LINE_CHARS', () => {
    const lines = helpLines(`${'x'.repeat(MAX_LINE_CHARS * 3)}\nshort`);
    expect(lines.map((line) => line.length)).toEqual([MAX_LINE_CHARS, 5]);
  });

  it('keeps a line within MAX_LINE_CHARS after its tabs are expanded (a capped line of tabs would grow eightfold)', () => {
    const line = helpLines(`  -x  ${'a\t'.repeat(MAX_LINE_CHARS)}`)[0] ?? '';
    expect(line.length).toBe(MAX_LINE_CHARS);
    expect(expandTabs(line).length).toBeLessThanOrEqual(MAX_LINE_CHARS);
  });

  it('expands tabs to stops of 8, and a tab after a word in the last column of a stop to two spaces', () => {
    expect(expandTabs('\t-v\tverbose')).toBe('        -v      verbose');
    expect(expandTabs('-abcdef\tx')).toBe('-abcdef  x');
  });
});
