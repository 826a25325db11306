/**
 * Notations met in parser fixes round 11 (issue 12), each pinned on a minimal help. First the
 * choices that are no closed set (an invented enum refuses values the program takes), then
 * value-taking, choices, defaults, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('choices that are no closed set', () => {
  it('optparse `--select=errors  select errors and warnings`: a lower-case metavar the same line uses as a noun is a placeholder', () => {
    const help =
      'Usage: lint [options] input ...\n\nOptions:\n  --select=errors      select errors and warnings (e.g. E,W6)\n  --exclude=patterns   exclude files which match these patterns\n                       (default: .svn,CVS)\n  --sourcemap=inline   Emit the source map with an inline data URL\n';
    expect(option(help, 'select')).toMatchObject({ takes_value: true, choices: null, value_name: 'errors' });
    expect(option(help, 'exclude')).toMatchObject({ choices: null, default: '.svn,CVS' });
    // an adjective before a noun is no placeholder: the literal value spelling stays one choice
    expect(option(help, 'sourcemap')?.choices).toEqual(['inline']);
  });
});

describe('choices', () => {
  it('argparse `… language LANG, choices are "python", "php"`: `choices are` after a comma', () => {
    const help = 'usage: fmt [OPTIONS] FILE\n\noptions:\n  -l LANG, --language LANG\n                        output a snippet in programming language LANG, choices are "python", "php"\n';
    expect(option(help, 'language')?.choices).toEqual(['python', 'php']);
  });
});

describe('defaults', () => {
  it("argp `WHEN defaults to 'always' or can be 'auto' or 'never'`: the default is one of the values, `or can be` no alternative default", () => {
    const help =
      "Usage: nm [OPTION...] [FILE...]\n\n      --color[=WHEN]         colorize the output.  WHEN defaults to 'always' or\n                             can be 'auto' or 'never'\n  -C, --demangle             Decode names\n";
    expect(option(help, 'color')).toMatchObject({ choices: ['always', 'auto', 'never'], default: 'always' });
    // a default named as one of two alternatives stays none
    const alternatives = "Usage: x [OPTION...]\n\n      --key=K   sort key, defaults to 'index' or 'name' by locale\n";
    expect(option(alternatives, 'key')?.default).toBeNull();
  });
});

describe('defaults with a unit or a gloss', () => {
  it('docopt `(default: 15 seconds)` on `<seconds>`, `(in milliseconds) … (default: 200 ms)`, `(default: 0, disabled)`', () => {
    const help =
      'Usage:\n  up [--timeout=<seconds>] [--min-age-days=<days>] [--spool=<delay>] [--size=<n>]\n\nOptions:\n    --timeout <seconds>    Set a custom timeout (default: 15 seconds).\n    --min-age-days <days>  Skip versions published less than <days> days ago (default: 0,\n                           disabled). Protects against bad packages.\n    --spool <delay>        Re-run after a delay (in milliseconds), allowing for\n                           more events to queue up (default: 200 ms).\n    --size <n>             Buffer size (default: 4 KiB).\n';
    expect(option(help, 'timeout')?.default).toBe(15);
    expect(option(help, 'min-age-days')?.default).toBe(0);
    expect(option(help, 'spool')?.default).toBe(200);
    // a unit the description does not name is no number to pass
    expect(option(help, 'size')?.default).toBeNull();
  });

  it('optparse `Host for web interface, default=127.0.0.1`: an address after `default=`', () => {
    const help = 'Usage: sqlite_web [options] /path/to/database.db\n\nOptions:\n  -H HOST, --host=HOST  Host for web interface, default=127.0.0.1\n';
    expect(option(help, 'host')?.default).toBe('127.0.0.1');
  });
});

describe('argparse bool values', () => {
  it('`--compact COMPACT  … (default False)`: a metavar repeating the name with a Python bool default is a bool value, off', () => {
    const help =
      'usage: fmt [--compact COMPACT] [--width WIDTH]\n\noptions:\n  --compact COMPACT     Try to produce more compact output (default False)\n  --width WIDTH         Line width (default: false)\n';
    expect(option(help, 'compact')).toMatchObject({ takes_value: true, type: 'boolean', default: false });
    // a lower-case `false` on a value of no stated type stays no default
    expect(option(help, 'width')?.default).toBeNull();
  });
});

describe('regular expression defaults', () => {
  it('argparse `(default: [!"#…~]{4,})`: a character class with its quantifier closing the description is one value, not a list', () => {
    const help =
      'usage: fmt [-h] [--adorns REGEX] [--skip PATTERNS]\n\noptions:\n  --adorns REGEX        regular expression for identifying adornments\n                        (default: [!"#$%&\'()*+,-./\\:;<=>?@[]^_`{|}~]{4,})\n  --skip PATTERNS       patterns to skip (default: [\'*.py\', \'*.txt\'])\n';
    expect(option(help, 'adorns')?.default).toBe('[!"#$%&\'()*+,-./\\:;<=>?@[]^_`{|}~]{4,}');
    expect(option(help, 'skip')?.default).toBeNull();
  });
});

describe('value-taking', () => {
  it('typer `--cli-plugin   <str>` with no description: the type cell ending the line names the value', () => {
    const help =
      ' Usage: codegen [OPTIONS]\n\n╭─ Options ──────────────────────────────╮\n│    --cli-plugin   <str>                │\n│    --verbose      <bool>  Be verbose.  │\n│    --help         <bool>  Show help.   │\n╰────────────────────────────────────────╯\n';
    expect(option(help, 'cli-plugin')?.takes_value).toBe(true);
    expect(option(help, 'verbose')?.takes_value).toBe(false);
  });

  it('click `--load-extension PATH:ENTRYPOINT?`: an upper-case metavar with a `?` (an optional part) is a placeholder', () => {
    const help = 'Usage: serve [OPTIONS]\n\nOptions:\n  --load-extension PATH:ENTRYPOINT?\n                        Path to a SQLite extension to load, and\n                        optional entrypoint\n  --help                Show this message and exit.\n';
    expect(option(help, 'load-extension')).toMatchObject({ takes_value: true, value_name: 'PATH:ENTRYPOINT?' });
  });
});

describe('names', () => {
  it('gawk two-column table: the long column repeats the short one\'s lower-case, quoted or glued optional placeholder', () => {
    const help =
      'Usage: gawk [POSIX or GNU style options] -f progfile [--] file ...\nPOSIX options:\t\tGNU long options: (standard)\n\t-f progfile\t\t--file=progfile\n\t-d[file]\t\t--dump-variables[=file]\n\t-e \'program-text\'\t--source=\'program-text\'\n\t-L[fatal|invalid]\t--lint[=fatal|invalid]\n\t-b\t\t\t--characters-as-bytes\n';
    expect(option(help, 'file')).toMatchObject({ short: 'f', takes_value: true });
    expect(option(help, 'dump-variables')).toMatchObject({ short: 'd', takes_value: true });
    expect(option(help, 'source')).toMatchObject({ short: 'e', takes_value: true });
    expect(option(help, 'lint')).toMatchObject({ short: 'L', choices: ['fatal', 'invalid'] });
    expect(option(help, 'characters-as-bytes')?.short).toBe('b');
  });
});

describe('options that are none', () => {
  it('click example `… \\` then `-p age 1`: a line after a shell line continuation is no option', () => {
    const help =
      'Usage: sqlite-utils query [OPTIONS] PATH SQL\n\n  Example:\n\n      sqlite-utils data.db \\\n          "select * from chickens where age > :age" \\\n          -p age 1\n\nOptions:\n  -p, --param <TEXT TEXT>...  Named :parameters for SQL query\n  --nl                        Output newline-delimited JSON\n';
    const spec = parseHelp(help);
    expect(spec.options.filter((candidate) => candidate.short === 'p')).toHaveLength(1);
    expect(option(help, 'param')?.takes_value).toBe(true);
  });
});

describe('spellings', () => {
  it('Symfony Console (cleo) `-v|vv|vvv, --verbose`: one repeatable flag', () => {
    const help =
      'Usage:\n  add [options] [--] <name>...\n\nOptions:\n  -q, --quiet                Do not output any message.\n  -v|vv|vvv, --verbose       Increase the verbosity of messages: 1 for normal output, 2 for more verbose output and 3 for debug.\n';
    expect(option(help, 'verbose')).toMatchObject({ short: 'v', takes_value: false, repeatable: true, choices: null });
  });
});

describe('binutils strings', () => {
  const help =
    'Usage: strings [option(s)] [file(s)]\n The options are:\n  -a - --all                Scan the entire file [default]\n  -n <number>               Locate & print any sequence of at least <number>\n    --bytes=<number>         displayable characters.  (The default is 4).\n  --unicode={default|show|hex}\n  -U {d|s|x}                Specify how to treat unicode characters\n  -h --help                 Display this information\n';

  it('`-a - --all`: a lone dash between two spellings separates them', () => {
    expect(option(help, 'all')).toMatchObject({ short: 'a', takes_value: false });
  });

  it('`-n <number>` then a deeper `--bytes=<number>` going on with the running sentence: one option', () => {
    expect(option(help, 'bytes')).toMatchObject({ short: 'n', takes_value: true, default: 4 });
  });

  it('`--unicode={default|show|hex}` alone, then `-U {d|s|x}` (a letter of each value): the short spelling of the same option', () => {
    expect(option(help, 'unicode')).toMatchObject({ short: 'U', choices: ['default', 'show', 'hex'] });
  });

  it('`[option(s)] [file(s)]`: `(s)` makes the argument repeat; `option(s)` is the options placeholder', () => {
    expect(parseHelp(help).positionals).toEqual([{ name: 'file', required: false, variadic: true }]);
  });
});

describe('hand-written (qrencode)', () => {
  const help =
    'Usage: qrencode [-o FILENAME] [OPTION]... [STRING]\n\n  -l {LMQH}, --level={LMQH}\n               specify error correction level from L (lowest) to H (highest).\n               (default=L)\n\n  -t {PNG,EPS,SVG},\n  --type={PNG,EPS,SVG}\n               specify the type of the generated image. (default=PNG)\n\n  -o FILE, --output={FILE}\n               write image to FILE.\n';

  it('`{LMQH}` whose letters the description names on their own: each letter a value', () => {
    expect(option(help, 'level')).toMatchObject({ choices: ['L', 'M', 'Q', 'H'], default: 'L' });
    expect(option(help, 'output')?.choices).toBeNull();
  });

  it('`-t {…},` then `--type={…}` on the next line: the long spelling names the option', () => {
    expect(option(help, 'type')).toMatchObject({ short: 't', choices: ['PNG', 'EPS', 'SVG'], default: 'PNG' });
  });
});

describe('positionals', () => {
  it('util-linux losetup `-f | <loopdev> <file>`: a bare `|` after an option makes the option and what follows alternatives', () => {
    const help =
      '\nUsage:\n losetup [options] [<loopdev>]\n losetup [options] -f | <loopdev> <file>\n\nOptions:\n -a, --all                     list all used devices\n -f, --find                    find first unused device\n';
    const spec = parseHelp(help);
    expect(spec.positionals).toEqual([
      expect.objectContaining({ name: 'loopdev', required: false }),
      expect.objectContaining({ name: 'file', required: false }),
    ]);
    expect(spec.options.find((candidate) => candidate.long === 'find')?.required).toBe(false);
  });

  it('argparse custom usage `FILE [FILE ...]` over a section naming `filename`: as many, so paired by position', () => {
    const help =
      'usage: sqlformat [OPTIONS] FILE [FILE ...]\n\npositional arguments:\n  filename              file(s) to format\n\noptions:\n  -h, --help            show this help message and exit\n';
    expect(parseHelp(help).positionals).toEqual([expect.objectContaining({ name: 'filename', required: true, variadic: true })]);
  });

  it('`[POSIX or GNU style options]`: a bracket of words ending in `options` is the options placeholder', () => {
    const help = 'Usage: tool [POSIX or GNU style options] file ...\nOptions:\n  -b  bytes\n';
    expect(parseHelp(help).positionals).toEqual([{ name: 'file', required: true, variadic: true }]);
  });

  it('gawk: a second `Usage:` line is one more form; the plain form puts the quoted program text before the mode form\'s files', () => {
    const help =
      "Usage: gawk [options] -f progfile [--] file ...\nUsage: gawk [options] [--] 'program' file ...\nPOSIX options:\t\tGNU long options: (standard)\n\t-f progfile\t\t--file=progfile\n";
    expect(parseHelp(help).positionals).toEqual([
      { name: 'program', required: false, variadic: false },
      { name: 'file', required: true, variadic: true },
    ]);
  });
});
