/**
 * Notations met in parser fixes round 5 (issue 12), each pinned on a minimal help. First the
 * defaults that are no value (an invented default is worse than a missing one): prose after
 * `defaults to`, computed defaults (`process.cwd()`, `cwd`).
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';

function option(help: string, key: string) {
  return parseHelp(help).options.find((candidate) => candidate.long === key || candidate.short === key);
}

describe('defaults that are no value', () => {
  it('argparse `(defaults to executing all tests)` is prose; `defaults to 5 seconds` and `(defaults to low)` are values', () => {
    const help =
      'usage: scan [-h] [-p PROFILE] [-w WAIT] [-l LEVEL]\n\noptions:\n  -p PROFILE, --profile PROFILE\n                        profile to use (defaults to executing all tests)\n  -w WAIT, --wait WAIT  wait; defaults to 5 seconds\n  -l LEVEL, --level LEVEL\n                        level (defaults to low)\n';
    expect(option(help, 'profile')?.default).toBeNull();
    expect(option(help, 'wait')?.default).toBe(5);
    expect(option(help, 'level')?.default).toBe('low');
  });

  it("click `Defaults to OpenSSL's safe defaults.` is prose", () => {
    const help = "Usage: serve [OPTIONS]\n\nOptions:\n  --ssl-ciphers TEXT  Ciphers to use. Defaults to OpenSSL's safe defaults.\n  --mode TEXT         Mode. Defaults to fast.\n";
    expect(option(help, 'ssl-ciphers')?.default).toBeNull();
    expect(option(help, 'mode')?.default).toBe('fast');
  });

  it('meow `[Default: process.cwd()]` is computed when the program runs', () => {
    const help = '  Usage\n    $ lint [<file|glob> ...]\n\n  Options\n    --cwd=<dir>       Working directory for files [Default: process.cwd()]\n    --space=<n>       Indent [Default: 2]\n';
    expect(option(help, 'cwd')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'space')?.default).toBe(2);
  });

  it('`(default: cwd)` on a directory option names the current directory', () => {
    const help = 'Usage: check [options]\n\nOptions:\n  -D, --directory [dir]   Run from a different directory (default: cwd)\n  --tag [name]            Tag to use (default: cwd)\n';
    expect(option(help, 'directory')?.default).toBeNull();
    expect(option(help, 'tag')?.default).toBe('cwd');
  });
});

describe('choices', () => {
  it('clap (bat) `(*auto*, never, always)`: the starred item of a parenthesized list is the default, the list the choices', () => {
    const help =
      'USAGE:\n    show [OPTIONS] [FILE]...\n\nOPTIONS:\n        --wrap <mode>         Wrapping mode (*auto*, never, character).\n        --italic-text <when>  Use italics (always, *never*)\n        --paging <when>       When to page, or use `-P` to disable (*auto*,\n                              never, always).\n        --tabs <T>            Tab width (4, 8).\n';
    expect(option(help, 'wrap')).toMatchObject({ choices: ['auto', 'never', 'character'], default: 'auto' });
    expect(option(help, 'italic-text')).toMatchObject({ choices: ['always', 'never'], default: 'never' });
    expect(option(help, 'paging')).toMatchObject({ choices: ['auto', 'never', 'always'], default: 'auto' });
    expect(option(help, 'tabs')).toMatchObject({ choices: null, default: null });
  });
});
