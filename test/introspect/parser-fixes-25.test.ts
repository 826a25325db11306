/**
 * Notations met in parser fixes round 15 (issue 12, batch 20 part a: C/Perl/Ruby helps), each
 * pinned on a minimal help: value-taking, positionals, names, choices, defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('value-taking', () => {
  it('popt/gengetopt `-d, --delete=partnum`: a lower-case word after a long spelled nowhere else names the value', () => {
    const help =
      'Usage: sgdisk  [OPTION...] <device>\n  -d, --delete=partnum        delete a partition\n  -c, --c-extension=ext       extension of c file  (default=`c\')\n  -p, --print                 print partition table\n';
    expect(option(help, 'delete')).toMatchObject({ short: 'd', takes_value: true });
    expect(option(help, 'c-extension')).toMatchObject({ short: 'c', takes_value: true });
    expect(option(help, 'print')?.takes_value).toBe(false);
  });

  it('GNU ls `-p, --indicator-style=slash` under `--indicator-style=WORD`: a long spelled elsewhere keeps the literal', () => {
    const help =
      'Usage: ls [OPTION]... [FILE]...\n  -p, --indicator-style=slash\n                             append / indicator to directories\n      --indicator-style=WORD  append indicator with style WORD to entry names\n';
    const spec = parseHelp(help);
    expect(spec.options.find((candidate) => candidate.short === 'p')?.long).not.toBe('indicator-style');
  });
});
