/**
 * Notations met in parser fixes round 11 (issue 12), each pinned on a minimal help: first defaults
 * and choices that must not be invented, then value-taking, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('defaults that are no default', () => {
  it('jackspeak `This defaults to \'true\' on macOS and Windows platforms, and false on all others.`: a per-platform default is none', () => {
    const help =
      'Usage:\n  glob [options] [<pattern> ...]\n\nOptions:\n  --nocase   Perform a case-insensitive match. This defaults to\n             \'true\' on macOS and Windows platforms, and false on all\n             others.\n  --dot      Match dotfiles. This defaults to \'true\'.\n';
    expect(option(help, 'nocase')?.default).toBeNull();
    expect(option(help, 'dot')?.default).toBe(true);
  });
});

describe('value-taking', () => {
  it('yargs epilog `If neither -o, --dir, or` / `--replace is passed, it writes to stdout.`: a flag opening a wrapped sentence is prose', () => {
    const help =
      'Usage:\npostcss [input.css] [OPTIONS] [-o|--output output.css]\n\nOptions:\n  -o, --output   Output file                                            [string]\n  -r, --replace  Replace (overwrite) the input file                    [boolean]\n  -h, --help     Show help                                             [boolean]\n\nIf neither -o, --dir, or\n--replace is passed, it writes to stdout.\n';
    expect(option(help, 'replace')).toMatchObject({ takes_value: false });
    expect(option(help, 'replace')?.value_optional).toBeUndefined();
  });
});
