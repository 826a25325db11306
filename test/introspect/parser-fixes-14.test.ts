/**
 * Notations met in parser fixes round 11 (issue 12, corpus batch 14), each pinned on a minimal help:
 * value-taking, positionals, names, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('defaults', () => {
  it('kingpin prints a default in place of the placeholder (`--max-len=100`), as kong does; a repeated option shows only the first of its defaults', () => {
    const help =
      'usage: golines [<flags>] [<paths>...]\n\nFlags:\n      --[no-]help              Show context-sensitive help (also try --help-long and --help-man).\n      --ignored-dirs=vendor... ...  \n                               Directories to ignore\n  -m, --max-len=100            Target maximum line length\n      --profile=""             Path to profile output\n';
    expect(option(help, 'max-len')).toMatchObject({ takes_value: true, default: 100 });
    expect(option(help, 'ignored-dirs')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'profile')).toMatchObject({ takes_value: true, default: null });
  });
});

describe('value-taking', () => {
  it('an example piping into the program (`$ cat log | pp -m info`) gives a bare-listed option a value', () => {
    const help =
      'Usage: pp [options]\n\nOptions:\n  -k, --levelKey [value]  Read the level under this key\n  -m, --minimumLevel      Hide messages below the level\n  -l, --levelFirst        Print the level first\n\nExamples:\n  $ cat log | pp -m info\n  $ cat log | pp -l\n';
    expect(option(help, 'minimumLevel')?.takes_value).toBe(true);
    expect(option(help, 'levelFirst')?.takes_value).toBe(false);
  });

  it('commander `[command]` over a `Commands:` list takes no positional: the word after an option in an example is its value', () => {
    const help =
      'Usage: pp [options] [command]\n\nCommands:\n  help     Display help\n  version  Display version\n\nOptions:\n  -k, --levelKey [value]  Read the level under this key\n  -i, --ignore            Ignore keys\n  -l, --levelFirst        Print the level first\n\nExamples:\n  $ pp -i pid,hostname\n  $ pp -l help\n';
    expect(option(help, 'ignore')?.takes_value).toBe(true);
    expect(option(help, 'levelFirst')?.takes_value).toBe(false);
  });

  it('a description giving its own short spelling a value, backquoted or in parentheses (`(-U false)`), in a bare help', () => {
    const help =
      'Usage: pp [options]\n\nOptions:\n  -c, --colorize             Force color\n  -x, --customLevels         Override default levels (`-x err:99,info:1`)\n  -U, --useOnlyCustomProps   Only use custom levels (-U false)\n  -S, --singleLine           Print on a single line\n  -H, --hideObject           Hide objects (not -S)\n  -f, --crlf                 Append CRLF\n';
    expect(option(help, 'customLevels')?.takes_value).toBe(true);
    expect(option(help, 'useOnlyCustomProps')?.takes_value).toBe(true);
    expect(option(help, 'hideObject')?.takes_value).toBe(false);
    expect(option(help, 'colorize')?.takes_value).toBe(false);
  });
});

describe('value-taking in columns', () => {
  it('pngquant `--quality min-max don\'t…`: a word set off by single spaces, one space short of the description column, is the value name', () => {
    const help =
      'usage:  pq [options] -- file\n\noptions:\n  --force           overwrite existing output files\n  --output file     destination file path\n  --quality min-max don\'t save below min\n  --nofs            disable dithering\n  --fast  snappyish output\n';
    expect(option(help, 'quality')).toMatchObject({ takes_value: true, value_name: 'min-max', description: "don't save below min" });
    // after a gap the word opens the description, wherever it ends
    expect(option(help, 'fast')?.takes_value).toBe(false);
  });
});

describe('choices and defaults on titled lines', () => {
  const help =
    'Usage: dl [OPTIONS] [URI]...\nOptions:\n -d, --dir=DIR                The directory to store the file.\n\n                              Possible Values: /path/to/directory\n                              Default: /tmp\n                              Tags: #basic, #file\n\n --file-allocation=METHOD     Specify file allocation method.\n\n                              Possible Values: none, prealloc, trunc, falloc\n                              Default: prealloc\n                              Tags: #basic, #file\n\n -c, --continue[=true|false]  Continue downloading.\n\n                              Possible Values: true, false\n                              Default: false\n                              Tags: #basic, #http\n\n --name=NAME                  Name it. Default: the host name\n';
  it('aria2 `Possible Values: a, b, c` on a line of its own, over `Default: b` and `Tags: …` lines', () => {
    expect(option(help, 'file-allocation')).toMatchObject({ choices: ['none', 'prealloc', 'trunc', 'falloc'], default: 'prealloc' });
    expect(option(help, 'continue')).toMatchObject({ choices: ['true', 'false'], default: 'false' });
  });
  it('a `Default:` value followed by the next titled line is whole; a phrase after it is still prose', () => {
    expect(option(help, 'dir')).toMatchObject({ default: '/tmp', choices: null });
    expect(option(help, 'name')?.default).toBeNull();
  });
});

describe('names and descriptions under an overflowing head', () => {
  it('aria2 `-j, --max-concurrent-downloads=N Set…`: the lines under it show the column; a line there starting `--split` is prose, a paragraph after a blank line still belongs', () => {
    const help =
      'Usage: dl [OPTIONS] [URI]...\nOptions:\n -s, --split=N                Download a file using N connections.\n\n                              Default: 5\n\n -j, --max-concurrent-downloads=N Set maximum number of parallel downloads for\n                              every static URL. See also the\n                              --split option. Each one counts.\n\n                              Default: 7\n\n -u, --max-upload-limit=SPEED Set max upload speed.\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => candidate.long)).toEqual(['split', 'max-concurrent-downloads', 'max-upload-limit']);
    expect(option(help, 'max-concurrent-downloads')).toMatchObject({ short: 'j', takes_value: true, default: 7 });
    expect(option(help, 'split')?.default).toBe(5);
  });
});

describe('defaults that shape the value', () => {
  it('aria2 `--listen-port=PORT… Default: 6881-6999`: a range as the default makes the value text, not a number', () => {
    const help =
      'Options:\n --listen-port=PORT...        Set TCP port number.\n\n                              Default: 6881-6999\n\n --rpc-port=PORT              Set RPC port.\n\n                              Default: 6800\n';
    expect(option(help, 'listen-port')).toMatchObject({ type: 'string', default: '6881-6999' });
    expect(option(help, 'rpc-port')).toMatchObject({ type: 'integer', default: 6800 });
  });
});

describe('positionals', () => {
  it('pngquant `[ncolors]`: a plural with C\'s `n` prefix counts the things (one number); `[pngfiles]` and `[nodes]` stay several', () => {
    const positionals = parseHelp('usage:  pq [options] [ncolors] -- pngfile [pngfile ...]\n\noptions:\n  --force   overwrite\n').positionals;
    expect(positionals).toMatchObject([
      { name: 'ncolors', required: false, variadic: false },
      { name: 'pngfile', required: true, variadic: true },
    ]);
    expect(parseHelp('usage: pq [options] [nodes]\n').positionals).toMatchObject([{ name: 'nodes', variadic: true }]);
    expect(parseHelp('usage: pq [options] [pngfiles]\n').positionals).toMatchObject([{ name: 'pngfiles', variadic: true }]);
  });
});

describe('defaults marked in a list', () => {
  it('pngquant `1=slow, 4=default, 11=fast & rough`: the value whose meaning is `default`; one `x=default` alone is no list', () => {
    const help =
      'options:\n  --speed N         speed/quality trade-off. 1=slow, 4=default, 11=fast & rough\n  --mode M          how to run; mode=default is taken\n  --force           overwrite existing output files\n';
    expect(option(help, 'speed')).toMatchObject({ type: 'integer', default: 4 });
    expect(option(help, 'mode')?.default).toBeNull();
  });

  it('rspec `[p]rogress (default - dots)` on a list line under the description: the item, without its `[p]` short-form mark', () => {
    const help =
      'Usage: rs [options]\n\n    -f, --format FORMATTER             Choose a formatter.\n                                         [p]rogress (default - dots)\n                                         [d]ocumentation (group and example names)\n                                         custom formatter class name\n    -c, --color WHEN                   Use colors (default - see below)\n';
    expect(option(help, 'format')).toMatchObject({ default: 'progress', choices: null });
    expect(option(help, 'color')?.default).toBeNull();
  });
});
