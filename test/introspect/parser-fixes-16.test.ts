/**
 * Notations met in parser fixes round 12 (issue 12) on JS/TS and Rust/Go texts, each pinned on a
 * minimal help. First what must not be invented (defaults, closed sets), then value-taking,
 * positionals, names, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

const KINGPIN = (lines: string): string =>
  `usage: bench [<flags>] <url>\n\nFlags:\n      --help                  Show context-sensitive help (also try --help-long and --help-man).\n${lines}`;

describe('defaults and choices that are not there', () => {
  it('kingpin `--requests=[pos. int.]`, `--print=<spec>`: a bracketed placeholder after `=` is no default; `--connections=125` is', () => {
    const help = KINGPIN('  -c, --connections=125       Maximum number of concurrent connections\n  -n, --requests=[pos. int.]  Number of requests\n  -p, --print=<spec>          Specifies what to output.\n');
    expect(option(help, 'connections')?.default).toBe(125);
    expect(option(help, 'requests')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'print')).toMatchObject({ takes_value: true, default: null });
  });

  it('`<spec> is either a name … or a path to the template` then a list of names: the list is no closed set', () => {
    const help = KINGPIN(
      '  -o, --format=<spec>         Which format to use. <spec> is either a name of some format\n                              or a path to the user-defined template. Formats are:\n                                - plain-text (short: pt)\n                                - json (short: j)\n  -m, --mode=<m>              Which mode. Modes are:\n                                - fast\n                                - slow\n',
    );
    expect(option(help, 'format')?.choices).toBeNull();
    expect(option(help, 'mode')?.choices).toEqual(['fast', 'slow']);
  });

  it('Go flag `Paths to exclude in the chosen format (standard or doublestar)`: a value named a path takes any; the pair glosses `format`', () => {
    const help =
      'Usage of fmt:\n  -exclude value\n    \tPaths to exclude in the chosen format (standard or doublestar)\n  -match value\n    \tMatch type to use (standard or doublestar)\n';
    expect(option(help, 'exclude')?.choices).toBeNull();
    expect(option(help, 'match')?.choices).toEqual(['standard', 'doublestar']);
  });
});
