/**
 * Notations first met in the corpus's second held-back part and in the tuned part's last misses
 * (issue 12, parser fixes), each pinned on a minimal help: hand-written `-h: text` entries, prose
 * defaults of `true|false` options, GNU `WORD is a, b, or c:` lists over several lines, a short
 * and a long spelling of one option on two lines, comma-joined positional names, a bare-word
 * alternative next to an option in a usage group, and tsc's value options without a placeholder.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';

function option(help: string, key: string) {
  return parseHelp(help).options.find((candidate) => candidate.long === key || candidate.short === key);
}

describe('option heads', () => {
  it('hand-written `-h: text` and `-d, -u: decode`: a colon after a flag ends the head', () => {
    const help = 'usage: base64.py [-h|-d|-e|-u|-t] [file|-]\n        -h: print this help message and exit\n        -d, -u: decode\n        -e: encode (default)\n';
    const options = parseHelp(help).options;
    expect(options.map(({ long, short, aliases, takes_value }) => ({ long, short, aliases, takes_value }))).toEqual([
      { long: null, short: 'd', aliases: ['-u'], takes_value: false },
      { long: null, short: 'e', aliases: [], takes_value: false },
    ]);
    expect(options[0]?.description).toBe('decode');
  });
});

describe('choices written in prose', () => {
  it('GNU touch: `WORD is access, atime, or use: …` and `WORD is modify or mtime: …` on the next line are all choices', () => {
    const help =
      'Usage: touch [OPTION]... FILE...\n\n  -a                     change only the access time\n      --time=WORD        change the specified time:\n                           WORD is access, atime, or use: equivalent to -a\n                           WORD is modify or mtime: equivalent to -m\n';
    expect(option(help, 'time')?.choices).toEqual(['access', 'atime', 'use', 'modify', 'mtime']);
  });
});
