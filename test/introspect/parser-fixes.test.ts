/**
 * Notations first met in the corpus's second held-back part and in the tuned part's last misses
 * (issue 12, parser fixes), each pinned on a minimal help: hand-written `-h: text` entries, prose
 * defaults of `true|false` options, GNU `WORD is a, b, or c:` lists over several lines, a short
 * and a long spelling of one option on two lines, comma-joined positional names, a bare-word
 * alternative next to an option in a usage group, and tsc's value options without a placeholder.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('option heads', () => {
  it('hand-written `-h: text` and `-d, -u: decode`: a colon after a flag ends the head', () => {
    const help = 'usage: base64.py [-h|-d|-e|-u|-t] [file|-]\n        -h: print this help message and exit\n        -d, -u: decode\n        -e: encode (default)\n';
    const options = parseHelp(help).options;
    expect(options.map(({ long, short, aliases, takes_value }) => ({ long, short, aliases, takes_value }))).toEqual([
      { long: null, short: 'd', aliases: ['-u'], takes_value: false },
      { long: null, short: 'e', aliases: [], takes_value: false },
    ]);
    expect(options[0]?.description).toBe('decode');
  });

  it('`-m<mode>  …set the mode as an octal` then `--mode=<mode>  permission string.`: one option over two lines', () => {
    const help = 'usage: mkdirp [DIR1,DIR2..] {OPTIONS}\n\nOPTIONS are:\n\n  -m<mode>       If a directory needs to be created, set the mode as an octal\n  --mode=<mode>  permission string.\n\n  -p --print     Print the first directories created\n';
    const options = parseHelp(help).options;
    expect(options.map(({ long, short, takes_value }) => ({ long, short, takes_value }))).toEqual([
      { long: 'mode', short: 'm', takes_value: true },
      { long: 'print', short: 'p', takes_value: false },
    ]);
    expect(options[0]?.description).toBe('If a directory needs to be created, set the mode as an octal permission string.');
  });

  it('a short and a long line that each end their sentence stay two options', () => {
    const help = 'Options:\n  -m<mode>       Set the mode.\n  --mode=<mode>  set the mode too.\n';
    expect(parseHelp(help).options.map(({ long, short }) => ({ long, short }))).toEqual([
      { long: null, short: 'm' },
      { long: 'mode', short: null },
    ]);
  });
});

describe('choices written in prose', () => {
  it('GNU touch: `WORD is access, atime, or use: …` and `WORD is modify or mtime: …` on the next line are all choices', () => {
    const help =
      'Usage: touch [OPTION]... FILE...\n\n  -a                     change only the access time\n      --time=WORD        change the specified time:\n                           WORD is access, atime, or use: equivalent to -a\n                           WORD is modify or mtime: equivalent to -m\n';
    expect(option(help, 'time')?.choices).toEqual(['access', 'atime', 'use', 'modify', 'mtime']);
  });
});

describe('defaults written in prose', () => {
  const help = (description: string, head = '--inherit-env <true|false>'): string => `OPTIONS:\n        ${head}\n            When using WASI, should environment variables be inherited?\n\n            ${description}\n`;

  it('`This is false by default.` and ``This is `true` by default, meaning…`` on a `<true|false>` option give the choice', () => {
    expect(option(help('This is false by default.'), 'inherit-env')?.default).toBe('false');
    expect(option(help('This is `true` by default, meaning that it is inherited.'), 'inherit-env')?.default).toBe('true');
    expect(option(help('This is 8 by default.', '--jobs <N>'), 'jobs')?.default).toBe(8);
  });

  it('`Enabled by default.` / `Disabled by default.` give a `<true|false>` option its default, and a flag none', () => {
    expect(option(help('Enabled by default.'), 'inherit-env')?.default).toBe('true');
    expect(option(help('Disabled by default.'), 'inherit-env')?.default).toBe('false');
    expect(option(help('Enabled by default.', '--simd <bool>'), 'simd')?.default).toBe(true);
    expect(option(help('Enabled by default.', '--simd'), 'simd')?.default).toBeNull();
  });

  it('GNU-style prose: `; default 4`, `The default value is 10.`, `(default is 1024)`; a conditional is none', () => {
    const gnu = (line: string, key: string) => option(`Usage: p [OPTION]...\n\n  ${line}\n`, key)?.default;
    expect(gnu('--jobs=N    number of jobs; default 4', 'jobs')).toBe(4);
    expect(gnu('--x=N    The default value is 10.', 'x')).toBe(10);
    expect(gnu('--block-size=SIZE    scale sizes by SIZE (default is 1024)', 'block-size')).toBe(1024);
    expect(gnu('--retries=N    retry N times (defaults to 3 if unset)', 'retries')).toBeNull();
    expect(gnu('--out=FILE    write to FILE (default: standard output)', 'out')).toBeNull();
  });

  it('prose before `by default` is no default', () => {
    expect(option(help('None are mapped by default.', '--mapdir <GUEST::HOST>...'), 'mapdir')?.default).toBeNull();
    expect(option(help('This is enabled by default.', '--color <WHEN>'), 'color')?.default).toBeNull();
  });
});

describe('positionals in usage forms', () => {
  const positionals = (help: string) => parseHelp(help).positionals.map(({ name, required, variadic }) => ({ name, required, variadic }));

  it('`[DIR1,DIR2..]`: a comma between name characters joins one positional name; `{OPTIONS}` is none', () => {
    expect(positionals('usage: mkdirp [DIR1,DIR2..] {OPTIONS}\n')).toEqual([{ name: 'DIR1,DIR2', required: false, variadic: true }]);
    expect(positionals('usage: cp [-a, --all] SOURCE DEST\n')).toEqual([
      { name: 'SOURCE', required: true, variadic: false },
      { name: 'DEST', required: true, variadic: false },
    ]);
  });

  it('optparse `[-m module | scriptfile] [arg] ...`: the bare alternative is a positional, the option’s word is not', () => {
    const help = 'Usage: cProfile.py [-o output_file_path] [-m module | scriptfile] [arg] ...\n\nOptions:\n  -o OUTFILE, --outfile=OUTFILE\n                        Save stats to <outfile>\n  -m                    Profile a library module\n';
    expect(positionals(help)).toEqual([
      { name: 'scriptfile', required: false, variadic: false },
      { name: 'arg', required: false, variadic: true },
    ]);
  });

  it('alternatives that are all options name no positional; bare alternatives are still one positional', () => {
    expect(positionals('Usage: unzip (-l <zipfile> | -t <zipfile>)\n\nOptions:\n  -l <zipfile>  list\n  -t <zipfile>  test\n')).toEqual([]);
    expect(positionals('Usage: git show [<commit> | <object>]\n')).toEqual([{ name: 'commit|object', required: false, variadic: false }]);
    // an option inside a nested group makes its whole alternative an option alternative
    expect(positionals('Usage: tool [(-c | -C) <commit> | <path>]\n')).toEqual([{ name: 'path', required: false, variadic: false }]);
  });
});

describe('tsc: options flush left without a placeholder', () => {
  const help = [
    'tsc: The TypeScript Compiler',
    '',
    'COMMON COMMANDS',
    '',
    '  tsc -p ./path/to/tsconfig.json',
    '  Compiles the TypeScript project located at the specified path.',
    '',
    'COMMAND LINE FLAGS',
    '',
    '--watch, -w',
    'Watch input files.',
    '',
    '--project, -p',
    'Compile the project given the path to its configuration file.',
    '',
    'COMMON COMPILER OPTIONS',
    '',
    '--pretty',
    'Enable color.',
    'type: boolean',
    'default: true',
    '',
    '--outDir',
    'Specify an output folder for all emitted files.',
    '',
    '--maxNodeModuleJsDepth',
    'Specify the maximum folder depth.',
    'type: number',
    'default: 0',
    '',
    '--strict',
    'Enable all strict type-checking options.',
    'type: boolean',
    'default: false',
    '',
  ].join('\n');

  it('an option among typed ones without a `type:` line, or given a value by an example, takes a value', () => {
    const shapes = parseHelp(help).options.map(({ long, takes_value, type }) => ({ long, takes_value, type }));
    expect(shapes).toEqual([
      { long: 'watch', takes_value: false, type: 'boolean' },
      { long: 'project', takes_value: true, type: 'string' },
      { long: 'pretty', takes_value: false, type: 'boolean' },
      { long: 'outDir', takes_value: true, type: 'string' },
      { long: 'maxNodeModuleJsDepth', takes_value: true, type: 'number' },
      { long: 'strict', takes_value: false, type: 'boolean' },
    ]);
  });

  it('without `type:` lines the style is not assumed: flush-left options stay flags', () => {
    const untyped = 'prog: a tool\n\n  prog --name foo\n\n--name\nThe name.\n\n--verbose\nSay more.\n';
    expect(parseHelp(untyped).options.map(({ long, takes_value }) => ({ long, takes_value }))).toEqual([
      { long: 'name', takes_value: false },
      { long: 'verbose', takes_value: false },
    ]);
  });
});
