/**
 * Notations met in parser fixes round 11 (issue 12, corpus batch 14), each pinned on a minimal help:
 * value-taking, positionals, names, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { option } from './parsed-option.ts';

describe('defaults', () => {
  it('kingpin prints a default in place of the placeholder (`--max-len=100`), as kong does; a repeated option shows only the first of its defaults', () => {
    const help =
      'usage: golines [<flags>] [<paths>...]\n\nFlags:\n      --[no-]help              Show context-sensitive help (also try --help-long and --help-man).\n      --ignored-dirs=vendor... ...  \n                               Directories to ignore\n  -m, --max-len=100            Target maximum line length\n      --profile=""             Path to profile output\n';
    expect(option(help, 'max-len')).toMatchObject({ takes_value: true, default: 100 });
    expect(option(help, 'ignored-dirs')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'profile')).toMatchObject({ takes_value: true, default: null });
  });
});
