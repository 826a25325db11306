/**
 * Notations met in parser fixes round 10 (issue 12), each pinned on a minimal help. First the
 * choices that are no closed set (an invented enum refuses values the program takes), then
 * value-taking, choices, defaults, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('choices that are no closed set', () => {
  it('yargs `[choices: "number", "integer"]` is a closed list even of type names; prose `(string | null)` stays open', () => {
    const help =
      'Options:\n      --numberType   Default number type.\n                     [choices: "number", "integer"] [default: "number"]\n      --parser <p>   The parser (string | null)\n';
    expect(option(help, 'numberType')).toMatchObject({ choices: ['number', 'integer'], default: 'number' });
    expect(option(help, 'parser')?.choices).toBeNull();
  });

  it('pflag `(facilities, equipment, accounting, etc.)`: a list ending in `etc.` names examples, and the default still counts', () => {
    const help =
      'Usage:\n  scc [flags] [files or directories]\n\nFlags:\n      --overhead float   set the overhead multiplier for corporate overhead (facilities, equipment, accounting, etc.) (default 2.4)\n      --sort string      column to sort by (files, name, lines) (default "files")\n';
    expect(option(help, 'overhead')?.choices).toBeNull();
    expect(option(help, 'overhead')?.default).toBe(2.4);
    expect(option(help, 'sort')?.choices).toEqual(['files', 'name', 'lines']);
  });
});

describe('names', () => {
  it('lipgloss `  USAGE` indented alone, a blank line, then the forms: the forms name the program', () => {
    const help =
      '\n  Generate images of code.\n\n  USAGE\n\n     freeze main.go [-o code.svg] [--flags]\n\n  SETTINGS\n     -v --version     Display the version.\n     -i --interactive Use an interactive form.\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('freeze');
    expect(spec.options.find((candidate) => candidate.long === 'interactive')?.short).toBe('i');
  });
});

describe('value-taking', () => {
  it('a usage form `[-o code.svg]` in a help without placeholders: one bracket group holds the option and its value', () => {
    const help = 'Usage:\n  shot main.go [-o code.svg] [-v]\n\nOptions:\n  -o, --output   Output location.\n  -v, --verbose  Be verbose.\n';
    expect(option(help, 'output')?.takes_value).toBe(true);
    expect(option(help, 'verbose')?.takes_value).toBe(false);
  });
});

describe('positionals', () => {
  it('`  or   prog …` (no colon) is one more form; what it requires past the first form\'s positionals is optional', () => {
    const help =
      'Usage: vault -init|-info [OPTIONS] CIPHERDIR\n  or   vault [OPTIONS] CIPHERDIR MOUNTPOINT\n\nOptions:\n  -init   Initialize\n  -info   Show information\n';
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required])).toEqual([
      ['CIPHERDIR', true],
      ['MOUNTPOINT', false],
    ]);
  });
});

describe('getopt hand-written lists (timeit)', () => {
  it('`-u/--unit: set the output time unit (nsec, usec, msec, or sec)`: a value, one of those; `use colors (on or off)` stays a flag', () => {
    const help =
      'Command line usage:\n    python timeit.py [-n N] [-u]\n\nOptions:\n  -n/--number N: how many times\n  -u/--unit: set the output time unit (nsec, usec, msec, or sec)\n  -c/--color: use colors (on or off)\n';
    expect(option(help, 'unit')).toMatchObject({ takes_value: true, choices: ['nsec', 'usec', 'msec', 'sec'] });
    expect(option(help, 'color')?.takes_value).toBe(false);
  });

  it('`Command line usage:` titles the form; `python timeit.py` names the script; `-n/--number N:` is one option', () => {
    const help =
      'Tool for measuring.\n\nCommand line usage:\n    python timeit.py [-n N] [-p] [--] [statement]\n\nOptions:\n  -n/--number N: how many times to execute (default 5)\n  -p/--process: use time.process_time()\n  -h/--help: print this usage message and exit\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('timeit');
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['statement']);
    expect(option(help, 'number')).toMatchObject({ short: 'n', takes_value: true, default: 5 });
    expect(option(help, 'process')).toMatchObject({ short: 'p', takes_value: false });
  });
});

describe('Pod::Usage (podchecker)', () => {
  it('`[-help]` names the listed `-help` (no cluster of -h -e -l -p); `[-(no)warnings]` is the flag, no positionals', () => {
    const help =
      'Usage:\n    check [-help] [-man] [-(no)warnings] [file ...]\n\nOptions and Arguments:\n    -help   Print a brief help message and exit.\n\n    -man    Print the manual page and exit.\n\n    -warnings -nowarnings\n            Turn on/off printing of warnings.\n\n    file    The pathname of a file to check.\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => candidate.long ?? candidate.short).sort()).toEqual(['man', 'warnings']);
    expect(option(help, 'warnings')?.takes_value).toBe(false);
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['file']);
  });
});

describe('Pod::Usage (pod2text)', () => {
  it('`"die" says to throw … "stderr" says to report … "none" ignores …`: quoted words opening sentences are the choices', () => {
    const help =
      'Usage:\n    fmt [--errors=style]\n\nOptions:\n    --errors=style\n        Set the error handling style. "die" says to throw an exception. "stderr" says to report errors on\n        standard error. "none" ignores errors entirely.\n\n        The default is "die".\n\n    --quotes=quotes\n        Sets the quote marks. "none" means no marks, as in "a" or "b".\n';
    expect(option(help, 'errors')).toMatchObject({ choices: ['die', 'stderr', 'none'], default: 'die' });
    expect(option(help, 'quotes')?.choices).toBeNull();
  });

  it('`--errors=style` described as "the error handling style" names the value: no one-value enum, the default counts', () => {
    const help =
      'Usage:\n    fmt [--errors=style]\n\nOptions:\n    --errors=style\n        Set the error handling style. "die" says to throw.\n\n        The default is "die".\n\n    --format=zstd\n        Compress to the .zst format.\n';
    expect(option(help, 'errors')).toMatchObject({ takes_value: true, choices: null, default: 'die' });
    expect(option(help, 'format')?.choices).toEqual(['zstd']);
  });

  it('`-m width, --left-margin=width, --margin=width`: the lower-case value repeated attached to the next spelling', () => {
    const help = 'Usage:\n    fmt [-m width]\n\nOptions:\n    -m width, --left-margin=width, --margin=width\n        The width of the left margin in spaces.\n';
    expect(option(help, 'left-margin')).toMatchObject({ short: 'm', takes_value: true });
  });

  it('a form wrapped at its own indent (`    [--nourls] [-w width] [input [output ...]]`) goes on with the form', () => {
    const help = 'Usage:\n    fmt [-a] [-q quotes]\n    [--nourls] [input [output ...]]\n\n    fmt -h\n\nOptions:\n    -a  Alternate.\n';
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([
      ['input', false, false],
      ['output', false, true],
    ]);
  });
});

describe('urfave/cli', () => {
  it('the generic `[global options] command [command options] [arguments...]` form gives way to the form under `NAME:`', () => {
    const help =
      'NAME:\n   jp - jp [<options>] <expression>\n\nUSAGE:\n   jp [global options] command [command options] [arguments...]\n\nCOMMANDS:\n   help, h  Shows a list of commands or help for one command\n\nGLOBAL OPTIONS:\n   --compact, -c   Compact output.\n   --help, -h      show help\n';
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required])).toEqual([['expression', true]]);
  });
});

describe('bare usage forms', () => {
  it('erb: a stray first line, then `erb [switches] [inputfile]` right over the option lines is the usage', () => {
    const help = 'print this help\nerb [switches] [inputfile]\n  -x               print ruby script\n  -r library       load a library\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('erb');
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['inputfile']);
  });
});

describe('hand-written option lists (xxd)', () => {
  it('`-h  print this summary.` and `-v  show version: …` stay out; `-r -s off` (a combination) gives `-r` no value', () => {
    const help =
      'Usage:\n       dump [options] [infile]\nOptions:\n    -h          print this summary.\n    -r          reverse operation.\n    -r -s off   revert with <off> added to file positions.\n    -s off      start at <off>.\n    -v          show version: "dump 2022".\n    -V          verbose listing of the versions found.\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => candidate.short).sort()).toEqual(['V', 'r', 's']);
    expect(option(help, 'r')?.takes_value).toBe(false);
    expect(option(help, 's')?.takes_value).toBe(true);
  });
});

describe('variadic positionals', () => {
  it('minify `[input]` with a section `Input:` opening `Files or directories, …` takes several; `Output:` opening `A file …` one', () => {
    const help =
      'Usage: mini [options] [input] [output]\n\nOptions:\n  -q, --quiet   Quiet\n\nInput:\n  Files or directories, leave blank to use stdin.\n\nOutput:\n  A file or directory to write to.\n';
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.variadic])).toEqual([
      ['input', true],
      ['output', false],
    ]);
  });

  it('GnuPG `Syntax: gpgv [options] [files]` is the usage form', () => {
    const help = 'gpgv (GnuPG) 2.2.40\n\nSyntax: gpgv [options] [files]\nCheck signatures against known trusted keys\n\nOptions:\n  -v, --verbose   verbose\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('gpgv');
    expect(spec.positionals.map((positional) => [positional.name, positional.variadic])).toEqual([['files', true]]);
  });
});

describe('helps without placeholders (sade)', () => {
  it('`The name of a database client driver` takes a value; `The migrations are dry-run` does not', () => {
    const help =
      '  Usage\n    $ ley new <filename> [options]\n\n  Options\n    -t, --timestamp    Prefix the filename with a timestamp\n    -l, --length       The length of prefix  (default 5)\n    -d, --dir          The directory of migration files  (default migrations)\n    -c, --config       Path to config file  (default ley.config.js)\n    -D, --driver       The name of a database client driver\n    -n, --dry          The migrations are dry-run\n    -h, --help         Displays this message\n';
    expect(option(help, 'driver')?.takes_value).toBe(true);
    expect(option(help, 'dry')?.takes_value).toBe(false);
  });
});

describe('defaults', () => {
  it('click `defaults to .env file in current working directory`: a file name the noun `file` follows is the default; `defaults to executing all tests` is prose', () => {
    const help =
      'Usage: env [OPTIONS]\n\nOptions:\n  -f, --file PATH   Location of the .env file, defaults to .env\n                    file in current working directory.\n  -t, --tests TEXT  Tests to run, defaults to executing all tests.\n';
    expect(option(help, 'file')?.default).toBe('.env');
    expect(option(help, 'tests')?.default).toBeNull();
  });

  it('click `Default mode is always.` (a noun naming the value between): the default', () => {
    const help = 'Usage: env [OPTIONS]\n\nOptions:\n  -q, --quote [always|never|auto]\n                  Whether to quote or not the variable values.\n                  Default mode is always. This does not affect\n                  parsing.\n';
    expect(option(help, 'quote')).toMatchObject({ choices: ['always', 'never', 'auto'], default: 'always' });
  });

  it('commander `(Default: 0.8, Min: 0, Max: 1)`: another `Key:` in the group ends the default', () => {
    const help = 'Usage: obf [options]\n\nOptions:\n  --threshold <number>   The probability of insertion (Default: 0.8, Min: 0, Max: 1)\n';
    expect(option(help, 'threshold')?.default).toBe(0.8);
  });
});

describe('choices', () => {
  it('citty `--jsxFragment=<Fragment|React.Fragment>`: values in mixed case are choices; `<KEY|PATH>` is a placeholder', () => {
    const help = 'USAGE mk [OPTIONS]\n\nOPTIONS\n\n  --jsxFragment=<Fragment|React.Fragment>    JSX fragment\n          --input=<KEY|PATH>    Input\n';
    expect(option(help, 'jsxFragment')?.choices).toEqual(['Fragment', 'React.Fragment']);
    expect(option(help, 'input')).toMatchObject({ takes_value: true, choices: null });
  });

  it('argparse `Specify mode between [jupyter (default) | zeppelin]`: the marked item of a bracketed `|` list is the default', () => {
    const help = 'usage: strip [-h] [--mode {jupyter,zeppelin}]\n\noptions:\n  --mode {jupyter,zeppelin}, -m {jupyter,zeppelin}\n                        Specify mode between [jupyter (default) | zeppelin] (to be used in\n                        combination with -f)\n';
    expect(option(help, 'mode')).toMatchObject({ choices: ['jupyter', 'zeppelin'], default: 'jupyter' });
  });
});

describe('hand-written helps (freeze): description cues once the placeholders are shown incomplete', () => {
  const help =
    '\n  Shoot code.\n\n  USAGE\n\n     shot main.go [-o code.svg] [--flags]\n\n  SETTINGS\n     -o --output            Output location.\n     -c --config            Base configuration file or template.\n     -l --language          Language of code file.\n     -t --theme             Theme to use for syntax highlighting.\n     -W --width             Width of terminal window.\n        --font.file         Font file to embed.\n     -w --wrap              Wrap lines at a specific width.\n        --line-height       Line height relative to font size.\n        --lines             Lines to capture (start,end).\n        --font.ligatures    Use ligatures in the font.\n        --window            Display window controls.\n';

  it.each(['config', 'language', 'theme', 'width', 'font.file', 'wrap', 'line-height', 'lines'])('%s takes a value', (name) => {
    expect(option(help, name)?.takes_value).toBe(true);
  });

  it.each(['font.ligatures', 'window'])('%s stays a flag', (name) => {
    expect(option(help, name)?.takes_value).toBe(false);
  });

  it('gocryptfs `Custom path to config file` in a help without placeholders takes a value', () => {
    const bare =
      'Usage: vault [OPTIONS] CIPHERDIR\n\nOptions:\n  -config            Custom path to config file\n  -fg                Stay in the foreground\n  -ro                Mount read-only\n  -q, -quiet         Silence informational messages\n  -reverse           Enable reverse mode\n  -speed             Run crypto speed test\n';
    expect(option(bare, 'config')?.takes_value).toBe(true);
    expect(option(bare, 'fg')?.takes_value).toBe(false);
  });

  it('gocryptfs `-hh  Long help text with all options` is help; `-init  Initialize encrypted directory` a flag', () => {
    const bare =
      'Usage: vault [OPTIONS] CIPHERDIR\n\nOptions:\n  -config            Custom path to config file\n  -fg                Stay in the foreground\n  -hh                Long help text with all options\n  -init              Initialize encrypted directory\n  -ro                Mount read-only\n  -q, -quiet         Silence informational messages\n  -reverse           Enable reverse mode\n';
    expect(option(bare, 'hh')).toBeUndefined();
    expect(option(bare, 'init')?.takes_value).toBe(false);
    expect(option(bare, 'config')?.takes_value).toBe(true);
  });

  it('gocryptfs `after specified idle duration`, `at location`, `from plain text file(s)` take values in a help without placeholders', () => {
    const bare =
      'Usage: vault [OPTIONS] CIPHERDIR\n\nOptions:\n  -idle              Unmount automatically after specified idle duration\n  -ctlsock           Create control socket at location\n  -passfile          Read password from plain text file(s)\n  -fg                Stay in the foreground\n  -ro                Mount read-only\n  -reverse           Enable reverse mode\n';
    for (const name of ['idle', 'ctlsock', 'passfile']) expect(option(bare, name)?.takes_value).toBe(true);
    for (const name of ['fg', 'ro', 'reverse']) expect(option(bare, name)?.takes_value).toBe(false);
  });
});

describe('citty', () => {
  it('a string option without hint or default is printed bare: `--cwd  Current working directory` takes a value, `--force  Override existing directory` does not', () => {
    const help =
      'Transformer (mk v1)\n\nUSAGE mk [OPTIONS] [DIR]\n\nOPTIONS\n\n       --cwd    Current working directory\n  --src="src"    Source directory\n   -f, --force    Override existing directory\n     --minify    Minify output files\n  --dist="dist"    Destination directory\n';
    expect(option(help, 'cwd')?.takes_value).toBe(true);
    expect(option(help, 'force')?.takes_value).toBe(false);
    expect(option(help, 'minify')?.takes_value).toBe(false);
  });
});

