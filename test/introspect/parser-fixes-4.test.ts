/**
 * Notations met in parser fixes round 4 (issue 12), each pinned on a minimal help. First the
 * defaults that are no value (an invented default is worse than a missing one): environment
 * variables, prose in Go flag help, clap expressions cut at their comma, bracketed prose defaults,
 * and defaults naming another argument.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('defaults that are no value', () => {
  it('cobra `(default: $RESTIC_KEY_HINT)` names the environment variable the value comes from', () => {
    const help = 'Usage:\n  restic restore [flags]\n\nFlags:\n      --key-hint key   key ID of key to try decrypting first (default: $RESTIC_KEY_HINT)\n      --limit int      limit (default: 5)\n';
    expect(option(help, 'key-hint')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'limit')?.default).toBe(5);
  });

  it('Go flag prose (`defaults to stdout`, `defaults to the package of…`) is no default; `(default "x")` still is', () => {
    const help =
      'Usage of mockgen:\n  -destination string\n    \tOutput file; defaults to stdout.\n  -package string\n    \tPackage of the code; defaults to the package of the input.\n  -mode string\n    \tMode (default "fast")\n';
    expect(option(help, 'destination')?.default).toBeNull();
    expect(option(help, 'package')?.default).toBeNull();
    expect(option(help, 'mode')?.default).toBe('fast');
  });

  it('clap `[default: min(240, 1.5x keyint)]` is an expression, not `min(240`', () => {
    const help = 'OPTIONS:\n        --delay <DELAY>\n            Frames to spread the reservoir over [default: min(240, 1.5x keyint)]\n';
    expect(option(help, 'delay')?.default).toBeNull();
  });

  it('`[defaults to 0]` is 0, and `[defaults to stdout]` on an output file is the stream', () => {
    const help = 'OPTIONS:\n        --left <length>      Distance from the left edge [defaults to 0]\n    -o, --output <output>    Output filename [defaults to stdout]\n';
    expect(option(help, 'left')?.default).toBe(0);
    expect(option(help, 'output')?.default).toBeNull();
  });

  it('argparse `(default: SOURCE_DIR)` / `(default: OUTPUT_DIR/.doctrees)` name positionals: computed, no value', () => {
    const help =
      'usage: build [OPTIONS] SOURCE_DIR OUTPUT_DIR\n\npositional arguments:\n  SOURCE_DIR            source files\n  OUTPUT_DIR            output directory\n\noptions:\n  --conf-dir PATH, -c PATH\n                        directory of conf.py (default: SOURCE_DIR)\n  --doctree-dir PATH    doctree files (default: OUTPUT_DIR/.doctrees)\n  --builder BUILDER     builder to use (default: html)\n';
    expect(option(help, 'conf-dir')?.default).toBeNull();
    expect(option(help, 'doctree-dir')?.default).toBeNull();
    expect(option(help, 'builder')?.default).toBe('html');
  });
});

describe('GNU patch', () => {
  it('`-p NUM  --strip=NUM  Strip…`: a long column repeating the short placeholder is the same option', () => {
    const help = 'Usage: patch [OPTION]...\n\n  -p NUM  --strip=NUM  Strip NUM leading components.\n  -F LINES  --fuzz LINES  Set the fuzz factor.\n  -l  --ignore-whitespace  Ignore white space.\n';
    expect(option(help, 'strip')).toMatchObject({ short: 'p', takes_value: true });
    expect(option(help, 'fuzz')).toMatchObject({ short: 'F', takes_value: true });
    expect(parseHelp(help).options.filter((candidate) => candidate.long === null)).toEqual([]);
  });

  it('quoted alternatives in prose (`\'context\' or \'unified\'`, `\'warn\' (default)`) are choices and the marked default', () => {
    const help =
      "Usage: patch [OPTION]...\n\n  --reject-format=FORMAT  Create 'context' or 'unified' rejects.\n  --read-only=BEHAVIOR  How to handle read-only input files: 'ignore' that they\n                        are read-only, 'warn' (default), or 'fail'.\n";
    expect(option(help, 'reject-format')?.choices).toEqual(['context', 'unified']);
    expect(option(help, 'read-only')).toMatchObject({ choices: ['ignore', 'warn', 'fail'], default: 'warn' });
  });

  it('`Valid WORDs are: a, b, c` two columns under the head: the plural of the value name lists the choices', () => {
    const help = 'Usage: patch [OPTION]...\n\n  --quoting-style=WORD   output file names using quoting style WORD.\n    Valid WORDs are: literal, shell, c, escape.\n  --binary  Binary mode.\n';
    expect(option(help, 'quoting-style')?.choices).toEqual(['literal', 'shell', 'c', 'escape']);
    expect(option(help, 'binary')?.takes_value).toBe(false);
  });
});

describe('cobra / pflag', () => {
  it('a custom value type (`FileMode`, `SizeSuffix`) is the placeholder; `(default 0777)` is an octal mode kept as text', () => {
    const help = 'Usage:\n  srv [flags]\n\nFlags:\n      --dir-perms FileMode        Directory permissions (default 0777)\n      --max-size SizeSuffix       Max total size (default off)\n      --no-seek                   Do not seek\n';
    expect(option(help, 'dir-perms')).toMatchObject({ takes_value: true, default: '0777' });
    expect(option(help, 'max-size')).toMatchObject({ takes_value: true, default: 'off' });
    expect(option(help, 'no-seek')?.takes_value).toBe(false);
  });

  it('option lines quoted in the long description above `Usage:` are prose; the flags below it are the options', () => {
    const help =
      'Serve a remote.\n\n    --cache-dir string           Directory for caching.\n    --chunk-size SizeSuffix      Read in chunks (default 128M)\n\nUsage:\n  srv http remote:path [flags]\n\nFlags:\n      --chunk-size SizeSuffix   Read in chunks (default 128Mi)\n\nUse "srv [command] --help" for more information about a command.\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => candidate.long)).toEqual(['chunk-size']);
    expect(option(help, 'chunk-size')?.default).toBe('128Mi');
  });

  it('`Cache mode off|minimal|writes|full (default off)`: a bare pipe list inside the sentence gives the choices', () => {
    const help = 'Usage:\n  srv [flags]\n\nFlags:\n      --cache-mode CacheMode   Cache mode off|minimal|writes|full (default off)\n';
    expect(option(help, 'cache-mode')).toMatchObject({ choices: ['off', 'minimal', 'writes', 'full'], default: 'off' });
  });
});

describe('helps that show no placeholder', () => {
  const bare = (rows: string): string => `Usage: app [options]\n\nOptions:\n  --json        Output results to JSON\n  --quiet       Suppress messages\n  --verbose     Say more\n  --dry-run     Change nothing\n${rows}  --help        Show this help message  [boolean]\n`;

  it('yargs with tags only on booleans: `A config file to be parsed`, `Comma separated … list` name a value', () => {
    const help = bare('  --config      A config file to be parsed\n  --ignores     Comma separated package list to ignore\n');
    expect(option(help, 'config')?.takes_value).toBe(true);
    expect(option(help, 'ignores')?.takes_value).toBe(true);
    expect(option(help, 'json')?.takes_value).toBe(false);
  });

  it('sade: a stated default other than a boolean (`(default localhost)`) makes the option take a value; `(default true)` stays a flag', () => {
    const help = bare('  -H, --host    Hostname to bind  (default localhost)\n  -G, --gzip    Send precompiled files  (default true)\n');
    expect(option(help, 'host')).toMatchObject({ takes_value: true, default: 'localhost' });
    expect(option(help, 'gzip')?.takes_value).toBe(false);
  });

  it('sade: `… value (sec)`, `Passphrase to decrypt…`, `Any URL pattern(s) to ignore` name a value; `Allow patterns to match…` does not', () => {
    const help = bare('  -m, --maxage  Define its "max-age" value (sec)\n  -P, --pass    Passphrase to decrypt a key\n  -I, --ignores Any URL pattern(s) to ignore\n  --dot         Allow patterns to match dotfiles\n');
    expect(option(help, 'maxage')?.takes_value).toBe(true);
    expect(option(help, 'pass')?.takes_value).toBe(true);
    expect(option(help, 'ignores')?.takes_value).toBe(true);
    expect(option(help, 'dot')?.takes_value).toBe(false);
  });

  it('citty: `Custom Authorization token to use…` names a value', () => {
    const help = bare('  --auth        Custom Authorization token to use for downloading\n');
    expect(option(help, 'auth')?.takes_value).toBe(true);
  });
});

describe('clap', () => {
  it('`[default:  0 for s0-s9, 1 for s10] [default: 1]`: the later one-word default outranks the first in prose', () => {
    const help = 'OPTIONS:\n        --scd_speed <SPEED>\n            Speed level [default:  0 for s0-s9, 1 for s10] [default: 1]\n';
    expect(option(help, 'scd_speed')?.default).toBe(1);
  });
});

describe('flags on by default', () => {
  it('click `--clean / --dirty   Remove old files … (the default).`: the first spelling is in effect', () => {
    const help = 'Usage: mkdocs build [OPTIONS]\n\nOptions:\n  -c, --clean / --dirty  Remove old files before building (the\n                         default).\n  -s, --strict / --no-strict  Fail on warnings.\n';
    expect(option(help, 'clean')).toMatchObject({ takes_value: false, default: true });
    expect(option(help, 'strict')?.default).toBeNull();
  });

  it('RubyGems `Defaults:` section: `--local` is on, `--no-details` is off; a section holding anything else says nothing', () => {
    const options = '  Options:\n    -d, --[no-]details               Display details\n    -l, --local                      Restrict to local\n    -r, --remote                     Restrict to remote\n';
    const help = `Usage: gem list [options]\n\n${options}\n  Defaults:\n    --local --no-details\n`;
    expect(option(help, 'local')?.default).toBe(true);
    expect(option(help, 'details')?.default).toBe(false);
    expect(option(help, 'remote')?.default).toBeNull();
    const prose = `Usage: gem list [options]\n\n${options}\n  Defaults:\n    --local unless --remote is given\n`;
    expect(option(prose, 'local')?.default).toBeNull();
  });
});

describe('optparse prose', () => {
  it('`either text (default), markdown, or total.`: the choices without the marker or the period, the marked one the default', () => {
    const help = 'Usage: coverage report [options]\n\nOptions:\n  --format=FORMAT       Output format, either text (default), markdown, or total.\n';
    expect(option(help, 'format')).toMatchObject({ choices: ['text', 'markdown', 'total'], default: 'text' });
  });

  it('`Default is name.` as a sentence of its own is the default; `Default is the first one.` is prose', () => {
    const help = 'Usage: coverage report [options]\n\nOptions:\n  --sort=COLUMN         Sort by the named column: name, stmts, or cover. Default is name.\n  --pick=WHICH          Pick one. Default is the first one.\n';
    expect(option(help, 'sort')?.default).toBe('name');
    expect(option(help, 'pick')?.default).toBeNull();
  });
});

describe('argparse lower-case metavars', () => {
  it('`-j n, --jobs n`, `--define setting=value, -D setting=value`: a word repeated after the next spelling is the value', () => {
    const help =
      'usage: app [-h]\n\noptions:\n  -j n, --jobs n        number of parallel jobs\n  --define setting=value, -D setting=value\n                        override a setting\n  -r, --recursive       run recursively\n';
    expect(option(help, 'jobs')).toMatchObject({ short: 'j', takes_value: true, value_name: 'n' });
    expect(option(help, 'define')).toMatchObject({ short: 'D', takes_value: true });
    expect(option(help, 'recursive')?.takes_value).toBe(false);
  });

  it('`--line-range line line, --range line line` takes two values', () => {
    const help = 'usage: app [-h]\n\noptions:\n  --line-range line line, --range line line\n                        only fix errors within this range\n';
    expect(option(help, 'line-range')).toMatchObject({ takes_value: true, value_count: 2 });
  });
});

describe('citty', () => {
  const help =
    'Download templates (giget v2.0.0)\n\nUSAGE giget [OPTIONS] <TEMPLATE> [DIR]\n\nARGUMENTS\n\n  TEMPLATE    Template name or a URI\n       DIR    A relative or absolute path\n\nOPTIONS\n\n     --force    Clone to existing directory\n';

  it('`USAGE giget [OPTIONS] <TEMPLATE> [DIR]`: a capital title with the form on its line is the usage', () => {
    expect(parseHelp(help).name).toBe('giget');
  });

  it('right-aligned argument names: each line whose text starts at the description column is an argument of its own', () => {
    expect(parseHelp(help).positionals.map(({ name, required }) => ({ name, required }))).toEqual([
      { name: 'TEMPLATE', required: true },
      { name: 'DIR', required: false },
    ]);
    expect(option(help, 'force')?.takes_value).toBe(false);
  });
});

describe('usage forms and titles', () => {
  it('cobra `rclone serve http remote:path [flags]`: a `kind:part` word ends the subcommand path and is the positional', () => {
    const spec = parseHelp('Serve a remote.\n\nUsage:\n  rclone serve http remote:path [flags]\n\nFlags:\n      --addr string   IP address to bind to\n');
    expect(spec.name).toBe('rclone_serve_http');
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['remote:path']);
  });

  it('clipanion `━━━ Options ━━━━` titles and `--mode #0` placeholders', () => {
    const help = 'Add dependencies\n\n━━━ Usage ━━━━━━━━━━━━━━━━━━━━\n\n$ yarn add ...\n\n━━━ Options ━━━━━━━━━━━━━━━━━━\n\n  --json              Format the output as NDJSON\n  --mode #0           Change what artifacts installs generate\n';
    expect(option(help, 'mode')).toMatchObject({ takes_value: true });
    expect(option(help, 'json')?.takes_value).toBe(false);
    // the form's words before its lone ellipsis are the command path (corpus clipanion-yarn-add: `yarn add`)
    expect(parseHelp(help).name).toBe('yarn_add');
  });
});

describe('pflag key=value placeholder', () => {
  it('`-o, --option key=value` takes a value, and the options under it stay options of their own', () => {
    const help =
      'Usage:\n  restic restore [flags]\n\nFlags:\n  -o, --option key=value           set extended option (key=value, can be specified multiple times)\n      --pack-size uint             set target pack size in MiB\n  -q, --quiet                      do not output progress\n';
    expect(option(help, 'option')).toMatchObject({ short: 'o', takes_value: true, repeatable: true });
    expect(option(help, 'pack-size')?.takes_value).toBe(true);
    expect(option(help, 'quiet')?.takes_value).toBe(false);
  });
});

describe('value lists and Go flag sets', () => {
  it('commander `(dot/neato/fdp/sfdp)`: three or more values joined by slashes in parentheses', () => {
    const help = 'Usage: madge [options]\n\nOptions:\n  -l, --layout <name>      layout engine to use for graph\n                           (dot/neato/fdp/sfdp)\n  --mode <x>               read (and/or) write\n';
    expect(option(help, 'layout')?.choices).toEqual(['dot', 'neato', 'fdp', 'sfdp']);
    expect(option(help, 'mode')?.choices).toBeNull();
  });

  it('Go `Usage of vegeta attack:` names the program with its path; `[http, json] (default "http")` lists the choices; a `value` flag takes its type from the default', () => {
    const help =
      'Usage of vegeta attack:\n  -format string\n    \tTargets format [http, json] (default "http")\n  -header value\n    \tRequest header [example: a, b]\n  -max-body value\n    \tMaximum bytes to capture (default -1)\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('vegeta_attack');
    expect(option(help, 'format')).toMatchObject({ choices: ['http', 'json'], default: 'http' });
    expect(option(help, 'header')?.choices).toBeNull();
    expect(option(help, 'max-body')).toMatchObject({ type: 'integer', default: -1 });
  });
});

describe('several usage forms', () => {
  it('findmnt: a first form without positionals makes the fullest agreeing later form optional', () => {
    const help = 'Usage:\n findmnt [options]\n findmnt [options] <device> | <mountpoint>\n findmnt [options] <device> <mountpoint>\n\nOptions:\n -s, --fstab   search in static table\n';
    expect(parseHelp(help).positionals.map(({ name, required }) => ({ name, required }))).toEqual([
      { name: 'device', required: false },
      { name: 'mountpoint', required: false },
    ]);
  });

  it('forms that are modes, each with positionals of their own (git branch), give none', () => {
    const help = 'usage: git branch [<options>] [-r | -a]\n   or: git branch [<options>] <branch-name> [<start-point>]\n   or: git branch [<options>] [-l] [<pattern>...]\n\n    -a, --all   list both\n';
    expect(parseHelp(help).positionals).toEqual([]);
  });
});

describe('BSD nc', () => {
  const help =
    'usage: nc [-46] [-X proxy_protocol]\n\t  [-x proxy_address[:port]] [destination] [port]\n\tCommand Summary:\n\t\t-4\t\tUse IPv4\n\t\t-X proto\tProxy protocol: "4", "5" (SOCKS) or "connect"\n\t\t-x addr[:port]\tSpecify proxy address and port\n';

  it('an indented `Command Summary:` title ends the wrapped usage form', () => {
    expect(parseHelp(help).positionals.map((positional) => positional.name)).toEqual(['destination', 'port']);
  });

  it('`-x addr[:port]` takes a value; a note in parentheses after a quoted item (`"5" (SOCKS)`) stays out of the list', () => {
    expect(option(help, 'x')?.takes_value).toBe(true);
    expect(option(help, 'X')?.choices).toEqual(['4', '5', 'connect']);
  });
});

describe('exa', () => {
  it('`--colo[u]r=WHEN`: letters in brackets inside a name spell the option and an alias', () => {
    const help = 'Usage:\n  exa [options] [files...]\n\nDISPLAY OPTIONS\n  -1, --oneline      display one entry per line\n  --colo[u]r=WHEN    when to use terminal colours (always, auto, never)\n  --colo[u]r-scale   highlight levels of file sizes distinctly\n';
    expect(option(help, 'color')).toMatchObject({ aliases: ['--colour'], takes_value: true, choices: ['always', 'auto', 'never'] });
    expect(option(help, 'color-scale')).toMatchObject({ aliases: ['--colour-scale'], takes_value: false });
    expect(option(help, 'colo')).toBeUndefined();
  });
});

describe('clipanion details', () => {
  it('a paragraph naming `` `--mode=<mode>` `` over bullet paragraphs `- `skip-build` …` lists the choices', () => {
    const help =
      'Add dependencies\n\n━━━ Usage ━━━━━━━━━━━━━━━━━━━━\n\n$ yarn add ...\n\n━━━ Options ━━━━━━━━━━━━━━━━━━\n\n  --json              Format the output as NDJSON\n  --mode #0           Change what artifacts installs generate\n\n━━━ Details ━━━━━━━━━━━━━━━━━━\n\nIf the `--mode=<mode>` option is set, Yarn will change which artifacts are\ngenerated. The modes currently supported are:\n\n- `skip-build` will not run the build scripts at all. Note that\n  this is different.\n\n- `update-lockfile` will skip the link step altogether.\n\nFor more, see the website.\n';
    expect(option(help, 'mode')?.choices).toEqual(['skip-build', 'update-lockfile']);
  });
});
