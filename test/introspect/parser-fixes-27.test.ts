/**
 * Notations met in parser fixes round 15 (issue 12, batch 20 part c: JS/TS helps), each pinned on a
 * minimal help: invented choices first, then value-taking, positionals, names, choices, defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('names', () => {
  it('meow `--ignore-[OPTION]  Pass options to …`: a dash-ended prefix glued to a placeholder is a family of options, not one', () => {
    const help =
      '  Usage: crit <input>\n\n  Options:\n    -b, --base              Your base directory\n    -i, --inline            Generate inlined HTML\n    --ignore                Selector to ignore\n    --ignore-[OPTION]       Pass options to postcss-discard.\n    --penthouse-<name>      Pass options to penthouse.\n    --strict                Throw on errors\n    --quiet                 Say less\n';
    const longs = parseHelp(help).options.map((parsed) => parsed.long);
    expect(longs).toEqual(['base', 'inline', 'ignore', 'strict', 'quiet']);
    // with no placeholder left, descriptions tell the value-taking ones
    expect(option(help, 'base')?.takes_value).toBe(true);
  });
});
