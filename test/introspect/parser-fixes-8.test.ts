/**
 * Notations met in parser fixes round 8 (issue 12), each pinned on a minimal help. Defaults and
 * choices that are no value come first (an invented one refuses or replaces what the program takes).
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('defaults and choices that are no value', () => {
  it('argparse `Defaults to empty/disabled.` is no default; `Defaults to auto.` is one', () => {
    const help =
      'usage: spell [-h] [--ignore-regex IGNORE_REGEX] [--mode MODE]\n\noptions:\n  --ignore-regex IGNORE_REGEX\n                        regex to ignore. Defaults to empty/disabled.\n  --mode MODE           how to run. Defaults to auto.\n';
    expect(option(help, 'ignore-regex')?.default).toBeNull();
    expect(option(help, 'mode')?.default).toBe('auto');
  });

  it('numbered meanings 0, 1, 2, 4, 8 are bits of a mask (no choices); `The default mask is 34.` is the default', () => {
    const help =
      'usage: spell [-h] [-q LEVEL] [-i MODE]\n\noptions:\n  -q LEVEL, --quiet-level LEVEL\n                        bitmask that allows suppressing messages:\n                        - 0: print all messages.\n                        - 1: disable warnings about encoding.\n                        - 2: disable warnings about binary files.\n                        - 4: omit warnings about fixes.\n                        - 8: omit the rest.\n                        The default mask is 34.\n  -i MODE, --interactive MODE\n                        set interactive mode:\n                        - 0: no interactivity.\n                        - 1: ask for confirmation.\n                        - 2: ask user to choose one fix.\n                        - 3: both 1 and 2\n';
    expect(option(help, 'quiet-level')).toMatchObject({ choices: null, default: 34 });
    expect(option(help, 'interactive')?.choices).toEqual(['0', '1', '2', '3']);
  });

  it('cac `defaults to `github`` naming another option is that option, not the word', () => {
    const help =
      'Usage:\n  $ rel \n\nOptions:\n  --github <path>          GitHub Repository\n  --release-github <path>  Release GitHub Repository, defaults to `github` \n  --style <style>          Style of the changelog (default: markdown)\n  -h, --help               Display this message \n';
    expect(option(help, 'release-github')?.default).toBeNull();
    expect(option(help, 'style')?.default).toBe('markdown');
  });

  it('pigz `-b mmm … block size to mmmK (default 128K)`: a default in the unit the value is counted in is none', () => {
    const help =
      'Usage: zz [options] [files ...]\n\nOptions:\n  -b, --blocksize mmm  Set compression block size to mmmK (default 128K)\n  -p, --processes n    Allow up to n threads (default 8)\n';
    expect(option(help, 'blocksize')?.default).toBeNull();
    expect(option(help, 'processes')?.default).toBe(8);
  });
});

describe('defaults', () => {
  it('cwebp `…, default=75` closing a clause is the default; `one of: none, fast (default) or best` keeps all three', () => {
    const help =
      'Usage:\n cw [options] in_file\n\nOptions:\n  -q <float> ............. quality factor (0:small..100:big), default=75\n  -alpha_filter <string> . predictive filtering for alpha plane,\n                           one of: none, fast (default) or best\n  -exact ................. preserve RGB values, default=off\n';
    expect(option(help, 'q')?.default).toBe(75);
    expect(option(help, 'alpha_filter')).toMatchObject({ choices: ['none', 'fast', 'best'], default: 'fast' });
    expect(option(help, 'exact')).toMatchObject({ takes_value: false, default: null });
  });
});

describe('etcdctl template', () => {
  const help =
    'USAGE:\n\tetcdctl get [options] <key> [range_end] [flags]\n\nOPTIONS:\n      --consistency="l"\t\t\tLinearizable(l) or Serializable(s)\n      --from-key[=false]\t\tGet keys greater than the key\n  -h, --help[=false]\t\t\thelp for get\n      --limit=0\t\t\t\tMaximum number of results\n      --order=""\t\t\tOrder of results; ASCEND or DESCEND (ASCEND by default)\n      --sort-by=""\t\t\tSort target; CREATE, KEY, MODIFY, VALUE, or VERSION\n      --insecure-transport[=true]\t\tdisable transport security\n      --endpoints=[127.0.0.1:2379]\t\tgRPC endpoints\n      --dial-timeout=2s\t\t\tdial timeout\n';

  it('`--x[=false]` is a flag with that default (`[=true]` is switched off with `=false`); `--limit=0` a value defaulting to 0; a bracketed list no default', () => {
    expect(option(help, 'from-key')).toMatchObject({ takes_value: false, default: false });
    expect(option(help, 'insecure-transport')).toMatchObject({ takes_value: false, default: true, negation: '--insecure-transport=false' });
    expect(option(help, 'limit')).toMatchObject({ takes_value: true, default: 0 });
    expect(option(help, 'dial-timeout')).toMatchObject({ takes_value: true, default: '2s' });
    expect(option(help, 'endpoints')).toMatchObject({ takes_value: true, default: null });
  });

  it('constants after a semicolon, `(ASCEND by default)`, and `Linearizable(l) or Serializable(s)` codes', () => {
    expect(option(help, 'order')).toMatchObject({ choices: ['ASCEND', 'DESCEND'], default: 'ASCEND' });
    expect(option(help, 'sort-by')).toMatchObject({ choices: ['CREATE', 'KEY', 'MODIFY', 'VALUE', 'VERSION'], default: null });
    expect(option(help, 'consistency')).toMatchObject({ choices: ['l', 's'], default: 'l' });
  });
});

describe('GNU argp', () => {
  it("`valid names are `gnu' (default), `posix', and `dot'` (old GNU quotes) and `(default -, meaning stdout)`", () => {
    const help =
      "Usage: cf [OPTION...] [FILE]...\n\n  -f, --format=NAME          use given output format NAME; valid names are\n                             `gnu' (default), `posix', and `dot'\n  -o, --output=FILE          set output file name (default -, meaning stdout)\n";
    expect(option(help, 'format')).toMatchObject({ choices: ['gnu', 'posix', 'dot'], default: 'gnu' });
    expect(option(help, 'output')?.default).toBe('-');
  });
});

describe('getopt (opusenc)', () => {
  const help =
    'Usage: oe [options] input_file output_file.opus\n\nOptions:\n --framesize n      Set maximum frame size in milliseconds\n                      (2.5, 5, 10, 20, 40, 60, default: 20)\n --raw-rate n       Set sampling rate for raw input (default: 48000)\n --raw-endianness n 1 for big endian, 0 for little (default: 0)\n --ignorelength     Ignore the data length in Wave headers\n';

  it('a value name pushed into the description column (one space short) is the value; `1 for big endian, 0 for little` are its values', () => {
    expect(option(help, 'raw-endianness')).toMatchObject({ takes_value: true, choices: ['1', '0'], default: '0' });
    expect(option(help, 'ignorelength')?.takes_value).toBe(false);
  });

  it('`(2.5, 5, 10, 20, 40, 60, default: 20)`: a parenthesized list closed by its default', () => {
    expect(option(help, 'framesize')).toMatchObject({ choices: ['2.5', '5', '10', '20', '40', '60'], default: '20' });
  });
});

describe('marked defaults in lists', () => {
  it("shfmt `0 for tabs (default), >0 for spaces` is 0; optparse `Use output format 'xhtml' (default) or 'html'.` is xhtml", () => {
    const shfmt = 'usage: sf [flags] [path ...]\n\nPrinter options:\n\n  -i,  --indent uint       0 for tabs (default), >0 for number of spaces\n  -bn, --binary-next-line  binary ops may start a line\n';
    expect(option(shfmt, 'indent')?.default).toBe(0);
    const optparse = "Usage: md [options]\n\nOptions:\n  -o OUTPUT_FORMAT, --output_format=OUTPUT_FORMAT\n                        Use output format 'xhtml' (default) or 'html'.\n";
    expect(option(optparse, 'output_format')).toMatchObject({ choices: ['xhtml', 'html'], default: 'xhtml' });
  });
});

describe('lists joined by bare commas; template defaults', () => {
  it('tree `Select sort: name,version,size,mtime,ctime.` and optipng `(256,512,1k,2k)` are choices', () => {
    const help =
      'usage: tr [--sort X] [-zw size] [directory ...]\n\nOptions:\n  --sort X      Select sort: name,version,size,mtime,ctime.\n  --zw <size>   zlib window size (256,512,1k,2k,4k)\n  --fmt X       Format, e.g.: a,b,c.\n';
    expect(option(help, 'sort')?.choices).toEqual(['name', 'version', 'size', 'mtime', 'ctime']);
    expect(option(help, 'zw')?.choices).toEqual(['256', '512', '1k', '2k', '4k']);
    expect(option(help, 'fmt')?.choices).toBeNull();
  });

  it('click `[default: {code} {line} {message} {match}]` is one value', () => {
    const help =
      'Usage: dj [OPTIONS] SRC...\n\nOptions:\n  --linter-output-format FORMAT   Layout of each lint message. [default: {code} {line}\n                                  {message} {match}]\n  --mode TEXT                     Mode. [default: fast and safe]\n';
    expect(option(help, 'linter-output-format')?.default).toBe('{code} {line} {message} {match}');
    expect(option(help, 'mode')?.default).toBeNull();
  });
});

describe('positionals', () => {
  it('optparse `(STDIN is assumed if no INPUTFILE is given)` under the form is a comment, not more form', () => {
    const help = 'Usage: md [options] [INPUTFILE]\n       (STDIN is assumed if no INPUTFILE is given)\n\nOptions:\n  -q, --quiet  Suppress all warnings.\n';
    expect(parseHelp(help).positionals).toEqual([expect.objectContaining({ name: 'INPUTFILE', required: false, variadic: false })]);
  });

  it('tree `  ------- Listing options -------` ends the wrapped usage form and titles the options under it', () => {
    const help = 'usage: tr [-ad] [-L level]\n\t[--noreport] [--] [directory ...]\n  ------- Listing options -------\n  -a            All files are listed.\n  -d            List directories only.\n  -L level      Descend only level directories deep.\n  --noreport    Turn off the report.\n';
    const spec = parseHelp(help);
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['directory']);
    expect(spec.options.map((candidate) => candidate.long ?? candidate.short)).toEqual(['a', 'd', 'L', 'noreport']);
  });

  it('ack `[FILES OR DIRECTORIES]` is one optional argument, variadic (both alternatives plural)', () => {
    const help = 'Usage: ak [OPTION]... PATTERN [FILES OR DIRECTORIES]\n\nOptions:\n  -i, --ignore-case   Ignore case.\n';
    expect(parseHelp(help).positionals).toEqual([
      expect.objectContaining({ name: 'PATTERN', required: true, variadic: false }),
      expect.objectContaining({ name: 'FILES OR DIRECTORIES', required: false, variadic: true }),
    ]);
  });

  it('yargs `lt --port [num] <options>`: the bracketed word after a required option taking a value is its value', () => {
    const help = 'Usage: lt --port [num] [file]\n\nOptions:\n  -p, --port  Internal HTTP server port  [required]\n  --quiet     Be quiet               [boolean]\n  --help      Show help              [boolean]\n';
    expect(parseHelp(help).positionals.map((positional) => positional.name)).toEqual(['file']);
    const flag = 'Usage: lt --quiet [file]\n\nOptions:\n  --quiet     Be quiet               [boolean]\n  --help      Show help              [boolean]\n';
    expect(parseHelp(flag).positionals.map((positional) => positional.name)).toEqual(['file']);
  });
});

describe('pflag', () => {
  it('`--no-color  … (default true)` is the flag\'s own value (switched off with `--no-color=false`); commander `(default: true)` names the positive', () => {
    const pflag = 'Usage:\n    gts [flags] [--] [go test flags]\n\nFlags:\n      --no-color        disable color output (default true)\n      --watch           watch go files\n';
    expect(option(pflag, 'no-color')).toMatchObject({ default: true, negation: '--no-color=false' });
    expect(parseHelp(pflag).positionals).toEqual([expect.objectContaining({ name: 'go test flags', required: false, variadic: true })]);
    const commander = 'Usage: ls [options]\n\nOptions:\n  --no-stash   enable the backup stash (default: true)\n  -h, --help   display help\n';
    expect(option(commander, 'no-stash')?.default).toBeNull();
  });
});

describe('yargs', () => {
  it('a command help opening `redocly lint [apis...]` names the command path and its variadic positional', () => {
    const help = 'rdc lint [apis...]\n\nLint an API description.\n\nPositionals:\n  apis                                      [array] [default: []]\n\nOptions:\n  --help    Show help.                       [boolean]\n  --config  Path to the config file.          [string]\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('rdc_lint');
    expect(spec.positionals).toEqual([expect.objectContaining({ name: 'apis', required: false, variadic: true })]);
  });

  it('a tag line of its own at the margin (`  [choices: …`) belongs to the option above; a quoted choice chopped at the width is rejoined', () => {
    const help =
      'Usage: rdc [options]\n\nOptions:\n  --help                  Show help.                                   [boolean]\n  --format                Use a specific output format.\n  [choices: "stylish", "codeframe", "json", "checkstyle", "codeclimate", "summar\n               y", "markdown"] [default: "codeframe"]\n  --max-problems          Reduce output.                [number] [default: 100]\n';
    expect(option(help, 'format')).toMatchObject({
      takes_value: true,
      choices: ['stylish', 'codeframe', 'json', 'checkstyle', 'codeclimate', 'summary', 'markdown'],
      default: 'codeframe',
    });
  });
});

describe('hand-written helps', () => {
  it('optipng `Synopsis:` over an indented form, with no `Usage:`, is the usage; `-o7  <=>  -zc1-9` lines are shorthands', () => {
    const help =
      'Synopsis:\n    opng [options] files ...\nBasic options:\n    -o <level>\t\toptimization level (0-7)\t\t[default: 2]\n    -v\t\t\trun in verbose mode\nOptimization levels:\n    -o0\t\t<=>\t-o1 -nx -nz\t\t\t\t(0 or 1 trials)\n    -o7\t\t<=>\t-zc1-9 -zm8-9\t\t(240 trials)\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('opng');
    expect(spec.positionals).toEqual([expect.objectContaining({ name: 'files', required: true, variadic: true })]);
    expect(spec.options.map((candidate) => candidate.long ?? candidate.short)).toEqual(['o', 'v']);
  });
});

describe('dos2unix', () => {
  const help =
    'Usage: d2u [options] [file ...] [-n infile outfile ...]\n -ascii                convert only line breaks (default)\n -iso                  conversion between DOS and ISO-8859-1 character set\n   -1252               use Windows code page 1252 (Western European)\n   -437                use DOS code page 437 (US) (default)\n -c, --convmode        conversion mode\n   convmode            ascii, 7bit, iso, mac, default to ascii\n -i, --info[=FLAGS]    display file information\n   file ...            files to analyze\n -n, --newfile         write to new file\n   infile              original file in new-file mode\n';

  it('`-437  use DOS code page 437`: a dash and a number its description repeats is an option', () => {
    expect(option(help, '437')).toMatchObject({ takes_value: false });
    expect(option(help, '1252')).toBeDefined();
  });

  it('a line under an option naming it (`convmode  ascii, 7bit, iso, mac, default to ascii`) defines its value; other names do not', () => {
    expect(option(help, 'convmode')).toMatchObject({ takes_value: true, choices: ['ascii', '7bit', 'iso', 'mac'], default: 'ascii' });
    expect(option(help, 'newfile')?.takes_value).toBe(false);
  });
});

describe('tree', () => {
  it('`--filelimit # Do not…` (the value the usage writes, pushed into the description column) and `-H baseHREF` take a value', () => {
    const help =
      'usage: tr [-a] [-H  baseHREF] [--filelimit #] [--] [directory ...]\n  ------- Listing options -------\n  -a            All files are listed.\n  --noreport    Turn off file/directory count.\n  --filelimit # Do not descend dirs with more than # files in them.\n  --si          Use SI units. Do it # times.\n  -H baseHREF   Prints out HTML format with baseHREF as top directory.\n';
    expect(option(help, 'filelimit')?.takes_value).toBe(true);
    expect(option(help, 'H')?.takes_value).toBe(true);
    expect(option(help, 'si')?.takes_value).toBe(false);
  });
});

describe('sade (no placeholders anywhere)', () => {
  it('`Input directory` and `Additional module(s) to preload` name a value; `Sort test files` does not', () => {
    const help =
      '\n  Usage\n    $ uv [dir] [options]\n\n  Options\n    -i, --input      Input directory\n    -r, --require    Additional module(s) to preload\n    -s, --sort       Sort test files\n    -b, --bail       Exit on first failure\n    -w, --watch      Rerun when files change\n    -v, --version    Displays current version\n    -h, --help       Displays this message\n';
    expect(option(help, 'input')?.takes_value).toBe(true);
    expect(option(help, 'require')?.takes_value).toBe(true);
    expect(option(help, 'sort')?.takes_value).toBe(false);
    expect(option(help, 'bail')?.takes_value).toBe(false);
  });
});

describe('pigz / bzip2', () => {
  it('`--fast, --best … respectively` are two flags; `-0 to -9, -11` and `-1 .. -9` ranges are none; `-S, --suffix .sss` takes a value', () => {
    const help =
      'Usage: pz [options] [files ...]\n\nOptions:\n  -0 to -9, -11        Compression level (level 11 is much slower)\n   -1 .. -9            set block size to 100k .. 900k\n  --fast, --best       Compression levels 1 and 9 respectively\n  --zip, --pkzip       Compress to zip format\n  -S, --suffix .sss    Use suffix .sss instead of .gz (for compression)\n  -k, --keep           Do not delete original file after processing\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => candidate.long ?? candidate.short)).toEqual(['fast', 'best', 'zip', 'suffix', 'keep']);
    expect(option(help, 'zip')?.aliases).toEqual(['--pkzip']);
    expect(option(help, 'suffix')?.takes_value).toBe(true);
  });
});

describe('Go custom usage (mkcert)', () => {
  it('`-cert-file FILE, -key-file FILE` are two flags; `-CAROOT` alone is a flag (GNU `-NUM  same as --context=NUM` is none)', () => {
    const help =
      'Usage of mk:\n\nAdvanced options:\n\n\t-cert-file FILE, -key-file FILE\n\t    Customize the output paths.\n\n\t-client\n\t    Generate a certificate for client authentication.\n\n\t-CAROOT\n\t    Print the CA certificate and key storage location.\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => [candidate.long, candidate.takes_value])).toEqual([
      ['cert-file', true],
      ['key-file', true],
      ['client', false],
      ['CAROOT', false],
    ]);
    const gnu = 'Usage: gp [OPTION]... PATTERNS [FILE]...\n  -C, --context=NUM         print NUM lines of output context\n  -NUM                      same as --context=NUM\n';
    expect(parseHelp(gnu).options.map((candidate) => candidate.long)).toEqual(['context']);
  });
});

describe('lzop', () => {
  it('two columns of short options; `-oFILE` and `-S.suf` glue the placeholder; `-p` then `-pDIR` take an optional value', () => {
    const help =
      'Usage: lz [-qvcp] [-o file] [-S suffix] [file..]\n\nOptions:\n  -q     be quiet                          -v       be verbose\n  -c     write on standard output          -oFILE   write output to \'FILE\'\n  -p     write output to current dir       -pDIR    write to path \'DIR\'\n  -S.suf use suffix .suf on compressed files\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => [candidate.short, candidate.takes_value])).toEqual([
      ['q', false],
      ['v', false],
      ['c', false],
      ['o', true],
      ['p', true],
      ['S', true],
    ]);
    expect(option(help, 'p')?.value_optional).toBe(true);
  });
});

describe('cwebp', () => {
  it('`[-o out_file]` in the usage names an option the list leaves out; `-H / -longhelp … long help` is help', () => {
    const help =
      'Usage:\n cw [-preset <...>] [options] in_file [-o out_file] [-q x]\n\nOptions:\n  -h / -help ............. short help\n  -H / -longhelp ......... long help\n  -q <float> ............. quality factor\n  -preset <string> ....... preset setting\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => candidate.long ?? candidate.short).sort()).toEqual(['o', 'preset', 'q']);
    expect(option(help, 'o')).toMatchObject({ takes_value: true, value_name: 'out_file' });
  });
});

describe('pflag optional values', () => {
  it('`--rerun-fails int[=2]` takes an optional integer', () => {
    const help = 'Usage:\n    gts [flags]\n\nFlags:\n      --rerun-fails int[=2]     rerun failed tests until they all pass\n      --watch                   watch go files\n';
    expect(option(help, 'rerun-fails')).toMatchObject({ takes_value: true, value_optional: true, type: 'integer' });
  });
});

describe('Pod::Usage', () => {
  it('`[ -e|-E perlexpr]*` in the usage gives the bare-listed `-e` and `-E` a value', () => {
    const help =
      'Usage:\n    rn [ -h|-m|-V ] [ -v ] [ -n ]\n    [ -e|-E perlexpr]*|perlexpr [ files ]\n\nOptions:\n    -v, --verbose\n            Verbose: print names of files successfully renamed.\n\n    -n, --nono\n            No action.\n\n    -e      Expression: code to act on files name.\n\n    -E      Statement: code to act on files name.\n';
    expect(option(help, 'e')).toMatchObject({ takes_value: true, value_name: 'perlexpr' });
    expect(option(help, 'E')?.takes_value).toBe(true);
    expect(option(help, 'n')?.takes_value).toBe(false);
  });
});

describe('ack', () => {
  it('`-P, --proximate=0  Negates --proximate.` and `-T X, --type=noX` are options of their own beside `-p` / `-t`', () => {
    const help =
      'Usage: ak [OPTION]... PATTERN [FILES OR DIRECTORIES]\n\nOptions:\n  -p, --proximate=LINES         Separate match output with blank lines.\n  -P, --proximate=0             Negates --proximate.\n  -t X, --type=X                Include only X files.\n  -T X, --type=noX              Exclude X files.\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => [candidate.long, candidate.short, candidate.takes_value])).toEqual([
      ['proximate', 'p', true],
      [null, 'P', false],
      ['type', 't', true],
      [null, 'T', true],
    ]);
  });
});

describe('flags shown only by example', () => {
  it('mkcert `\t$ mk -install` over a sentence is a flag; an example with arguments is not', () => {
    const help =
      'Usage of mk:\n\n\t$ mk -install\n\tInstall the local CA in the system trust store.\n\n\t$ mk -verbose example.org\n\tGenerate a certificate.\n\nAdvanced options:\n\n\t-client\n\t    Generate a certificate for client authentication.\n';
    expect(parseHelp(help).options.map((candidate) => [candidate.long, candidate.prefix, candidate.takes_value])).toEqual([
      ['client', '-', false],
      ['install', '-', false],
    ]);
  });
});

describe('value-taking', () => {
  it('yargs `--help  Show this help and exit  [boolean]`: untagged options take a value', () => {
    const help =
      'Usage: lt --port [num]\n\nOptions:\n  -p, --port       Internal HTTP server port        [required]\n  -s, --subdomain  Request this subdomain\n      --local-https  Tunnel to a local HTTPS server  [boolean]\n      --help       Show this help and exit          [boolean]\n';
    expect(option(help, 'subdomain')?.takes_value).toBe(true);
    expect(option(help, 'port')?.takes_value).toBe(true);
    expect(option(help, 'local-https')?.takes_value).toBe(false);
  });
});

describe('guards', () => {
  it('`(disabled by default)` on a value option is no default', () => {
    const help = 'Usage: c [options]\n\nOptions:\n  --cache <dir>   cache directory (disabled by default)\n  --order <o>     order (ASCEND by default)\n';
    expect(option(help, 'cache')?.default).toBeNull();
    expect(option(help, 'order')?.default).toBe('ASCEND');
  });

  it('a first line `manage the [thing]` is a sentence, not a bare usage form', () => {
    const spec = parseHelp('manage the [thing]\n\nOptions:\n  --all  everything\n');
    expect(spec.name).not.toBe('manage_the');
    expect(spec.positionals).toEqual([]);
  });
});
