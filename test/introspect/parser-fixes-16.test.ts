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

describe('choices', () => {
  const CLAP_LONG = (body: string): string => `Usage: png [OPTIONS] <files>...\n\nOptions:\n${body}\n  -h, --help\n          Print help\n`;

  it('clap long help `0   => …` … `max =>   (alias)` under a paragraph with no `:`: arrow-mapped lines list the values; `(zc, f, etc.)` names examples', () => {
    const help = CLAP_LONG(
      '  -o, --opt <level>\n          Set the optimization level preset.\n\n              0   => --zc 5 --fast   (1 trial)\n              1   => --zc 10 --fast  (1 trial)\n              max =>                 (stable alias for the max level)\n\n          Manually specifying a compression option (zc, f, etc.) will override the preset.\n\n          [default: 1]\n',
    );
    expect(option(help, 'opt')).toMatchObject({ choices: ['0', '1', 'max'], default: '1' });
  });

  it('semver `Can be either 0 or 1, or false to omit the number`: a sentence without its subject lists the values; `Can be file or directory` names kinds', () => {
    const help =
      'Usage:\n  semver [options] <version> [<version> [...]]\n\nOptions:\n-n <base>\n        Base number to be used for the prerelease identifier.\n        Can be either 0 or 1, or false to omit the number altogether.\n        Defaults to 0.\n\n-o <out>\n        Where to write. Can be file or directory.\n';
    expect(option(help, 'n')).toMatchObject({ choices: ['0', '1', 'false'], default: '0' });
    expect(option(help, 'o')?.choices).toBeNull();
  });

  it('typer rstcheck `--sphinx-source-dir <path>  Path to … May be relative or absolute.`: a path\'s qualities are no values', () => {
    const help =
      'Usage: rstcheck [OPTIONS] FILES...\n\nOptions:\n  --sphinx-source-dir <path>  Path to the sphinx source directory. May be relative or absolute.\n  --root <dir>                The root. May be relative or absolute.\n  --mode <mode>               How to check. May be strict or lax.\n';
    expect(option(help, 'sphinx-source-dir')?.choices).toBeNull();
    expect(option(help, 'root')?.choices).toBeNull();
    expect(option(help, 'mode')?.choices).toEqual(['strict', 'lax']);
  });

  it('command-line-usage `Specify ether `posix` or `win32`.`: code spans as the object of a short sentence list the values; a longer lead-in does not', () => {
    const help =
      'Options\n\n --EOL string        Specify ether `posix` or `win32`. Forces all line endings.\n --config string     Read configuration from `pyproject.toml` or `setup.cfg`.\n';
    expect(option(help, 'EOL')?.choices).toEqual(['posix', 'win32']);
    expect(option(help, 'config')?.choices).toBeNull();
  });

  it('`a comma-separated list, or a range of values` before arrow-mapped values: a range is taken too, so the set is open', () => {
    const help = CLAP_LONG(
      "  -f, --filters <list>\n          Filter types to try. You can specify a comma-separated list, or a range of values. E.g. '-f 0-3'.\n\n              0  =>  None\n              1  =>  Sub\n              2  =>  Up\n",
    );
    expect(option(help, 'filters')?.choices).toBeNull();
  });
});

describe('positionals', () => {
  it('`$ run-p [--help | -h | --version | -v]` then `$ run-p [OPTIONS] <tasks>`: a form only asking for help or the version leaves `<tasks>` required', () => {
    const help = '\nUsage:\n    $ run-p [--help | -h | --version | -v]\n    $ run-p [OPTIONS] <tasks>\n\nOptions:\n    -c, --continue-on-error  - Go on after a failed task.\n';
    expect(parseHelp(help).positionals).toMatchObject([{ name: 'tasks', required: true, variadic: true }]);
  });

  it('…but a form that runs another way without positionals (`[ --list-licenses | --list-naming-schemes ]`) leaves them optional', () => {
    const help =
      'Usage:\n        check [ --help | --version ]\n\n        check [ --list-licenses | --list-naming-schemes ]\n\n        check [OPTION...] PATH [PATH...]\n\nOptions:\n    --list-licenses   list licenses\n    --list-naming-schemes   list schemes\n';
    expect(parseHelp(help).positionals).toMatchObject([{ name: 'PATH', required: false }]);
  });
});

describe('defaults', () => {
  const USAGE = (rows: string): string => `Synopsis\n\n  $ docs <options>\n\nOptions\n\n${rows}`;

  it('command-line-usage `Two options to render lists: list or table (default).`: the item marked last in an `or` list, ending the sentence', () => {
    const help = USAGE(' -p, --param-list-format string   Two options to render @param lists: list or table (default). Table format works well.\n --member-index-format string      Two options to render member lists: list or grouped (default). The list view is loose.\n');
    expect(option(help, 'param-list-format')).toMatchObject({ choices: ['list', 'table'], default: 'table' });
    expect(option(help, 'member-index-format')).toMatchObject({ choices: ['list', 'grouped'], default: 'grouped' });
  });

  it('docopt `[default: {}.csv]`: a file-name template around `{}` is one value; `[default: {}]` is an empty object', () => {
    const help =
      'Usage:\n    split [options] <outdir> [<input>]\n\nOptions:\n    --filename <filename>  A filename template.\n                           [default: {}.csv]\n    --extra <json>         Extra fields.\n                           [default: {}]\n';
    expect(option(help, 'filename')?.default).toBe('{}.csv');
    expect(option(help, 'extra')?.default).toBeNull();
  });

  it('Go flag `defaults to 4,194,304 (4 megabytes)`, `(default is 1,000)`: commas grouping thousands are one number', () => {
    const help =
      'Usage of rpc:\n  -max-msg-sz int\n    \tThe maximum size. If not specified, defaults to 4,194,304 (4 megabytes).\n  -max-items int\n    \tThe most items (default is 1,000).\n';
    expect(option(help, 'max-msg-sz')?.default).toBe(4194304);
    expect(option(help, 'max-items')?.default).toBe(1000);
  });

  it('`The default template is `{{>main}}`.`: a code span quotes the default as quotes do', () => {
    const help = USAGE(' -t, --template <file>   A custom handlebars template file. The default template is `{{>main}}`.\n');
    expect(option(help, 'template')?.default).toBe('{{>main}}');
  });
});

describe('names', () => {
  it('command-line-usage: a `Synopsis` title flush left, a blank line, then `$ prog …` forms indented: the forms name the program, not the header', () => {
    const help =
      '\njsdoc-to-markdown\n\n  Generates markdown documentation.\n\nSynopsis\n\n  $ jsdoc2md <jsdoc-options> [<dmd-options>]\n  $ jsdoc2md --help\n\nGeneral options\n\n  -h, --help    Print usage information\n  --json        Prints the data.\n';
    expect(parseHelp(help).name).toBe('jsdoc2md');
  });
});
