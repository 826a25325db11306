/**
 * Notations met in parser fixes round 12 (issue 12, corpus batch 15), each pinned on a minimal help:
 * invented defaults, value-taking, positionals, names, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('invented defaults', () => {
  it('hand-written `--x=[placeholder]:` heads are no Go `--name=DEFAULT:` help (Go prints `=false:` / `="":`)', () => {
    const help =
      'Usage: zp [options]... in out\n\nOptions:\n-m: compress more\n--iterations=[number]: number of iterations\n--filters=[types]: filter strategies\n--keepchunks=nAME,nAME,...: keep metadata chunks\n';
    expect(option(help, 'keepchunks')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'iterations')).toMatchObject({ takes_value: true, default: null });
  });

  it('`-0 ... -9` (numbered flags, an ellipsis between) is a switch: no value, no alias, no default from the level\'s `[Default: 6]`', () => {
    const help = 'Usage:\n  sz [OPTIONS]\n\nOPTIONS\n\n  -zipfile=F      Write to F\n  -0 ... -9       Set compression level\n                  [Default: 6]\n  -zip64          Create a Zip64 file\n';
    expect(option(help, '0')).toMatchObject({ takes_value: false, default: null, aliases: [] });
  });
});
