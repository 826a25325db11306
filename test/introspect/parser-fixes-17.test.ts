/**
 * Notations met in parser fixes round 12 (issue 12) on batch 16's C and Python texts, each pinned on
 * a minimal help: spellings, value-taking, positionals, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('spellings', () => {
  it('getopt `-m|--monitor`: a bar glued between a short and a long spelling joins them like a comma', () => {
    const help = 'Usage: w [ options ] file\nOptions:\n\t-m|--monitor  \tKeep listening.\n\t-o|--outfile <file>\n\t              \tPrint events to <file>.\n';
    expect(option(help, 'monitor')).toMatchObject({ short: 'm', takes_value: false });
    expect(option(help, 'outfile')).toMatchObject({ short: 'o', takes_value: true });
  });

  it('zip two-column lists: the right column found on a line with a wide gap opens entries after any gap (`files  -u`, `harder) -D`), also above it, and `-@` leads a column', () => {
    const help =
      'Options:\n  -f   freshen: only changed files  -u   update: only changed or new files\n  -d   delete entries in zipfile    -m   move into zipfile\n  -@   read names from stdin        -o   make zipfile as old as latest entry\n  -F   fix zipfile (-FF try harder) -D   do not add directory entries\n';
    const shorts = parseHelp(help).options.map((candidate) => candidate.short);
    expect(shorts).toEqual(['f', 'u', 'd', 'm', '@', 'o', 'F', 'D']);
  });

  it('getopt `-q|--quiet` then `-qq   Print nothing`: the doubled letter is the flag given twice; Go `-v` then `-vv` stays two options', () => {
    const help = 'Usage: w [ options ] file\nOptions:\n\t-q|--quiet    \tPrint less.\n\t-qq           \tPrint nothing.\n';
    expect(parseHelp(help).options.map((candidate) => [candidate.short, candidate.long, candidate.repeatable])).toEqual([['q', 'quiet', true]]);
    const go = 'Usage of grpcurl:\n  -v\tEnable verbose output.\n  -vv\n    \tEnable very verbose output.\n';
    expect(parseHelp(go).options.map((candidate) => candidate.short ?? candidate.long)).toEqual(['v', 'vv']);
  });

  it('a stray `@<file>  text` line between option entries at their indent leaves the flag lines after it options', () => {
    const help =
      'Usage: w [ options ] file\nOptions:\n\t-r|--recursive\tWatch directories.\n\t@<file>       \tExclude the file.\n\t--exclude <pattern>\n\t              \tExclude matching files.\n';
    expect(option(help, 'exclude')?.takes_value).toBe(true);
  });
});

describe('invented choices', () => {
  it('axel `--max-speed=x<TAB>-s x`: the short column repeating the placeholder is the same option; a lone `--max-redirect=x` names a value, not the literal `x`', () => {
    const help =
      'Usage: axel [options] url1 [url2] [url...]\n\n--max-speed=x\t\t-s x\tSpecify maximum speed\n--max-redirect=x\t\tSpecify maximum number of redirections\n--search[=n]\t\t-S[n]\tSearch for mirrors\n--ipv4\t\t\t-4\tUse the IPv4 protocol\n';
    expect(option(help, 'max-speed')).toMatchObject({ short: 's', takes_value: true, choices: null });
    expect(option(help, 'max-redirect')).toMatchObject({ takes_value: true, choices: null });
    expect(option(help, 'search')).toMatchObject({ short: 'S', takes_value: true, value_optional: true });
  });

  it("argparse `'tab' or 'x09' for a tab (default: comma ',')`: prose alternatives leaving out the quoted default are special values, and `comma ','` names the default", () => {
    const help =
      "usage: x [-d DELIMITER]\n\noptions:\n  -d DELIMITER, --delimiter DELIMITER\n                        column delimiter in CSV, 'tab' or 'x09' for a tab (default:\n                        comma ',')\n";
    expect(option(help, 'delimiter')).toMatchObject({ choices: null, default: ',' });
  });
});

describe('choices', () => {
  it("argparse `'none' 'minimal' 'nonnumeric' or 'all'`: quoted alternatives side by side need no comma", () => {
    const help =
      "usage: x [-q QUOTING]\n\noptions:\n  -q QUOTING, --quoting QUOTING\n                        field quoting in CSV, 'none' 'minimal' 'nonnumeric' or 'all'\n                        (default: minimal)\n";
    expect(option(help, 'quoting')).toMatchObject({ choices: ['none', 'minimal', 'nonnumeric', 'all'], default: 'minimal' });
  });
});

describe('positionals', () => {
  it('optparse `file|dir ...` outside brackets: bare alternatives are one argument of either kind, here repeated', () => {
    expect(parseHelp('Usage: futurize [options] file|dir ...\n\nOptions:\n  -q  quiet\n').positionals).toMatchObject([{ name: 'file|dir', required: true, variadic: true }]);
  });

  it('a numbered series going on past two (`url1 [url2] [url...]`, `file1 [ file2 ] [ file3 ] [ ... ]`) is one repeated argument; `FILE1 [FILE2]` stays two', () => {
    const names = (form: string): (string | boolean)[][] =>
      parseHelp(`Usage: ${form}\n\nOptions:\n  -q  quiet\n`).positionals.map((positional) => [positional.name, positional.required, positional.variadic]);
    expect(names('axel [options] url1 [url2] [url...]')).toEqual([['url', true, true]]);
    expect(names('inotifywait [ options ] file1 [ file2 ] [ file3 ] [ ... ]')).toEqual([['file', true, true]]);
    expect(names('tr [OPTION]... STRING1 [STRING2]')).toEqual([
      ['STRING1', true, false],
      ['STRING2', false, false],
    ]);
  });
});

describe('value-taking', () => {
  it("xsltproc `--maxdepth val : …`, `--param name value : …`, `--path 'paths': …`, `--output file or -o file: …`: a colon after the spellings and placeholders ends the head", () => {
    const help =
      "Usage: xsltproc [options] stylesheet file [file ...]\n   Options:\n\t--output file or -o file: save to a given file\n\t--timing: display the time used\n\t--maxdepth val : increase the maximum depth (default 3000)\n\t--param name value : pass a (parameter,value) pair\n\t--path 'paths': provide a set of paths for resources\n\t--nonet : refuse to fetch DTDs\n";
    expect(option(help, 'output')).toMatchObject({ short: 'o', takes_value: true });
    expect(option(help, 'maxdepth')).toMatchObject({ takes_value: true, default: 3000 });
    expect(option(help, 'param')?.takes_value).toBe(true);
    expect(option(help, 'path')?.takes_value).toBe(true);
    expect(option(help, 'nonet')?.takes_value).toBe(false);
    expect(option(help, 'timing')?.takes_value).toBe(false);
  });
});

describe('zip usage clusters and help', () => {
  it('`[-xi list]`: a cluster of listed flags gives the value word to its last letter; `-h2  show more help` is help', () => {
    const help = 'Usage: zip [-xi list] [zipfile]\n\nOptions:\n  -x   exclude the following names  -i   include only the following names\n  -q   quiet operation              -v   verbose operation\n  -h2  show more help\n';
    expect(option(help, 'i')?.takes_value).toBe(true);
    expect(option(help, 'x')?.takes_value).toBe(false);
    expect(parseHelp(help).options.map((candidate) => candidate.short ?? candidate.long)).toEqual(['x', 'i', 'q', 'v']);
  });
});

describe('zip usage', () => {
  const help =
    "Copyright (c) 1990-2008 Info-ZIP - Type 'zip \"-L\"' for software license.\nZip 3.0 (July 5th 2008). Usage:\nzip [-options] [-b path] [zipfile list]\n  The default action is to add or replace zipfile entries from list, which\n  can include the special name - to compress standard input.\n  If zipfile and list are omitted, zip compresses stdin to stdout.\n  -f   freshen: only changed files  -u   update: only changed or new files\n  -d   delete entries in zipfile    -m   move into zipfile\n";

  it('`Zip 3.0 (July 5th 2008). Usage:` titles the form below it, and the sentences under that form are no forms', () => {
    expect(parseHelp(help).name).toBe('zip');
  });

  it('`[-options]` is the options placeholder, no cluster of letters', () => {
    expect(parseHelp(help).options.map((candidate) => candidate.short)).toEqual(['f', 'u', 'd', 'm', 'b']);
  });

  it('`[zipfile list]` with `If zipfile and list are omitted`: two arguments, the list repeating; pip `[config dir]` stays one', () => {
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([
      ['zipfile', false, false],
      ['list', false, true],
    ]);
    expect(parseHelp('Usage: pip config [config dir]\n\nOptions:\n  -q  quiet\n').positionals.map((positional) => positional.name)).toEqual(['config dir']);
  });
});

describe('libjpeg switch lists', () => {
  const help =
    'usage: jpegtran [switches] [inputfile]\nSwitches (names may be abbreviated):\n  -copy none     Copy no extra markers from source file\n  -copy comments Copy only comment markers (default)\n  -copy icc      Copy only ICC profile markers\n  -copy all      Copy all extra markers\n  -optimize      Optimize Huffman table\nSwitches for modifying the image:\n  -crop WxH+X+Y  Crop to a rectangular region\n  -drop +X+Y filename          Drop (insert) another image\n  -grayscale     Reduce to grayscale\n';

  it('`-copy none` / `-copy comments … (default)` / …: one spelling on several lines with words of its own lists the values, the `(default)` line the default (its word overflowing the column by one space)', () => {
    expect(option(help, 'copy')).toMatchObject({ takes_value: true, choices: ['none', 'comments', 'icc', 'all'], default: 'comments' });
  });

  it('`-crop WxH+X+Y`, `-drop +X+Y filename`: an X11 geometry is a placeholder', () => {
    expect(option(help, 'crop')?.takes_value).toBe(true);
    expect(option(help, 'drop')?.takes_value).toBe(true);
    expect(option(help, 'grayscale')?.takes_value).toBe(false);
  });
});

describe('typer type cells and prose values', () => {
  const help =
    'Usage: rstcheck [OPTIONS] {files}...\n\nOptions:\n  --report-level                   LEVEL   The report level of the linting issues found. Valid\n                                           levels are: INFO | WARNING | ERROR | SEVERE | NONE.\n                                           Defaults to INFO. Can be set in config file.\n  --ignore-messages                REGEX   A regular expression to match linting issue messages\n                                           against to ignore.\n  --recursive              -r      <bool>  Recursively search.\n  --help                           <bool>  Show this message and exit.\n';

  it('`LEVEL … Valid levels are: INFO | WARNING | ERROR`: the value name in the plural, values joined by `|`; the stated default among them', () => {
    expect(option(help, 'report-level')).toMatchObject({ choices: ['INFO', 'WARNING', 'ERROR', 'SEVERE', 'NONE'], default: 'INFO' });
  });

  it('`--ignore-messages   REGEX   A regular…`: a REGEX type cell names the value', () => {
    expect(option(help, 'ignore-messages')?.takes_value).toBe(true);
    expect(option(help, 'recursive')?.takes_value).toBe(false);
  });
});

describe('defaults', () => {
  it('click `Config file for iredis, default is ~/.iredisrc. You can…`: a clause after a comma states the default (a home path too); `default is No decode, which…` none', () => {
    const help =
      'Usage: iredis [OPTIONS]\n\nOptions:\n  --iredisrc TEXT   Config file for iredis, default is\n                    ~/.iredisrc. You can also set config path\n  --decode TEXT     decode response, default is No decode, which\n                    will output all bytes literals.\n';
    expect(option(help, 'iredisrc')?.default).toBe('~/.iredisrc');
    expect(option(help, 'decode')?.default).toBeNull();
  });
});

describe('titled value lists', () => {
  it('inotifywait `Events:` over a definition list: the plural of `--event <event1>` titles its values; a list leaving out the stated default gives none', () => {
    const help =
      'Usage: w [ options ] file\nOptions:\n\t-e|--event <event1> [ -e|--event <event2> ... ]\n\t\tListen for specific event(s).\n\t--format <fmt>\tPrint using a format (default "plain").\n\nEvents:\n\taccess\t\tfile or directory contents were read\n\tmodify\t\tfile or directory contents were written\n\nFormats:\n\tcsv\t\tcomma separated\n\tjson\t\tone object a line\n';
    expect(option(help, 'event')?.choices).toEqual(['access', 'modify']);
    expect(option(help, 'format')?.choices).toBeNull();
  });
});

describe('usage-only flags', () => {
  it('cowsay `[-bdgpstwy] [-h] [-e eyes]` / `[-l] [-n] [message]`: a one-letter flag alone in its bracket is a flag too', () => {
    const help = 'cow{say,think} version 3.03, (c) 1999 Tony Monroe\nUsage: cowsay [-bdg] [-h] [-e eyes] [-f cowfile] \n          [-l] [-n] [-W wrapcolumn] [message]\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => [candidate.short, candidate.takes_value])).toEqual(
      expect.arrayContaining([['l', false], ['n', false], ['b', false], ['e', true]]),
    );
    expect(spec.options.some((candidate) => candidate.short === 'h')).toBe(false);
  });
});
