/**
 * Notations met in parser fixes round 13 (issue 12) on batch 18's C/Ruby/Python texts, each pinned
 * on a minimal help: spellings, positionals, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { option } from './parsed-option.ts';

describe('spellings', () => {
  it('hand-written `--input-file|-i <filename>`: a bar glued between the long and the short spelling joins them', () => {
    const help = 'usage: prog <filename> [options...]\n\n--input-file|-i <filename>   specify a file to read\n\n--escape                     allow escapes\n';
    expect(option(help, 'input-file')).toMatchObject({ short: 'i', takes_value: true });
    expect(option(help, 'escape')?.takes_value).toBe(false);
  });
});
