/**
 * One small help text per notation the parser must understand (issue 12: choices, defaults,
 * value-taking, positionals), each asserting the spec field it should produce.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import type { CliOption, CliSpec } from '../../src/introspect/spec.ts';

function option(spec: CliSpec, long: string): CliOption {
  const found = spec.options.find((candidate) => candidate.long === long || (candidate.long === null && candidate.short === long));
  if (found === undefined) throw new Error(`no option ${long} in ${JSON.stringify(spec.options.map((o) => o.long ?? o.short))}`);
  return found;
}

const withOptions = (lines: string): CliSpec => parseHelp(`Usage: tool [OPTIONS] [FILE]...\n\nOptions:\n${lines}\n`);

describe('choices', () => {
  it.each([
    ['clap [possible values: a, b]', '      --color <WHEN>  Coloring [possible values: auto, always, never]', 'color', ['auto', 'always', 'never']],
    ['argparse {a,b,c}', '  --type {text,html}  output type', 'type', ['text', 'html']],
    ['yargs [choices: "a", "b"]', '  --mode  resize mode  [string] [choices: "fit", "fill"] [default: "fit"]', 'mode', ['fit', 'fill']],
    ['one of: a, b', '  --format FMT  output format, one of: json, yaml, toml', 'format', ['json', 'yaml', 'toml']],
    ['optionator Either: a, b, or c', '  --severity String  Severity level - either: off, warn, error, or 2', 'severity', ['off', 'warn', 'error', '2']],
    ["GNU WHEN is 'always', 'auto', or 'never'", "      --color[=WHEN]  colorize the output; WHEN is 'always', 'auto', or 'never'", 'color', ['always', 'auto', 'never']],
    ['(a|b|c) in a value name', '  -t, --track[=(direct|inherit)]  set up tracking', 'track', ['direct', 'inherit']],
    ['--x <a|b>', '      --edition <2015|2018|2021>  Rust edition', 'edition', ['2015', '2018', '2021']],
    ['click [a|b] value', '  -s, --sort [endpoint|methods]  Method to sort routes by.', 'sort', ['endpoint', 'methods']],
    ['GNU METHOD={a(default),b}', '      --group[=METHOD]  show all items; METHOD={separate(default),prepend,append}', 'group', ['separate', 'prepend', 'append']],
    ['a colon list after a noun', '  -m, --mode string  coverage mode: set, count, atomic', 'mode', ['set', 'count', 'atomic']],
  ])('%s', (_label, line, long, choices) => {
    expect(option(withOptions(line), long).choices).toEqual(choices);
  });

  it('a value list on the lines after an option', () => {
    const spec = withOptions(['  -f, --format FMT   output format:', '                       json   machine-readable', '                       text   for people'].join('\n'));
    expect(option(spec, 'format').choices).toEqual(['json', 'text']);
  });

  it("clap's long help: `Possible values:` then `- name: description`", () => {
    const spec = withOptions(['      --mode <MODE>', '          What mode to run in', '', '          Possible values:', '          - fast: Run swiftly', '          - slow: Crawl slowly', '', '  -h, --help', '          Print help'].join('\n'));
    expect(option(spec, 'mode').choices).toEqual(['fast', 'slow']);
  });

  it('a GNU epilog table under the option that names it', () => {
    const spec = parseHelp(
      ['Usage: cp [OPTION]... SOURCE DEST', '', '      --backup[=CONTROL]  make a backup of each existing destination file', '',
        'The version control method may be selected via the --backup option.  Here are the values:', '', '  none, off       never make backups', '  numbered, t     make numbered backups', ''].join('\n'),
    );
    expect(option(spec, 'backup').choices).toEqual(['none', 'off', 'numbered', 't']);
  });

  it('an open list (an upper-case placeholder among the items) gives no choices', () => {
    const spec = parseHelp(['Usage: nl [OPTION]... [FILE]...', '  -b, --body-numbering=STYLE  use STYLE for numbering body lines', '', 'STYLE is one of:', '', '  a      number all lines', '  t      number only nonempty lines', '  pBRE   number only lines that match BRE', ''].join('\n'));
    expect(option(spec, 'body-numbering').choices).toBeNull();
  });
});

describe('defaults, typed', () => {
  it.each([
    ['[default: x]', '  -c, --count <COUNT>  Number of times [default: 3]', 'count', 3],
    ['(default: x)', '  --protocol VERSION  conform to this HTTP version (default: HTTP/1.0)', 'protocol', 'HTTP/1.0'],
    ['Go (default "x")', '  -n, --namespace string   namespace to use (default "prod")', 'namespace', 'prod'],
    ['cobra (default x)', '  -r, --replicas int   number of replicas (default 2)', 'replicas', 2],
    ['defaults to x', '  --retries N  how often to retry; defaults to 5', 'retries', 5],
    ['Default: x', '  --ratio FLOAT  compression ratio. Default: 0.75', 'ratio', 0.75],
    ['click show_default', '  --size INTEGER  thumbnail size  [default: 128]', 'size', 128],
    ['GNU prose (default N) mid-sentence', '  -s, --sleep-interval=N   with -f, sleep for approximately N seconds (default 1.0) between iterations', 'sleep-interval', 1],
    ['GNU prose: the default is N', '  -T, --threads=NUM   use at most NUM threads; the default is 1', 'threads', 1],
    ['a boolean flag, typed', '  --cache   Only check changed files - default: false', 'cache', false],
  ])('%s', (_label, line, long, value) => {
    expect(option(withOptions(line), long).default).toEqual(value);
  });

  it('a decimal default makes an integer-looking value a number', () => {
    const found = option(withOptions('  -s, --sleep-interval=N   sleep N seconds (default 1.5)'), 'sleep-interval');
    expect(found.type).toBe('number');
    expect(found.default).toBe(1.5);
  });

  it('a default names a choice in the choice\'s spelling', () => {
    expect(option(withOptions('  --threads={physical|logical}  cores to count [Default: Physical]'), 'threads').default).toBe('physical');
  });
});

describe('value-taking notations', () => {
  it.each([
    ['-o FILE', '  -o FILE     write to FILE', 'o', true],
    ['--x=<v>', '  --output=<path>  where to write', 'output', true],
    ['--x[=WHEN] (optional)', '  --color[=WHEN]  colorize', 'color', true],
    ['optionator path::String', '  -c, --config path::String  Use this configuration', 'config', true],
    ['optionator String', '  --parser String   Specify the parser', 'parser', true],
    ['optionator [String]', '  --plugin [String]  Specify plugins', 'plugin', true],
    ['zstd -T#', '  -T#      Spawn # compression threads. [Default: 1]', 'T', true],
    ['a plain flag', '  -v, --verbose   say more', 'verbose', false],
  ])('%s', (_label, line, long, takes) => {
    expect(option(withOptions(line), long).takes_value).toBe(takes);
  });

  it('an optional value is marked so the argv attaches it', () => {
    expect(option(withOptions('  --color[=WHEN]  colorize'), 'color').value_optional).toBe(true);
  });

  it('an option on two lines (flag, then flag=value) takes an optional value', () => {
    const spec = withOptions(['  -save-temps              Do not delete intermediate files.', '  -save-temps=<arg>        Do not delete intermediate files.'].join('\n'));
    expect(option(spec, 'save-temps')).toMatchObject({ takes_value: true, value_optional: true });
    expect(spec.options.filter((candidate) => candidate.long === 'save-temps')).toHaveLength(1);
  });

  it('literal value spellings on their own lines are one option with choices', () => {
    const spec = withOptions(['  --format=zstd   Compress to .zst. [Default]', '  --format=gzip   Compress to .gz.', '  --format=xz     Compress to .xz.'].join('\n'));
    expect(option(spec, 'format')).toMatchObject({ takes_value: true, choices: ['zstd', 'gzip', 'xz'], default: 'zstd' });
  });

  it('--x, --no-x on one line: the negation', () => {
    expect(option(withOptions('  --color, --no-color   Force enabling/disabling of color'), 'color')).toMatchObject({ takes_value: false, negation: '--no-color' });
  });

  it('repeated options become arrays (repeatable)', () => {
    expect(option(withOptions('  -l, --label strings   label to add'), 'label').repeatable).toBe(true);
    expect(option(withOptions('  -I DIR   add DIR to the search path; may be given more than once'), 'I').repeatable).toBe(true);
  });
});

describe('positionals', () => {
  const positionalsOf = (text: string) => parseHelp(text).positionals.map(({ name, required, variadic }) => ({ name, required, variadic }));

  it('`[--] <repo> [<dir>]`', () => {
    expect(positionalsOf('usage: git clone [<options>] [--] <repo> [<dir>]\n')).toEqual([
      { name: 'repo', required: true, variadic: false },
      { name: 'dir', required: false, variadic: false },
    ]);
  });

  it.each([
    ['FILE...', 'Usage: cat FILE...', { name: 'FILE', required: true, variadic: true }],
    ['[FILE]...', 'Usage: cat [OPTION]... [FILE]...', { name: 'FILE', required: false, variadic: true }],
    ['<arg>...', 'Usage: run <arg>...', { name: 'arg', required: true, variadic: true }],
    ['cac [...files]', 'Usage:\n  $ tool [...files]', { name: 'files', required: false, variadic: true }],
    ['argparse X [X ...]', 'usage: venv [-h] ENV_DIR [ENV_DIR ...]', { name: 'ENV_DIR', required: true, variadic: true }],
    ['<requirement specifier>', 'Usage: pip install [options] <requirement specifier>', { name: 'requirement specifier', required: true, variadic: false }],
    ['[requirement specifier]', 'Usage: pip install [options] [requirement specifier]', { name: 'requirement specifier', required: false, variadic: false }],
    ['[FILE|DIR ...] alternatives', 'usage: compileall.py [-h] [FILE|DIR ...]', { name: 'FILE|DIR', required: false, variadic: true }],
  ])('%s', (_label, usage, expected) => {
    expect(positionalsOf(`${usage}\n`)).toEqual([expected]);
  });

  it('argparse "positional arguments:" section', () => {
    const text = ['usage: json.tool [-h] [--sort-keys] [infile] [outfile]', '', 'positional arguments:', '  infile       a JSON file', '  outfile      where to write', '', 'options:', '  -h, --help   show this help message and exit', '  --sort-keys  sort the output'].join('\n');
    expect(positionalsOf(text)).toEqual([
      { name: 'infile', required: false, variadic: false },
      { name: 'outfile', required: false, variadic: false },
    ]);
  });

  it("clap's Arguments: section", () => {
    const text = ['Usage: tool [OPTIONS] <PATTERN> [PATH]...', '', 'Arguments:', '  <PATTERN>  what to find', '  [PATH]...  where to look', '', 'Options:', '  -h, --help  Print help'].join('\n');
    expect(positionalsOf(text)).toEqual([
      { name: 'PATTERN', required: true, variadic: false },
      { name: 'PATH', required: false, variadic: true },
    ]);
  });

  it('docopt: several forms with different commands become subcommands, not positionals', () => {
    const spec = parseHelp(['Usage:', '  naval_fate ship new <name>...', '  naval_fate ship <name> move <x> <y> [--speed=<kn>]', '  naval_fate mine (set|remove) <x> <y>', '  naval_fate -h | --help'].join('\n'));
    expect(spec.subcommands.map((command) => command.name)).toEqual(['ship', 'mine']);
    expect(spec.name).toBe('naval_fate');
  });
});

describe('program names', () => {
  it.each([
    ['git clone [<options>]', 'usage: git clone [<options>] [--] <repo> [<dir>]', 'git_clone'],
    ['cargo build [OPTIONS]', 'Usage: cargo build [OPTIONS]', 'cargo_build'],
    ['python -m json.tool', 'usage: python -m json.tool [-h] [infile]', 'json_tool'],
    ['clap [EXE]', 'Usage: 01_quick[EXE] [OPTIONS] [name]', '01_quick'],
    ["Go `Usage of 'go tool cover':`", "Usage of 'go tool cover':\n  -o string\n    \tfile for output\n  -v\tverbose", 'go_tool_cover'],
    ['USAGE: header', 'USAGE:\n    demo [OPTIONS] --name <NAME>', 'demo'],
    ['cac $ prefix', 'Usage:\n  $ vite [root]', 'vite'],
  ])('%s', (_label, text, name) => {
    expect(parseHelp(`${text}\n`).name).toBe(name);
  });

  it('a path word followed by positionals is not part of the name (pack op file.a)', () => {
    expect(parseHelp('Usage: pack op file.a [name....]\n').name).toBe('pack');
  });
});

describe('what was not understood', () => {
  it('reports flag-like and in-list lines that were not read, for inspect and check', async () => {
    const { parseHelpReport } = await import('../../src/introspect/parse-help.ts');
    const { buildInspectReport, describeUnparsed } = await import('../../src/introspect/inspect-report.ts');
    const text = ['Usage: grep [OPTION]... PATTERNS [FILE]...', '  -C, --context=NUM         print NUM lines of context', '  -NUM                      same as --context=NUM', '  (see the manual for more)', '  --                        end of options', ''].join('\n');
    const { spec, unparsed } = parseHelpReport(text);
    expect(spec.options.map((option) => option.long)).toEqual(['context']);
    expect(unparsed.map((entry) => entry.line)).toEqual([3]);
    expect(describeUnparsed(unparsed)).toBe('1 line in the options sections was not parsed (line 3: -NUM                      same as --context=NUM)');
    expect(buildInspectReport(spec, {}, unparsed).not_understood).toEqual({ count: 1, lines: [{ line: 3, text: '-NUM                      same as --context=NUM' }] });
    expect(parseHelpReport('Usage: t [-v]\n  -v   verbose\n').unparsed).toEqual([]);
  });
});

describe('a value named only in the description', () => {
  it('`-t   TIMEOUT  wait TIMEOUT seconds` takes a value; a plain description does not', () => {
    const spec = withOptions(['  -t          TIMEOUT  wait TIMEOUT seconds', '  -f          FILE     read from there', '  -q          quiet: say less'].join('\n'));
    expect(spec.options.map((found) => [found.short, found.takes_value, found.value_name])).toEqual([['t', true, 'TIMEOUT'], ['f', true, 'FILE'], ['q', false, null]]);
  });
});
