/**
 * Notations met in parser fixes round 15 (issue 12, batch 20 part a: C/Perl/Ruby helps), each
 * pinned on a minimal help: value-taking, positionals, names, choices, defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('value-taking', () => {
  it('popt/gengetopt `-d, --delete=partnum`: a lower-case word after a long spelled nowhere else names the value', () => {
    const help =
      'Usage: sgdisk  [OPTION...] <device>\n  -d, --delete=partnum        delete a partition\n  -c, --c-extension=ext       extension of c file  (default=`c\')\n  -p, --print                 print partition table\n';
    expect(option(help, 'delete')).toMatchObject({ short: 'd', takes_value: true });
    expect(option(help, 'c-extension')).toMatchObject({ short: 'c', takes_value: true });
    expect(option(help, 'print')?.takes_value).toBe(false);
  });

  it('GNU ls `-p, --indicator-style=slash` under `--indicator-style=WORD`: a long spelled elsewhere keeps the literal', () => {
    const help =
      'Usage: ls [OPTION]... [FILE]...\n  -p, --indicator-style=slash\n                             append / indicator to directories\n      --indicator-style=WORD  append indicator with style WORD to entry names\n';
    const spec = parseHelp(help);
    expect(spec.options.find((candidate) => candidate.short === 'p')?.long).not.toBe('indicator-style');
  });

  it('potrace ` <filename>   - an input file` first in a section: an argument placeholder among the options makes the flag lines after it no prose', () => {
    const help =
      'Usage: potrace [options] [filename...]\nFile selection:\n <filename>                 - an input file\n -o, --output <filename>    - write all output to this file\n';
    expect(option(help, 'output')).toMatchObject({ short: 'o', takes_value: true });
  });

  it('potrace `-C, --color #rrggbb`: a colour written as its hex digits\' letters is the placeholder', () => {
    const help = 'Usage: potrace [options] [filename...]\nColor options:\n -C, --color #rrggbb        - set foreground color (default black)\n --opaque                   - make white shapes opaque\n';
    expect(option(help, 'color')).toMatchObject({ short: 'C', takes_value: true, default: 'black' });
    expect(option(help, 'opaque')?.takes_value).toBe(false);
  });

  it('babeltrace `-n, --names name1<,name2,...>`: a name with more of it in brackets after a comma is a list placeholder', () => {
    const help = 'usage : babeltrace [OPTIONS] FILE...\n\n  -n, --names name1<,name2,...>  Print field names\n  -l, --list                     List available formats\n';
    expect(option(help, 'names')).toMatchObject({ short: 'n', takes_value: true });
    expect(option(help, 'list')?.takes_value).toBe(false);
  });
});

describe('positionals and names', () => {
  it('babeltrace `usage : babeltrace [OPTIONS] FILE...`: a space before the colon still opens the usage form', () => {
    const spec = parseHelp('BabelTrace Trace Viewer and Converter 1.5.11\n\nusage : babeltrace [OPTIONS] FILE...\n\n  -v, --verbose   Verbose mode\n');
    expect(spec.name).toBe('babeltrace');
    expect(spec.positionals).toEqual([expect.objectContaining({ name: 'FILE', required: true, variadic: true })]);
  });
});

describe('choices', () => {
  it('potrace `Backends are: svg, pdf, eps.` closing the help: the long name in the plural names the option the list belongs to', () => {
    const help =
      'Usage: potrace [options] [filename...]\nBackend selection:\n -b, --backend <name>       - select backend by name\n -t, --turdsize <n>         - suppress speckles\n\nDimensions can have optional units, e.g. 6.5in, 15cm, 100pt.\nBackends are: svg, pdf, pdfpage, eps, \ngimppath, xfig.\n';
    expect(option(help, 'backend')?.choices).toEqual(['svg', 'pdf', 'pdfpage', 'eps', 'gimppath', 'xfig']);
    expect(option(help, 'turdsize')?.choices).toBeNull();
  });
});

describe('Ruby OptionParser spellings over two lines', () => {
  const help =
    'Usage: unicorn [options]\nunicorn options:\n  -N                       do not load middleware implied by RACK_ENV\n      --no-default-middleware\n  -D, --daemonize          run daemonized in the background\n  -l {HOST:PORT|PATH},     listen on HOST:PORT or PATH\n      --listen             this may be specified multiple times\n                           (default: 0.0.0.0:8080)\n  -I,                      Add a path to the $LOAD_PATH\n      --gem                Shorthand for -I./lib\n';

  it('`-N  do not load…` then `--no-default-middleware` alone four deeper: one option', () => {
    expect(option(help, 'no-default-middleware')).toMatchObject({ short: 'N', takes_value: false });
  });

  it('`-l {HOST:PORT|PATH},  listen on…` then a deeper `--listen  this may be…`: one option, and capitals naming kinds are no choices', () => {
    expect(option(help, 'listen')).toMatchObject({ short: 'l', takes_value: true, choices: null, default: '0.0.0.0:8080' });
  });

  it('slop `-I,   Add a path` (no value) over `--gem`: two options', () => {
    expect(option(help, 'gem')?.short).toBeNull();
    expect(option(help, 'I')?.long).toBeNull();
  });
});

describe('names', () => {
  it('irb `--sample-book-mode/--simple-prompt`: a slash glued between two long spellings joins them like a comma', () => {
    const help = 'Usage:  irb.rb [options] [programfile] [arguments]\n  --sample-book-mode/--simple-prompt\n                    Simple prompt mode\n  --noprompt        No prompt mode\n';
    expect(option(help, 'sample-book-mode')).toMatchObject({ aliases: ['--simple-prompt'], takes_value: false });
    expect(parseHelp(help).name).toBe('irb');
  });
});

describe('positionals', () => {
  it('pbzip2 `<filename> <filename2> <filenameN>`: numbered placeholders closed by `N` are one repeated argument, optional where prose says none need be given', () => {
    const help =
      'Usage: pbzip2 [-1 .. -9] [-b#cdfhklm#p#qrS#tVz] <filename> <filename2> <filenameN>\n -c,--stdout     Output to standard out (stdout)\n\nIf no file names are given, pbzip2 compresses or decompresses from standard input to standard output.\n';
    expect(parseHelp(help).positionals).toEqual([expect.objectContaining({ name: 'filename', required: false, variadic: true })]);
  });

  it('`<file1> <file2>` (no closing `N`) stay two arguments, and a required list stays required without such prose', () => {
    expect(parseHelp('Usage: cmp <file1> <file2>\n -s  silent\n').positionals.map((positional) => positional.name)).toEqual(['file1', 'file2']);
    expect(parseHelp('Usage: cat <file1> <file2> <fileN>\n -s  silent\n').positionals).toEqual([expect.objectContaining({ name: 'file', required: true, variadic: true })]);
  });
});

describe('help options', () => {
  it('gengetopt `--detailed-help  Print help, including …`, `--full-help  Print help, …`: longer helps stay out of the spec; `--show-help` stays in', () => {
    const help =
      'Usage: gengetopt [OPTION]...\n  -h, --help                    Print help and exit\n      --detailed-help           Print help, including all details and hidden\n                                  options, and exit\n      --full-help               Print help, including hidden options, and exit\n      --show-help               show the output of --help instead of generating\n';
    expect(option(help, 'detailed-help')).toBeUndefined();
    expect(option(help, 'full-help')).toBeUndefined();
    expect(option(help, 'show-help')).toBeDefined();
  });
});

describe('positionals: plural names', () => {
  it('autom4te `[FILES]` over `If some of the FILES are named …`: prose counting out of the plural name makes it repeat', () => {
    const help = "Usage: /usr/bin/autom4te [OPTION]... [FILES]\n\nRun GNU M4 on the FILES, avoiding useless runs.\n\nIf some of the FILES are named 'FILE.m4f' they are considered to be M4\nfrozen files.\n\n  -v, --verbose   verbosely report processing\n";
    expect(parseHelp(help).positionals).toEqual([expect.objectContaining({ name: 'FILES', required: false, variadic: true })]);
    expect(parseHelp('Usage: grep [OPTION]... PATTERNS [FILE]...\n\nPATTERNS can contain multiple patterns.\n  -i   ignore case\n').positionals[0]).toMatchObject({ name: 'PATTERNS', variadic: false });
  });
});

describe('choices: a parenthesis after the placeholder', () => {
  it('mkfs.fat `Select variant TYPE of filesystem (standard or Atari)`: the placeholder named, then its alternatives; kinds of value are none', () => {
    const help =
      'Usage: mkfs.fat [OPTIONS] TARGET [BLOCKS]\n\nOptions:\n  --variant=TYPE  Select variant TYPE of filesystem (standard or Atari)\n  --input=SRC     Read SRC as input (file or directory)\n  --mode=MODE     Set the mode (fast or slow)\n';
    expect(option(help, 'variant')?.choices).toEqual(['standard', 'Atari']);
    expect(option(help, 'input')?.choices).toBeNull();
  });
});

describe('bsdtar flag lists', () => {
  const help =
    'bsdtar: manipulate archive files\nFirst option must be a mode specifier:\n  -c Create  -r Add/Replace  -t List  -u Update  -x Extract\nCommon Options:\n  -v    Verbose\nCreate: bsdtar -c [options] [<file> | <dir> | @<archive> | -C <dir> ]\n  -z, -j, -J, --lzma  Compress archive with gzip/bzip2/xz/lzma\n  -C <dir>  Change to <dir> before processing remaining files\n';

  it('`-c Create  -r Add/Replace  -t List`: flags with a word each on one row are an entry each', () => {
    for (const letter of ['c', 'r', 't', 'u', 'x']) expect(option(help, letter)).toMatchObject({ long: null, takes_value: false });
  });

  it('`-z, -j, -J, --lzma  Compress archive with gzip/bzip2/xz/lzma`: as many spellings as alternatives are sibling flags', () => {
    for (const letter of ['z', 'j', 'J']) expect(option(help, letter)).toMatchObject({ long: null, takes_value: false });
    expect(option(help, 'lzma')).toMatchObject({ short: null, takes_value: false });
    expect(parseHelp('Usage: x [options]\n  -a, -A, --all  show all/hidden entries\n').options.map((one) => one.short)).toEqual(['a']);
  });
});

describe('choices in a parenthesis', () => {
  it('pbzip2 `(1 - ignored; 0 - forbidden)`: values glossed after a spaced dash, joined by semicolons', () => {
    const help = 'Usage: pbzip2 [options] <filename>\n --ignore-trailing-garbage=# Ignore trailing garbage flag (1 - ignored; 0 - forbidden)\n -m#  Maximum memory usage in 1MB steps (default 100 = 100MB)\n';
    expect(option(help, 'ignore-trailing-garbage')?.choices).toEqual(['1', '0']);
    expect(option(help, 'm')?.choices).toBeNull();
  });

  it('potrace `-d, --debug <n>  … of type n (n=1,2,3)`: the placeholder set to a comma list', () => {
    const help = 'Usage: potrace [options] [filename...]\n -d, --debug <n>            - produce debugging output of type n (n=1,2,3)\n -t, --turdsize <n>         - suppress speckles of up to this size (default 2)\n';
    expect(option(help, 'debug')?.choices).toEqual(['1', '2', '3']);
    expect(option(help, 'turdsize')?.choices).toBeNull();
  });
});

describe('usage forms', () => {
  it('enca `Usage:  enca [-L LANGUAGE] [OPTION]... [FILE]...` over `        enconv [-L LANGUAGE] …` aligned with it: another form, no positional `enconv`', () => {
    const help =
      'Usage:  enca [-L LANGUAGE] [OPTION]... [FILE]...\n        enconv [-L LANGUAGE] [OPTION]... [FILE]...\nDetect encoding of text files and convert them if required.\n\n -g, --guess             Behave as enca\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('enca');
    expect(spec.positionals).toEqual([expect.objectContaining({ name: 'FILE', required: false, variadic: true })]);
  });
});

describe('value lines with shortcut flags', () => {
  it('potrace `-b svg, -s, --svg`, `-b pdf`, `-b eps, -e, --eps … (default)` under `-b, --backend <name>`: values of -b, the shortcuts flags of their own', () => {
    const help =
      'Usage: potrace [options] [filename...]\nBackend selection:\n -b, --backend <name>       - select backend by name\n -b svg, -s, --svg          - SVG backend (scalable vector graphics)\n -b pdf                     - PDF backend (portable document format)\n -b eps, -e, --eps          - EPS backend (encapsulated PostScript) (default)\n -z, --turnpolicy <policy>  - how to resolve ambiguities\n';
    const spec = parseHelp(help);
    expect(option(help, 'backend')).toMatchObject({ short: 'b', takes_value: true, default: 'eps' });
    expect(option(help, 'svg')).toMatchObject({ short: 's', takes_value: false });
    expect(option(help, 'eps')).toMatchObject({ short: 'e', takes_value: false });
    expect(spec.options.filter((one) => one.short === 'b')).toHaveLength(1);
    expect(option(help, 'turnpolicy')?.takes_value).toBe(true);
  });
});

describe('GNU long-only options after a short-only one', () => {
  it('`-1  list one file per line` then `      --group-directories-first` described on a deeper line: two options', () => {
    const help =
      'Usage: ls [OPTION]... [FILE]...\n  -1                         list one file per line\n      --group-directories-first\n                             group directories before files\n  -Z, --context              print any security context\n';
    expect(option(help, 'group-directories-first')?.short).toBeNull();
    expect(option(help, '1')?.long).toBeNull();
  });
});

