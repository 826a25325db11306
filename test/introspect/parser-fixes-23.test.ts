/**
 * Notations met in parser fixes round 14 (issue 12, batch 12 C/Perl/Ruby/Python texts), each pinned
 * on a minimal help: first defaults and choices that are not stated (invented), then value-taking,
 * positionals, names, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('not invented', () => {
  it('getopt `(default %s)`: a lone printf conversion is the help template left unfilled; a format option keeps its conversion', () => {
    const help =
      'Usage: tool [OPTION] op [fld] [op fld ...]\n\nOptions:\n      --filler=X            fill missing values with X (default %s)\n  -o, --output-format=F     printf numeric output format (default %d)\n';
    expect(option(help, 'filler')?.takes_value).toBe(true);
    expect(option(help, 'filler')?.default).toBeNull();
    expect(option(help, 'output-format')?.default).toBe('%d');
  });
});

describe('not invented: example numbers', () => {
  it('help2man `section number for manual page (1, 6, 8)`: numbers after a description calling the value a number are examples; `(0, 1, -1)` without it stays a list', () => {
    const help =
      'Usage: help2man [OPTION]... EXECUTABLE\n\n -s, --section=SECTION   section number for manual page (1, 6, 8)\n -w, --lna=LNA           power (0, 1, -1)\n';
    expect(option(help, 'section')).toMatchObject({ takes_value: true, choices: null });
    expect(option(help, 'lna')?.choices).toEqual(['0', '1', '-1']);
  });
});

describe('not invented: every item', () => {
  it('argparse `(comma-delimited, default: all)`: a bare `all` defaulting a comma list means every item; a quoted `"all"` is a keyword', () => {
    const help =
      'usage: gen [-h] [--tables TABLES] [--checks CHECKS]\n\noptions:\n  -h, --help       show this help message and exit\n  --tables TABLES  tables to process (comma-delimited, default: all)\n  --checks CHECKS  Comma-separated list of checks (default: "all")\n';
    expect(option(help, 'tables')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'checks')?.default).toBe('all');
  });
});

describe('value-taking', () => {
  it('click `cannot be used together with -v/--verbose`: a short spelling slash-joined to its long one carries no glued value', () => {
    const help =
      'Usage: lint [OPTIONS] [PATHS]...\n\nOptions:\n  -v, --verbose    Verbosity, how detailed should the output be.\n  -q, --quiet      Quiet mode. It cannot be used together with -v/--verbose.\n  -I, --include    Add a directory.\n  -d, --dev        Shorthand for -I./lib.\n';
    expect(option(help, 'verbose')?.takes_value).toBe(false);
    expect(option(help, 'include')?.takes_value).toBe(true);
  });
});

describe('value-taking: bare helps', () => {
  it('getopt units `(e.g. Hz<->s)`: an arrow drawn with `<->` is no `<name>` placeholder cue in a help without placeholders', () => {
    const help =
      'Usage: units [options]\n\nOptions:\n    -c, --check          check that all units reduce to primitive units\n    -s, --strict         suppress reciprocal unit conversion (e.g. Hz<->s)\n    -e, --exponential    exponential format output\n    -q, --quiet          suppress prompting\n    -r, --round          round last element\n    -k, --key            sign with <key-id>\n';
    expect(option(help, 'strict')?.takes_value).toBe(false);
    expect(option(help, 'key')?.takes_value).toBe(true);
  });
});

describe('value-taking: bare helps, the given value', () => {
  it('cabextract `extract only files that match the given pattern`: `the given` after any verb names the value in a help without placeholders', () => {
    const help =
      'Usage: cabextract [options] <cabinet file(s)>\n\nOptions:\n  -l   --list        list contents of cabinet\n  -t   --test        test cabinet integrity\n  -q   --quiet       only print errors and warnings\n  -L   --lowercase   make filenames lowercase\n  -F   --filter      extract only files that match the given pattern\n  -e   --encoding    assume non-UTF8 filenames have the given encoding\n';
    expect(option(help, 'filter')?.takes_value).toBe(true);
    expect(option(help, 'encoding')?.takes_value).toBe(true);
    expect(option(help, 'lowercase')?.takes_value).toBe(false);
  });
});

describe('value-taking: placeholders', () => {
  it('genhtml `--rc SETTING=VALUE`, docopt `--scale SERVICE=NUM`: a key=value placeholder all in capitals takes a value', () => {
    const help = 'Usage: tool [options] [FILE...]\n\nOptions:\n      --rc SETTING=VALUE    Override configuration file setting\n      --quiet               Do not print progress messages\n';
    expect(option(help, 'rc')).toMatchObject({ takes_value: true, value_name: 'SETTING=VALUE' });
    expect(option(help, 'quiet')?.takes_value).toBe(false);
  });
});

describe('value-taking: quoted metavars', () => {
  it('optparse `-a "ARTIST", --artist="ARTIST"`: a double-quoted metavar after each spelling names the value, no default', () => {
    const help =
      'Usage: tag [OPTION] [FILE]...\n\nOptions:\n  -a "ARTIST", --artist="ARTIST"\n                        Set the artist information\n  -c "DESCRIPTION":"COMMENT":"LANGUAGE", --comment="DESCRIPTION":"COMMENT":"LANGUAGE"\n                        Set the comment information\n  --config="~/tag.yaml"  Configuration file\n';
    expect(option(help, 'artist')).toMatchObject({ short: 'a', takes_value: true, default: null });
    expect(option(help, 'comment')).toMatchObject({ short: 'c', takes_value: true, default: null });
    expect(option(help, 'config')?.default).toBe('~/tag.yaml');
  });
});

describe('value-taking: typer type column', () => {
  it('typer `[notebook|extension]` in the type column (click choice metavar), also when rich wraps it onto the next row', () => {
    const help = [
      ' Usage: nbx export [OPTIONS] INPUT',
      '',
      '╭─ Options ──────────────────────────────────────────────────────────────────╮',
      '│ --export-format  -f      [asciidoc|html|note  File format(s) to save.      │',
      '│                          book|pdf]            Multiple formats allowed.   │',
      '│ --organize-by    -b      [notebook|extension]  Whether to save exported   │',
      '│                                               file(s) in a subfolder.     │',
      '│ --model                  [gpt-4|gpt-4-32      Model to use.                │',
      '│                          k]                   [default: gpt-4]            │',
      '╰────────────────────────────────────────────────────────────────────────────╯',
    ].join('\n');
    expect(option(help, 'export-format')).toMatchObject({ short: 'f', takes_value: true, choices: ['asciidoc', 'html', 'notebook', 'pdf'] });
    expect(option(help, 'organize-by')).toMatchObject({ short: 'b', takes_value: true, choices: ['notebook', 'extension'] });
    expect(option(help, 'model')).toMatchObject({ takes_value: true, choices: ['gpt-4', 'gpt-4-32k'], default: 'gpt-4' });
  });
});

describe('value-taking: argp literal-looking placeholders', () => {
  it('argp `-W, --wait=time  adds additional wait time`: a lower-case word after `=` that the description uses as a noun is the placeholder', () => {
    const help =
      'Usage: scan [OPTION...] <initial file>\n\n  -W, --wait=time            adds additional wait time for DISEqC command\n  -O, --output-format=format Output format: VDR, CHANNEL (default: VDR)\n  -p, --indicator-style=slash\n                             append / indicator to directories\n';
    expect(option(help, 'wait')).toMatchObject({ takes_value: true, value_name: 'time', short: 'W' });
    expect(option(help, 'output-format')).toMatchObject({ takes_value: true, short: 'O' });
    expect(option(help, 'p')?.long).toBeNull();
  });
});

describe('choices', () => {
  it('argp `Output format: VDR, CHANNEL, ZAP, DVBV5`: values in capitals after a value noun are the choices; kinds (`FILE or URL`) are not', () => {
    const help =
      'Usage: scan [OPTION...] FILE\n\n  -O, --output-format=FMT    Output format: VDR, CHANNEL, ZAP, DVBV5 (default: DVBV5)\n  -i, --input=SRC            Input type: FILE or URL\n';
    expect(option(help, 'output-format')).toMatchObject({ choices: ['VDR', 'CHANNEL', 'ZAP', 'DVBV5'], default: 'DVBV5' });
    expect(option(help, 'input')?.choices).toBeNull();
  });
});

describe('choices: parenthesized lists', () => {
  it('argp `--lna=LNA (0, 1, -1)`: a negative number is an item of a parenthesized list', () => {
    const help = 'Usage: scan [OPTION...] FILE\n\n  -w, --lna=LNA (0, 1, -1)   enable/disable/auto LNA power\n';
    expect(option(help, 'lna')?.choices).toEqual(['0', '1', '-1']);
  });
});

describe('choices: named as the values', () => {
  it('argp `(Available modes are curses, ansi and html.)`: the available modes, formats or levels are the values', () => {
    const help = 'Usage: ccze [OPTION...]\n\n  -m, --mode=MODE            Change the output mode\n                             (Available modes are curses, ansi and html.)\n';
    expect(option(help, 'mode')?.choices).toEqual(['curses', 'ansi', 'html']);
  });

  it("argparse `decode errors.'ignore', 'strict' and 'replace' are acceptable values`: a later sentence listing the acceptable values", () => {
    const help =
      "usage: html2text [-h] [--decode-errors DECODE_ERRORS]\n\noptions:\n  --decode-errors DECODE_ERRORS\n                        What to do in case of decode errors.'ignore', 'strict' and 'replace' are\n                        acceptable values\n";
    expect(option(help, 'decode-errors')?.choices).toEqual(['ignore', 'strict', 'replace']);
  });
});

describe('choices: value=meaning', () => {
  it('diffstat `(0=none, 1=simple, 2=adjusted)`: a parenthesis of value=meaning items gives the values; a default outside them makes them ends of a range', () => {
    const help =
      'Usage: diffstat [options] [file-specifications]\n\nOptions:\n  -h      print this message\n  -r NUM  specify rounding for histogram (0=none, 1=simple, 2=adjusted)\n  -m NUM  compression method (0=fast, 6=slowest), default=4\n';
    expect(option(help, 'r')?.choices).toEqual(['0', '1', '2']);
    expect(option(help, 'm')?.choices).toBeNull();
    expect(option(help, 'h')).toBeUndefined();
  });
});

describe('defaults', () => {
  it('argparse `(default: Bump version: {current_version} → {new_version})`: a message template of `{field}`s is one value; prose with fields is none', () => {
    const help =
      'usage: bump [-h] [--message COMMIT_MSG] [--note NOTE]\n\noptions:\n  --message COMMIT_MSG, -m COMMIT_MSG\n                        Commit message (default: Bump version: {current_version} → {new_version})\n  --note NOTE           A note (default: the {a} and the {b})\n';
    expect(option(help, 'message')?.default).toBe('Bump version: {current_version} → {new_version}');
    expect(option(help, 'note')?.default).toBeNull();
  });
});

describe('defaults: argparse counts', () => {
  it('argparse `--verbose  Print verbose logging (default: 0)`: a flag defaulting to 0 is a count (store_true flags say False)', () => {
    const help =
      'usage: bump [-h] [--verbose] [--list]\n\noptions:\n  -h, --help  show this help message and exit\n  --verbose   Print verbose logging to stderr (default: 0)\n  --list      List machine readable information (default: False)\n';
    expect(option(help, 'verbose')).toMatchObject({ takes_value: false, repeatable: true, default: 0 });
    expect(option(help, 'list')).toMatchObject({ repeatable: false, default: false });
  });
});

describe('choices: a sentence of values', () => {
  it('click rich-cli `Set panel type to BOX. ascii, ascii2, double, heavy`: a sentence of only values after one naming the placeholder', () => {
    const help =
      'Usage: rich [OPTIONS] <PATH,TEXT>\n\nOptions:\n  -a  --panel BOX    Set panel type to BOX. ascii, ascii2, double, heavy,\n                     none, rounded, square\n  -w  --width SIZE   Fit output to SIZE characters.\n';
    expect(option(help, 'panel')?.choices).toEqual(['ascii', 'ascii2', 'double', 'heavy', 'none', 'rounded', 'square']);
    expect(option(help, 'width')?.choices).toBeNull();
  });
});

describe('choices: glossed items joined by semicolons', () => {
  it('optparse `Three options availables: no (no line numbers); inline (inside <pre> tag); table (…)`', () => {
    const help =
      'Usage: landslide [options] input.md ...\n\nOptions:\n  -l LINENOS, --linenos=LINENOS\n                        How to output linenos in source code. Three options\n                        availables: no (no line numbers); inline (inside <pre>\n                        tag); table (lines numbers in another cell, copy-paste\n                        friendly)\n  -x EXT, --ext=EXT     Extensions, e.g.: toc (contents); tables (grids); abbr (abbreviations)\n';
    expect(option(help, 'linenos')?.choices).toEqual(['no', 'inline', 'table']);
    expect(option(help, 'ext')?.choices).toBeNull();
  });
});

describe('choices: optional letters', () => {
  it('getopt units `…system: gauss[ian],esu,emu,natural-gauss, hartree,si`: `gauss[ian]` spells two values in a comma list closing the description', () => {
    const help =
      'Usage: units [options]\n\nOptions:\n    -u, --units=SYSTEM   specify a CGS units system or natural units system:\n                            gauss[ian],esu,emu,natural-gauss,\n                            hartree,si\n';
    expect(option(help, 'units')?.choices).toEqual(['gauss', 'gaussian', 'esu', 'emu', 'natural-gauss', 'hartree', 'si']);
  });
});

describe('names', () => {
  it('lcov `--(no-)sort`: the negating prefix in parentheses spells the option and its negation, as `--[no-]sort`', () => {
    const help = 'Usage: genhtml [OPTIONS] INFOFILE(S)\n\nOptions:\n      --(no-)sort                   Enable (disable) sorted coverage views\n      --legend                      Include color legend\n';
    expect(option(help, 'sort')).toMatchObject({ takes_value: false, negation: '--no-sort' });
    expect(option(help, 'legend')?.takes_value).toBe(false);
  });
});

describe('names: backquoted command path', () => {
  it('docopt `Usage: up [options]` under prose naming `docker-compose up`: the code span gives the full command path', () => {
    const help =
      'Builds and starts containers.\n\nThe `docker-compose up` command aggregates the output. Running `docker-compose up -d`\nstarts them in the background.\n\nUsage: up [options] [SERVICE...]\n\nOptions:\n    -d, --detach   Detached mode\n';
    expect(parseHelp(help).name).toBe('docker-compose_up');
    const plain = 'Run it with `make up` or `npm up`.\n\nUsage: up [options]\n\nOptions:\n    -d, --detach   Detached mode\n';
    expect(parseHelp(plain).name).toBe('up');
  });
});

describe('positionals', () => {
  it('genhtml `Usage: genhtml [OPTIONS] INFOFILE(S)`: a plural `(S)` in capitals says the argument repeats, as `file(s)` does', () => {
    const spec = parseHelp('Usage: genhtml [OPTIONS] INFOFILE(S)\n\nOptions:\n  -q, --quiet    Do not print progress messages\n');
    expect(spec.positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['INFOFILE', true, true]]);
  });
});
