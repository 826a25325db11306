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

describe('value-taking', () => {
  it('meow `Flag examples` lines (`--manifest ./src/manifest.json`) give the option listed bare a value', () => {
    const help =
      '  Usage\n    $ gen [source-file] [output-folder]\n\n  Options\n    -m --manifest     Web app manifest file path to update\n    -x --xhtml        Generate self-closing tags  [default: false]\n\n  Examples\n    $ gen logo.svg -m ./manifest.json\n\n  Flag examples\n    --manifest ./src/manifest.json\n    --xhtml\n';
    expect(option(help, 'manifest')?.takes_value).toBe(true);
    expect(option(help, 'xhtml')?.takes_value).toBe(false);
  });
});
