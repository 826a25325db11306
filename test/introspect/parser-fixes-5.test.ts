/**
 * Notations met in parser fixes round 5 (issue 12), each pinned on a minimal help. First the
 * defaults that are no value (an invented default is worse than a missing one): prose after
 * `defaults to`, computed defaults (`process.cwd()`, `cwd`).
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('defaults that are no value', () => {
  it('argparse `(defaults to executing all tests)` is prose; `defaults to 5 seconds` and `(defaults to low)` are values', () => {
    const help =
      'usage: scan [-h] [-p PROFILE] [-w WAIT] [-l LEVEL]\n\noptions:\n  -p PROFILE, --profile PROFILE\n                        profile to use (defaults to executing all tests)\n  -w WAIT, --wait WAIT  wait; defaults to 5 seconds\n  -l LEVEL, --level LEVEL\n                        level (defaults to low)\n';
    expect(option(help, 'profile')?.default).toBeNull();
    expect(option(help, 'wait')?.default).toBe(5);
    expect(option(help, 'level')?.default).toBe('low');
  });

  it("click `Defaults to OpenSSL's safe defaults.` is prose", () => {
    const help = "Usage: serve [OPTIONS]\n\nOptions:\n  --ssl-ciphers TEXT  Ciphers to use. Defaults to OpenSSL's safe defaults.\n  --mode TEXT         Mode. Defaults to fast.\n  --level TEXT        Level. Defaults to low. Set it higher for more.\n";
    expect(option(help, 'ssl-ciphers')?.default).toBeNull();
    expect(option(help, 'mode')?.default).toBe('fast');
    expect(option(help, 'level')?.default).toBe('low');
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

  it("GNU date `FMT='date' for date only (the default), 'hours', or 'ns'`: quoted alternatives after `=`, the described default", () => {
    const help =
      "Usage: date [OPTION]... [+FORMAT]\n\n  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.\n                               FMT='date' for date only (the default),\n                               'hours', 'minutes', 'seconds', or 'ns'\n                               for date and time to the indicated precision.\n      --rfc-3339=FMT         output date/time in RFC 3339 format.\n                               FMT='date', 'seconds', or 'ns'\n                               for date and time to the indicated precision.\n";
    expect(option(help, 'iso-8601')).toMatchObject({ choices: ['date', 'hours', 'minutes', 'seconds', 'ns'], default: 'date' });
    expect(option(help, 'rfc-3339')).toMatchObject({ choices: ['date', 'seconds', 'ns'], default: null });
  });

  it('pflag `[auto|yaml|json] parse format` opening the description, and cobra `("tarball", "legacy", or "oci")`', () => {
    const help =
      'Usage:\n  conv [flags]\n\nFlags:\n  -p, --input-format string   [auto|a|yaml|y|json] parse format for input. (default "auto")\n      --format string         Format in which to save images ("tarball", "legacy", or "oci") (default "tarball")\n      --name string           Name ("x", "y")\n';
    expect(option(help, 'input-format')).toMatchObject({ choices: ['auto', 'a', 'yaml', 'y', 'json'], default: 'auto' });
    expect(option(help, 'format')).toMatchObject({ choices: ['tarball', 'legacy', 'oci'], default: 'tarball' });
    expect(option(help, 'name')?.choices).toBeNull();
  });

  it("Go flag `(valid choices are 'stylish', 'text' and 'json')` and urfave `currently json, yaml and binary are supported.`", () => {
    const go = "Usage of check:\n  -f format\n    \tOutput format (valid choices are 'stylish', 'text' and 'json') (default text)\n  -tags string\n    \tbuild tags\n";
    expect(option(go, 'f')).toMatchObject({ choices: ['stylish', 'text', 'json'], default: 'text' });
    const urfave =
      'USAGE:\n   enc [command options] file\n\nOPTIONS:\n   --input-type value   currently json, yaml, dotenv and binary are supported. If not set, the extension is used\n   --config value       config file; json and yaml are supported\n';
    expect(option(urfave, 'input-type')?.choices).toEqual(['json', 'yaml', 'dotenv', 'binary']);
    expect(option(urfave, 'config')?.choices).toBeNull();
  });
});

describe('value-taking in hand-written helps (meow, node parseArgs)', () => {
  const knip = [
    'Usage: lint [options]',
    '',
    'Options:',
    '  -c, --config [file]          Configuration file path',
    '      --cache-location         Change cache location (default: node_modules/.cache/lint)',
    '      --include                Include issue type(s), can be repeated (1)',
    '      --reporter               Select reporter (default: symbols) (2)',
    '      --max-issues             Maximum number of issues before failing (default: 0)',
    '      --max-show-issues        Maximum number of issues to display per type',
    '      --output-file            Write output to a file',
    '      --reporter-options       Pass extra options to the reporter (as JSON string, see example)',
    '      --tags                   Include or exclude tagged exports',
    '      --production             Analyze only production files',
    '      --no-exit-code           Always exit with code zero (0)',
    '',
    '(1) Issue types: files, exports, types',
    '(2) Built-in reporters: symbols (default), compact, json',
    '',
    'Examples:',
    '$ lint --production',
    '$ lint --output-file json=out.json',
    '$ lint --tags=-internal',
  ].join('\n');

  it('a footnote `(1) Issue types: a, b, c` under a description ending in `(1)` lists its values', () => {
    expect(option(knip, 'include')).toMatchObject({ takes_value: true, choices: ['files', 'exports', 'types'] });
    // `Built-in reporters`: others may be given, so no choices; the stated default stays
    expect(option(knip, 'reporter')).toMatchObject({ takes_value: true, choices: null, default: 'symbols' });
    // `(0)` names no footnote
    expect(option(knip, 'no-exit-code')?.takes_value).toBe(false);
  });

  it('an example giving an option a value (`--tags=-internal`, or a word when no positionals are taken) says it takes one', () => {
    expect(option(knip, 'tags')?.takes_value).toBe(true);
    expect(option(knip, 'output-file')?.takes_value).toBe(true);
    expect(option(knip, 'production')?.takes_value).toBe(false);
  });

  it('where the list is shown to be incomplete, stated defaults and descriptions say a value is taken', () => {
    expect(option(knip, 'cache-location')).toMatchObject({ takes_value: true, default: 'node_modules/.cache/lint' });
    expect(option(knip, 'max-issues')).toMatchObject({ takes_value: true, default: 0 });
    expect(option(knip, 'max-show-issues')?.takes_value).toBe(true);
    expect(option(knip, 'reporter-options')?.takes_value).toBe(true);
  });

  it('a word after an option in an example is a positional when the usage takes some', () => {
    const help = 'Usage: fmt [options] <file>\n\nOptions:\n  -o, --out [file]   Output file\n  --verbose          Print more\n  --check            Check only\n  --fix              Fix\n  --quiet            Quiet\n\nExamples:\n$ fmt --verbose main.c\n';
    expect(option(help, 'verbose')?.takes_value).toBe(false);
  });

  it('meow: `--print-config=index.js` in an example, `Reporter to use`, and repeatable `pattern globs` take values', () => {
    const help = [
      '',
      '  Usage',
      '    $ lint [<file|glob> ...]',
      '',
      '  Options',
      '    --fix             Automagically fix issues',
      '    --reporter        Reporter to use',
      '    --print-config    Print the effective config for the given file',
      '    --quiet           Show only errors',
      '    --ignore          Ignore pattern globs, can be set multiple times',
      '    --cwd=<dir>       Working directory for files',
      '',
      '  Examples',
      '    $ lint --fix',
      '    $ lint --print-config=index.js',
      '',
    ].join('\n');
    expect(option(help, 'print-config')?.takes_value).toBe(true);
    expect(option(help, 'reporter')?.takes_value).toBe(true);
    expect(option(help, 'ignore')).toMatchObject({ takes_value: true, repeatable: true });
    expect(option(help, 'fix')?.takes_value).toBe(false);
    expect(option(help, 'quiet')?.takes_value).toBe(false);
  });
});

describe('epilogs', () => {
  it('GNU stat `The MODE argument of --cached can be: always, never, or default.` gives that option its choices', () => {
    const help =
      'Usage: stat [OPTION]... FILE...\n\n  -L, --dereference     follow links\n      --cached=MODE     specify how to use cached attributes\n  -c  --format=FORMAT   use the specified FORMAT\n\nThe MODE argument of --cached can be: always, never, or default.\n\nNote: see FORMAT, and more.\n';
    expect(option(help, 'cached')?.choices).toEqual(['always', 'never', 'default']);
    expect(option(help, 'format')?.choices).toBeNull();
  });
});

describe('rich panels (typer)', () => {
  it('an enum cell `<none|poetry|setup|pdm` wrapped onto `|uv>` in the next row is one list of choices', () => {
    const help = [
      ' Usage: gen [OPTIONS]',
      '',
      '╭─ Options ──────────────────────────────────────────────────────────────────╮',
      '│ --meta             <none|poetry|setup|pdm  The type of metadata            │',
      '│                    |uv>                    you want to generate.           │',
      '│                                            [default: poetry]               │',
      '│ --encoding         <str>                   Encoding [default: utf-8]       │',
      '│ --fast             <bool>                  Go fast                         │',
      '│ --help             <bool>                  Show this message and exit.     │',
      '╰────────────────────────────────────────────────────────────────────────────╯',
    ].join('\n');
    expect(option(help, 'meta')).toMatchObject({ takes_value: true, choices: ['none', 'poetry', 'setup', 'pdm', 'uv'], default: 'poetry' });
    expect(option(help, 'encoding')).toMatchObject({ takes_value: true, choices: null, default: 'utf-8' });
    expect(option(help, 'fast')?.takes_value).toBe(false);
  });
});

describe('defaults of flags', () => {
  it('`--no-deps … (default: False)` is off; `--no-splitting (default: true)` still names the positive', () => {
    const help =
      'usage: audit [-h] [--no-deps] [-v]\n\noptions:\n  --no-deps             do not resolve dependencies (default: False)\n  --no-splitting        Disable code splitting (default: true)\n  -v, --verbose         run with debug logging; supply multiple times to increase\n                        verbosity (default: 0)\n  -0 ... -9             compression preset; default is 6\n';
    expect(option(help, 'no-deps')?.default).toBe(false);
    expect(option(help, 'no-splitting')?.default).toBeNull();
    // a count starts at a number
    expect(option(help, 'verbose')).toMatchObject({ takes_value: false, repeatable: true, default: 0 });
    expect(option(help, '0')?.default).toBeNull();
  });
});

describe('busybox', () => {
  const help =
    'BusyBox v1.35.0 multi-call binary.\n\nUsage: sort [-nru] [-o FILE] [-k START[.OFS][OPTS][,END[.OFS][OPTS]] [-t CHAR] [FILE]...\n\nSort lines of text\n\n\t-o FILE\tOutput to FILE\n\t-V\tSort version\n\t-k START[,END]\tSort by key\n\t-t CHAR\tField separator\n';

  it('a usage form one `]` short (`[-k START[…][,END[…]]`) still shows the positionals after it', () => {
    expect(parseHelp(help).positionals).toMatchObject([{ name: 'FILE', required: false, variadic: true }]);
  });

  it('`-V  Sort version` is an option; `-V  Print version` is the version flag', () => {
    expect(option(help, 'V')).toBeDefined();
    expect(option(help.replace('Sort version', 'Print version'), 'V')).toBeUndefined();
    expect(option(help.replace('Sort version', 'Show the current version'), 'V')).toBeUndefined();
    expect(option(help.replace('Sort version', 'Version'), 'V')).toBeUndefined();
    expect(option(help.replace('Sort version', 'Set version'), 'V')).toBeDefined();
  });
});

describe('positionals named in the plural', () => {
  it('Go `[packages]` (a lower-case plural noun) takes several; GNU `PATTERNS` stays one argument', () => {
    expect(parseHelp('Usage: check [flags] [packages]\n\nFlags:\n  -tags string\n    \tbuild tags\n').positionals).toMatchObject([{ name: 'packages', required: false, variadic: true }]);
    expect(parseHelp('Usage: find [OPTION]... PATTERNS [FILE]...\n  -i, --ignore-case   ignore case\n').positionals[0]).toMatchObject({ name: 'PATTERNS', variadic: false });
    expect(parseHelp('Usage: show [flags] [status]\n\nFlags:\n  -v   verbose\n').positionals[0]).toMatchObject({ name: 'status', variadic: false });
  });

  it("GNU diff `FILES are 'FILE1 FILE2' or 'DIR1 DIR2'.` defines FILES as several words", () => {
    const help = "Usage: diff [OPTION]... FILES\nCompare FILES line by line.\n\n  -q, --brief   report only when files differ\n\nFILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE'.\n";
    expect(parseHelp(help).positionals).toMatchObject([{ name: 'FILES', required: true, variadic: true }]);
    expect(parseHelp(help.replace("FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE'.", "FILES are 'a' or 'b'.")).positionals[0]?.variadic).toBe(false);
  });
});

describe('yargs programs with commands', () => {
  it('a second bare form `nyc [options] [bin-to-instrument]` gives the root its positional; a wrapped `[output-file]` goes on with its command', () => {
    const help = [
      'cov [command] [options]',
      'cov [options] [bin-to-instrument]',
      '',
      'Commands:',
      '  cov check-coverage                 check whether coverage is within',
      '                                     thresholds provided',
      '  cov report                         run coverage report',
      '  cov merge <input-directory>        merge coverage output in a',
      '  [output-file]                      given folder',
      '',
      'Options:',
      '  --cwd      working directory            [string] [default: "/tmp"]',
      '  --all, -a  whether to include all files             [boolean] [default: false]',
      '',
    ].join('\n');
    const spec = parseHelp(help);
    expect(spec.subcommands.map((command) => command.name)).toEqual(['check-coverage', 'report', 'merge']);
    expect(spec.positionals).toMatchObject([{ name: 'bin-to-instrument', required: false, variadic: false }]);
    expect(spec.command_required).not.toBe(true);
  });
});

describe('subcommand paths in usage forms', () => {
  it('Go `gopls [flags] codeaction [codeaction-flags] filename[:line[:col]]`: the word before its own flags placeholder is the subcommand, the glued suffix part of the argument', () => {
    const spec = parseHelp('list code actions\n\nUsage:\n  gopls [flags] codeaction [codeaction-flags] filename[:line[:col]]\n\ncodeaction-flags:\n  -exec\n    \texecute the first matching code action\n');
    expect(spec.name).toBe('gopls_codeaction');
    expect(spec.positionals).toMatchObject([{ name: 'filename', required: true, variadic: false }]);
  });

  it('cobra `crane pull IMAGE TARBALL [flags]`: lower-case words before an upper-case placeholder are the command path', () => {
    const spec = parseHelp('Pull images\n\nUsage:\n  crane pull IMAGE TARBALL [flags]\n\nFlags:\n  -c, --cache_path string   Path to cache image layers\n  -h, --help                help for pull\n');
    expect(spec.name).toBe('crane_pull');
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['IMAGE', 'TARBALL']);
  });
});

describe('Pod::Usage (piconv)', () => {
  const help = [
    'conv [-f from_encoding] [-t to_encoding]',
    '      [-p|--perlqq] [-C N|-c] [-D]',
    '      [-s string|file...]',
    'conv -l',
    'Common options:',
    '  -f,--from from_encoding',
    '     when omitted, the current locale will be used',
    '  -s,--string string',
    '     "string" will be the input',
    '  -C N | -c           check the validity of the input',
    '  -D,--debug          show debug information',
    '  -p,--perlqq         transliterate missing characters',
    '',
  ].join('\n');

  it('`-C N | -c  check…` describes two options at once: -C takes a value, -c is a flag', () => {
    expect(option(help, 'C')).toMatchObject({ takes_value: true, description: 'check the validity of the input' });
    expect(option(help, 'c')).toMatchObject({ takes_value: false, description: 'check the validity of the input' });
  });

  it('a bare form wrapped onto deeper lines of groups goes on: `[-s string|file...]` shows the files', () => {
    expect(parseHelp(help).positionals).toMatchObject([{ name: 'file', required: false, variadic: true }]);
  });
});

describe('examples in a help with commands', () => {
  it('`tool --debug serve`: a listed command after a bare option is no value', () => {
    const help = 'Usage: tool [options]\n\nCommands:\n  serve     start the server\n  build     build it\n\nOptions:\n  --debug   show debug output\n  --quiet   say less\n  --out [dir]  output directory\n\nExamples:\n$ tool --debug serve\n';
    expect(option(help, 'debug')?.takes_value).toBe(false);
  });
});
