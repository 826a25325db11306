/**
 * Notations met in parser fixes round 11 (issue 12), each pinned on a minimal help. First the
 * choices that are no closed set (an invented enum refuses values the program takes), then
 * value-taking, choices, defaults, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { option } from './parsed-option.ts';

describe('choices that are no closed set', () => {
  it('optparse `--select=errors  select errors and warnings`: a lower-case metavar the same line uses as a noun is a placeholder', () => {
    const help =
      'Usage: lint [options] input ...\n\nOptions:\n  --select=errors      select errors and warnings (e.g. E,W6)\n  --exclude=patterns   exclude files which match these patterns\n                       (default: .svn,CVS)\n  --sourcemap=inline   Emit the source map with an inline data URL\n';
    expect(option(help, 'select')).toMatchObject({ takes_value: true, choices: null, value_name: 'errors' });
    expect(option(help, 'exclude')).toMatchObject({ choices: null, default: '.svn,CVS' });
    // an adjective before a noun is no placeholder: the literal value spelling stays one choice
    expect(option(help, 'sourcemap')?.choices).toEqual(['inline']);
  });
});
