/**
 * Notations met in parser fixes round 8 (issue 12), each pinned on a minimal help. Defaults and
 * choices that are no value come first (an invented one refuses or replaces what the program takes).
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';

function option(help: string, key: string) {
  return parseHelp(help).options.find((candidate) => candidate.long === key || candidate.short === key);
}

describe('defaults and choices that are no value', () => {
  it('argparse `Defaults to empty/disabled.` is no default; `Defaults to auto.` is one', () => {
    const help =
      'usage: spell [-h] [--ignore-regex IGNORE_REGEX] [--mode MODE]\n\noptions:\n  --ignore-regex IGNORE_REGEX\n                        regex to ignore. Defaults to empty/disabled.\n  --mode MODE           how to run. Defaults to auto.\n';
    expect(option(help, 'ignore-regex')?.default).toBeNull();
    expect(option(help, 'mode')?.default).toBe('auto');
  });

  it('numbered meanings 0, 1, 2, 4, 8 are bits of a mask (no choices); `The default mask is 34.` is the default', () => {
    const help =
      'usage: spell [-h] [-q LEVEL] [-i MODE]\n\noptions:\n  -q LEVEL, --quiet-level LEVEL\n                        bitmask that allows suppressing messages:\n                        - 0: print all messages.\n                        - 1: disable warnings about encoding.\n                        - 2: disable warnings about binary files.\n                        - 4: omit warnings about fixes.\n                        - 8: omit the rest.\n                        The default mask is 34.\n  -i MODE, --interactive MODE\n                        set interactive mode:\n                        - 0: no interactivity.\n                        - 1: ask for confirmation.\n                        - 2: ask user to choose one fix.\n                        - 3: both 1 and 2\n';
    expect(option(help, 'quiet-level')).toMatchObject({ choices: null, default: 34 });
    expect(option(help, 'interactive')?.choices).toEqual(['0', '1', '2', '3']);
  });

  it('cac `defaults to `github`` naming another option is that option, not the word', () => {
    const help =
      'Usage:\n  $ rel \n\nOptions:\n  --github <path>          GitHub Repository\n  --release-github <path>  Release GitHub Repository, defaults to `github` \n  --style <style>          Style of the changelog (default: markdown)\n  -h, --help               Display this message \n';
    expect(option(help, 'release-github')?.default).toBeNull();
    expect(option(help, 'style')?.default).toBe('markdown');
  });

  it('pigz `-b mmm … block size to mmmK (default 128K)`: a default in the unit the value is counted in is none', () => {
    const help =
      'Usage: zz [options] [files ...]\n\nOptions:\n  -b, --blocksize mmm  Set compression block size to mmmK (default 128K)\n  -p, --processes n    Allow up to n threads (default 8)\n';
    expect(option(help, 'blocksize')?.default).toBeNull();
    expect(option(help, 'processes')?.default).toBe(8);
  });
});
