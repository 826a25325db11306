/**
 * Notations met in parser fixes round 17 (issue 12, batch 21 options: found, invented, value-taking,
 * names), each pinned on a minimal help written for the test, with a negative twin that differs only
 * in the cue that must stop it.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('bulleted option lists (man pages rendered from markdown)', () => {
  const bulleted = (bullet: string): string =>
    `SYNOPSIS\n       mdtool [-w <file>] [--fast]\n\nOPTIONS\n        ${bullet}-w, --write [target file]\n          Write the result to a file.\n\n        ${bullet}--fast\n          Skip checks.\n`;
  it.each([
    ['•', '• '],
    ['◦', '◦  '],
    ['▪', '▪ '],
  ])('`%s -w, --write [target file]`: the bullet is list markup, the line an option entry', (_name, bullet) => {
    expect(option(bulleted(bullet), 'write')).toMatchObject({ short: 'w', takes_value: true });
  });
  it('negative twin: a bullet before prose that mentions an option opens no entry', () => {
    const help = 'OPTIONS\n        • see -w, --write [target file]\n          Write the result to a file.\n';
    expect(option(help, 'write')).toBeUndefined();
  });
});

describe('a form titled `syntax:` listed one option group a line', () => {
  const listed = (title: string, gap: string): string =>
    `${title}\n  [--set-root DIRECTORY]\n  [--verbose]\n  [--quiet]\n  [--show-root]${gap}Prints the root entry.\n  [--swap-names OLD NEW]\n  FILE...\n`;
  it.each([
    ['syntax: elfedit', 'elfedit'],
    ['Synopsis: elfedit', 'elfedit'],
  ])('`%s` over deeper `[--x VALUE]` lines: the program, its positionals and usage-only options', (title, name) => {
    const help = listed(title, '\t\t');
    const spec = parseHelp(help);
    expect(spec.name).toBe(name);
    expect(spec.positionals).toEqual([{ name: 'FILE', required: true, variadic: true }]);
    expect(option(help, 'set-root')?.takes_value).toBe(true);
    expect(option(help, 'show-root')?.takes_value).toBe(false);
    expect(option(help, 'swap-names')).toMatchObject({ takes_value: true, value_count: 2 });
  });
  it('negative twin: a `syntax:` word over a line that opens no bracket is no form', () => {
    const help = 'syntax: elfedit\n  set-root DIRECTORY\n';
    expect(parseHelp(help).name).not.toBe('elfedit');
  });
  it('negative twin: a group glossed after one space only is prose that ends the form', () => {
    const help = listed('syntax: elfedit', ' ');
    expect(option(help, 'set-root')?.takes_value).toBe(true);
    expect(option(help, 'swap-names')).toBeUndefined();
  });
  it('negative twin: a bracketed word that is no option spelling, glossed after a gap, ends the form', () => {
    const help = 'syntax: elfedit\n  [--set-root DIRECTORY]\n  [--show-root]\n  [note]    the lines below are examples\n  [--swap-names OLD NEW]\n';
    expect(option(help, 'swap-names')).toBeUndefined();
  });
});

describe('usage-only long options with a value in capitals after a space', () => {
  const form = (value: string): string => `Usage: elfedit [--set-root${value}] [--show-root] [--verbose] FILE\n`;
  it.each([
    [' DIRECTORY', true],
    ['', false],
    [' DIR NAME', true],
  ])('`[--set-root%s]` takes a value: %s', (value, takes) => {
    expect(option(form(value), 'set-root')?.takes_value).toBe(takes);
  });
});

describe('a value column of `|`-joined values, the default in parentheses (rdfind)', () => {
  const table = (column: string): string => `Usage: dedup [options] DIR ...\n\n -hashing     ${column}  hash to compare with\n -quiet                  print nothing\n`;
  it.each([
    ['md5 |(sha1)| sha256', ['md5', 'sha1', 'sha256'], 'sha1'],
    ['(yes)| no', ['yes', 'no'], 'yes'],
    ['fast |(slow)', ['fast', 'slow'], 'slow'],
  ])('`%s`: the values, the parenthesized one the default', (column, choices, fallback) => {
    expect(option(table(column), 'hashing')).toMatchObject({ takes_value: true, choices, default: fallback, prefix: '-' });
    expect(option(table(column), 'quiet')?.takes_value).toBe(false);
  });
  it.each([
    ['(md5)|(sha1)| sha256', 'two items marked'],
    ['md5 | sha1 | sha256', 'no item marked'],
  ])('negative twin: `%s` (%s) states no default by the mark', (column) => {
    expect(option(table(column), 'hashing')?.default ?? null).toBeNull();
  });
});

describe('a single-dash long spelling glued to its short one by a bar', () => {
  it.each([
    ['-dryrun|-n', 'n'],
    ['-dryrun|n', null],
  ])('`%s  print what would be done`', (head, short) => {
    const help = `Usage: dedup [options] DIR ...\n\n ${head}         print what would be done\n -quiet           print nothing\n`;
    const found = option(help, 'dryrun');
    if (short === null) expect(found?.short ?? null).toBeNull();
    else expect(found).toMatchObject({ short, prefix: '-' });
  });
});

describe('a value word in a column of its own that the description names', () => {
  const row = (value: string, description: string): string => `Usage: dedup [options] DIR ...\n\n -resultname  ${value}  ${description}\n -quiet             print nothing\n`;
  it.each([
    ['name', 'sets the results file name to "name"', true],
    ['name', 'sets the results file name', false],
    ['Xms', 'sleep for X milliseconds between reads', true],
    ['Xms', 'sleep for some milliseconds between reads', false],
  ])('`%s  %s`: takes a value %s', (value, description, takes) => {
    expect(option(row(value, description), 'resultname')?.takes_value).toBe(takes);
  });
});

describe('description cues in a help that shows no placeholder', () => {
  const bare = (description: string): string =>
    `Usage: tabconv [options] file\n\nOptions:\n  --probe     ${description}\n  --verbose   Print more\n  --quiet     Print less\n  --strict    Fail on the first error\n  --color     Colorize the output\n`;
  it.each([
    ['Explicitly specify the end of line character to use.', true],
    ['Explicitly enable the end of line check.', false],
    ['escape character used in quoted column.', true],
    ['escape characters in quoted columns.', false],
    ['Field separator to use', true],
    ['The format to be converted to.', true],
    ['The format is checked before writing.', false],
    ['Append a string to the end of the TOC', true],
    ['Append a newline to the end of the TOC', false],
    ['Edit the <target> file in place (Without this flag, the result is printed.)', false],
    ['Edit the <target> file in place (Otherwise, the result is printed.)', true],
  ])('`%s`: takes a value %s', (description, takes) => {
    expect(option(bare(description), 'probe')?.takes_value).toBe(takes);
  });
});

describe('an example giving a boolean-defaulted option `=false` (hand-written helps)', () => {
  const help = (example: string): string =>
    `Usage: tabconv [<options>] filepath\n\nOptions:\n\t--strip: Strip spaces around cells. Default: true\n\t--typed: Turn typed cells on and off. Default: false.\n\t--sep: The separator to use.\n\t--header: Read a header row. Default is false.\n\t--quiet: Print nothing on errors.\nExamples:\n\ttabconv ${example}\n`;
  it.each([
    ['<file> --strip=false --sep=;', true],
    ['<file> --strip --sep=;', false],
    ['<file> --strip=yes --sep=;', false],
  ])('`tabconv %s`: options stating a boolean default take `true` / `false`: %s', (example, takes) => {
    expect(option(help(example), 'strip')?.takes_value).toBe(takes);
    expect(option(help(example), 'typed')?.takes_value).toBe(takes);
    expect(option(help(example), 'quiet')?.takes_value).toBe(false);
  });
});

describe('a switch shown in its off setting (`-list=false`)', () => {
  const help = (head: string): string =>
    `Usage: hclfmt [options] [target...]\n\nOptions:\n\n  ${head}    Don't list files whose formatting differs\n\n  -diff          Display diffs of formatting changes\n`;
  it('`-list=false  Don\'t list …`: a switch, `-list=false` its negation, no one-value enum', () => {
    expect(option(help('-list=false'), 'list')).toBeDefined();
    expect(option(help('-list=false'), 'list')).toMatchObject({ takes_value: false, choices: null, negation: '-list=false' });
  });
  it('negative twin: `-list=short` is a literal value of the option', () => {
    expect(option(help('-list=short'), 'list')).toMatchObject({ takes_value: true, choices: ['short'] });
  });
});

describe('`only the given X` describes a default, not a value (bare helps)', () => {
  const bare = (description: string): string =>
    `Usage: hclfmt [options]\n\nOptions:\n  -walk       ${description}\n  -diff       Display diffs\n  -check      Check formatting\n  -no-color   Plain output\n  -quiet      Print nothing\n`;
  it.each([
    ['Also process subdirectories. By default, only the given directory is processed.', false],
    ['Also process the given directory.', true],
  ])('`%s`: takes a value %s', (description, takes) => {
    expect(option(bare(description), 'walk')?.takes_value).toBe(takes);
  });
});

describe('`prog [global options] word [options]` names the subcommand', () => {
  it.each([
    ['hcl [global options] fmt [options] [target...]', 'hcl_fmt', [{ name: 'target', required: false, variadic: true }]],
    ['hcl [options] fmt [options] [target...]', 'hcl', [{ name: 'fmt', required: true, variadic: false }, { name: 'target', required: false, variadic: true }]],
  ])('`%s`', (form, name, positionals) => {
    const spec = parseHelp(`Usage: ${form}\n\nOptions:\n  -diff   Display diffs\n`);
    expect(spec.name).toBe(name);
    expect(spec.positionals).toEqual(positionals);
  });
});

describe('yargs untagged options: a description turning a feature on or off is a switch', () => {
  const yargs = (description: string): string =>
    `Usage: devserve start [options]\n\nOptions:\n  --help     Show help  [boolean]\n  --secure   ${description}\n  --port     Port to use  [number]\n`;
  it.each([
    ['Enable SSL for local development', false],
    ['Disable the file watcher', false],
    ['Certificate for local development', true],
  ])('`--secure  %s` takes a value: %s', (description, takes) => {
    expect(option(yargs(description), 'secure')?.takes_value).toBe(takes);
  });
});

describe('socat-style help variants and repeated letters', () => {
  const help = (hh: string, d: string): string =>
    `Usage:\nnetcat2 [options] <address> <address>\n   options:\n      -V     print version and exit\n      -h|-?  print a help text\n      -hh    ${hh}\n      ${d}        increase verbosity (use up to 4 times)\n      -D     analyze file descriptors\n`;
  it('`-hh  like -h, plus …` is a help, no option', () => {
    expect(option(help('like -h, plus a list of all address option names', '-d'), 'hh')).toBeUndefined();
  });
  it('negative twin: `-hh  print hex dumps` is an option', () => {
    expect(option(help('print hex dumps', '-d'), 'hh')).toBeDefined();
  });
  it.each([
    ['-d[ddd]', false, true],
    ['-d[nnn]', true, false],
  ])('`%s`: takes a value %s, repeatable %s', (head, takes, repeatable) => {
    expect(option(help('print hex dumps', head), 'd')).toMatchObject({ takes_value: takes, repeatable });
  });
});

describe('a custom value type named by one capitalized word in the head (klog `--v Level`)', () => {
  const help = (line: string): string => `Usage:\n  authplug [flags]\n\nFlags:\n${line}\n      --quiet                  print nothing\n`;
  it.each([
    ['  -v, --v Level                number for the log level verbosity', true],
    ['  -v, --v                      Level number for the log verbosity', false],
  ])('`%s`: takes a value %s', (line, takes) => {
    expect(option(help(line), 'v')?.takes_value).toBe(takes);
  });
});

describe('kubernetes verflag `--version version[=true]`', () => {
  const help = (description: string): string => `Usage:\n  authplug [flags]\n\nFlags:\n      --quiet                   print nothing\n      --version version[=true]  ${description}\n`;
  it.each([
    ['--version, --version=raw prints version information and quits', undefined],
    ['--version=vX.Y.Z sets the reported version', 'version'],
  ])('`%s`', (description, kept) => {
    expect(option(help(description), 'version')?.long).toBe(kept);
  });
});

describe('optparse `-e EVENT[,...], --events-list=EVENT[,...]`', () => {
  const help = (value: string, fallback: string): string =>
    `Usage: watcher.py [options] [path1] [path2]\n\nOptions:\n  -h, --help            show this help message and exit\n  -e ${value}, --events-list=${value}\n                        A comma-separated list of events to watch for\n                        (defaults to ${fallback})\n  -v, --verbose         Verbose mode\n`;
  it('a comma and an ellipsis in brackets after the metavar: one value, a list; `everything` is no default', () => {
    expect(option(help('EVENT[,...]', 'everything'), 'events-list')).toMatchObject({ short: 'e', takes_value: true, value_name: 'EVENT', default: null });
  });
  it('negative twin: a default that is a value is kept', () => {
    expect(option(help('EVENT[,...]', 'modify'), 'events-list')?.default).toBe('modify');
  });
});

describe('a reflowed docstring line opening with a flag, then a shell prompt', () => {
  const help = (tail: string): string =>
    `Usage: ingest [OPTIONS] [SOURCE]\n\n  Private repositories:     $ ingest https://host/user/private-repo\n  -k demo_key     ${tail}\n\nOptions:\n  -t, --token TEXT   Access token\n  --help             Show this message and exit.\n`;
  it.each([
    ['$ API_KEY=demo_key ingest https://host/x', undefined],
    ['Use demo_key to sign requests', 'k'],
  ])('`-k demo_key     %s`: option -k %s', (tail, short) => {
    expect(option(help(tail), 'k')?.short).toBe(short);
  });
});

describe('two long spellings over `enable/disable …`', () => {
  const help = (description: string): string => `usage: scanimg [options] <image>...\n\noptions:\n    -q, --quiet     minimal output\n    --json, --nojson  ${description}\n`;
  it.each([
    ['enable/disable JSON output format', ['json', 'nojson']],
    ['emit JSON output format', ['json']],
  ])('`--json, --nojson  %s`', (description, longs) => {
    const spec = parseHelp(help(description));
    expect(spec.options.map((found) => found.long).filter((long) => long !== 'quiet')).toEqual(longs);
  });
});

describe('a spelling column cut by an ellipsis (rich tables)', () => {
  it.each([
    ['--extension,--ext,--reload-…', ['--ext']],
    ['--extension,--ext,--reload-x', ['--ext', '--reload-x']],
  ])('`%s  <str>`: the value stays the option\'s', (head, aliases) => {
    const help = `Usage: srv run [OPTIONS] APP\n\nOptions:\n  ${head}          <str>     List of file extensions to watch.\n  --loop                                <str>     Event loop factory.\n`;
    expect(option(help, 'extension')).toMatchObject({ takes_value: true, aliases });
  });
});

describe('a file suffix pushed one space into the description column', () => {
  const help = (line: string): string => `Usage: metatool [ option [ arg ] ]+ action file ...\n\nOptions:\n   -h      Display this help and exit.\n   -v      Be verbose during the program run.\n${line}\n   -b      Show large binary values.\n`;
  it.each([
    ['   -S .suf Use suffix .suf for source files.', true],
    ['   -S      Use suffix .suf for source files.', false],
  ])('`%s`: takes a value %s', (line, takes) => {
    expect(option(help(line), 'S')?.takes_value).toBe(takes);
  });
});

describe('`-M and -X act like -m and -x`: two flags described together', () => {
  const help = (line: string): string => `$ digest [OPTION]... [FILES]...\n-m        - matching mode. Requires -k\n-x        - negative matching mode. Requires -k\n${line}\n-e        - compute estimated time\n`;
  it.each([
    ['-M and -X act like -m and -x, but display hashes of matching files', true],
    ['-M        - and -X act like -m and -x, but display hashes', false],
  ])('`%s`: -X is an option: %s', (line, found) => {
    expect(option(help(line), 'M')?.takes_value).toBe(false);
    expect(option(help(line), 'X') !== undefined).toBe(found);
  });
});
