/**
 * Notations met in parser fixes round 17 (issue 12, batch 13 texts: options found, invented, their
 * value-taking and names), each pinned on a minimal help written for the test, with a negative twin
 * that differs only in the cue that must stop it.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

/** A hand-written option list: `spelling` heads, each described on the deeper line below. */
function handList(spellings: readonly string[], extra: string): string {
  const rows = spellings.map((head) => `  ${head}\n        Some setting.\n`).join('');
  return `Usage: loadgen [opts] URL\n\nAvailable options:\n\n${rows}${extra}  --debug\n        Print connection errors.\n  --version\n        Print the version number.\n`;
}

describe('hand layout: a short and a long spelling glued by a slash', () => {
  const slashed = ['-c/--connections NUM', '-p/--pipelining NUM', '-d/--duration SEC'];
  const commaed = ['-c, --connections NUM', '-p, --pipelining NUM', '-d, --duration SEC'];
  const bare = '  -k/--cert\n        Path to cert chain in pem format\n  -j/--json\n        Print the output as JSON.\n';
  it.each([
    ['slash-joined spellings: typed by hand, a bare option described `Path to …` takes a value', slashed, true],
    ['comma-joined spellings (a framework layout): the placeholders say it is a flag', commaed, false],
  ])('%s', (_title, spellings, takesValue) => {
    const help = handList(spellings, bare.replace('-k/--cert', spellings === commaed ? '-k, --cert' : '-k/--cert').replace('-j/--json', spellings === commaed ? '-j, --json' : '-j/--json'));
    expect(option(help, 'cert')?.takes_value).toBe(takesValue);
    expect(option(help, 'json')?.takes_value).toBe(false);
    expect(option(help, 'connections')?.takes_value).toBe(true);
  });
});

describe('value-taking read from a hand-written description', () => {
  const spellings = ['-c/--connections NUM', '-r/--rate NUM', '-R/--overall-rate NUM'];
  it.each([
    ['quoted names of other options are references, no values', "Skip the omission fix when sending at a fixed rate using 'rate' or 'overall-rate'.", false],
    ['quoted words that name no option are its values', "Skip the omission fix when sending at a fixed rate using 'fast' or 'slow'.", true],
    ['a boolean default (`default: false`) is a switch state', 'Enable replacement of [<id>] with a random ID. default: false.', false],
    ['without the boolean default, the `<id>` placeholder says a value is taken', 'Enable replacement of [<id>] with a random ID.', true],
    ['an example in a code span of its own after `e.g.` gives the option a value', 'Use a warm up interval first, e.g. `--coordinate [ -c 1 -d 3 ]`', true],
    ['twin: the example naming another option gives this one none', 'Use a warm up interval first, e.g. `--connections [ -c 1 -d 3 ]`', false],
  ])('%s', (_title, description, takesValue) => {
    const help = handList(spellings, `  -C/--coordinate\n        ${description}\n`);
    expect(option(help, 'coordinate')?.takes_value).toBe(takesValue);
  });
});

describe('options after a commands list, with no title between', () => {
  const help = (line: string): string =>
    `Usage: runc [OPTION...] COMMAND [OPTION...]\n\nCOMMANDS:\n\tcreate      - create a container\n\tdelete      - remove a container\n\n${line}\n      --debug                produce verbose output\n  -?, --help                 Give this help list\n`;
  it.each([
    ['argp `--log=FILE` (a value glued by `=`) is an option taking it', '      --log=FILE', 'log', true],
    ['a bare word glued to a value (`log=FILE`) is no option', '      log=FILE', 'log', false],
  ])('%s', (_title, line, key, found) => {
    expect(option(help(line), key)?.takes_value ?? false).toBe(found);
    expect(option(help(line), key) !== undefined).toBe(found);
    expect(option(help(line), 'debug')?.takes_value).toBe(false);
  });
});

describe('a list placeholder closed by an ellipsis', () => {
  const help = (head: string): string =>
    `Usage: lintsh [OPTIONS...] FILES...\n  -a                  --check-all                Include sourced files\n  ${head}  Consider only given codes\n  -V                  --version                  Print version\n`;
  it.each([
    ['`-i CODE1,CODE2..  --include=CODE1,CODE2..`: items glued by commas and closed by `..` are one placeholder', '-i CODE1,CODE2..    --include=CODE1,CODE2..', 'include'],
    ['lower-case items (`-o check1,check2..`) too', '-i check1,check2..  --include=check1,check2..', 'include'],
    ['a comma followed by a space sets words apart: no one placeholder, the head ends there', '-i CODE1, CODE2..   --include=CODE1,CODE2..', null],
  ])('%s', (_title, head, long) => {
    const parsed = option(help(head), 'i');
    expect(parsed).toMatchObject({ long, takes_value: true });
  });
});

describe('cleo 0.x: `-m (--migration)` heads and `<...>` values in the usage', () => {
  const help = (head: string, usage: string): string =>
    `USAGE\n  migrate ${usage} [-f]\n\nOPTIONS\n  ${head}       Name of the migration to run\n  -f (--force)           Force migrations without prompt\n  --schema               Sets the schema to be migrated\n`;
  it.each([
    ['a long spelling in parentheses after the short one is its long name', '-m (--migration)', 'migration', 'm'],
    ['a word in parentheses without dashes is prose, no spelling', '-m (migration)  ', null, 'm'],
  ])('%s', (_title, head, long, short) => {
    expect(option(help(head, ''), short)?.long ?? null).toBe(long);
  });
  it.each([
    ['`[--schema [<...>]]`: a value that may be left out', '[--schema [<...>]]', true],
    ['`[--schema <...>]`: a value', '[--schema <...>]', true],
    ['`[--schema [...]]`: no angle brackets, no value', '[--schema [...]]', false],
  ])('%s', (_title, usage, takesValue) => {
    expect(option(help('-m (--migration)', usage), 'schema')?.takes_value).toBe(takesValue);
  });
});

describe('value-taking from descriptions in a help that shows no placeholder', () => {
  const help = (description: string): string =>
    `Usage: pick [options] [FILE]\n\nOptions:\n  -h, --help            show this help message and exit\n  --version             print the version and exit\n  --null                expect NUL as separator\n  --select-1            select the first item and exit\n  --print-query         print the query on exit\n  --reverse             reverse the order of lines\n  --start               ${description}\n`;
  it.each([
    ['`initial value for query`: a value, the starting one', 'initial value for query', true],
    ['`position of the initial index`: a place in a sequence', 'position of the initial index of the selection (0 base)', true],
    ['`use a prefix instead of …`: the prefix is given', 'use a prefix instead of changing line color', true],
    ['twin: a verb opening (`print the initial value for query`) acts, given nothing', 'print the initial value for query', false],
    ['twin: `use a color instead of …` names no given thing', 'use a color instead of a prefix', false],
    ['`read the list from the given file` names a file given', 'read the list from the given file', true],
    ['`reads the list from a cache file.` names a file given', 'reads the list from a cache file.', true],
    ['twin: `excludes the comment from the output css file.` names the program\'s own output', 'excludes the comment from the output css file.', false],
    ['`[js|css|html] ["js"]`: the values in brackets open the description', '[js|css|html] ["js"]', true],
    ['twin: the same words after a verb (`print [js|css|html] …`) name no value', 'print [js|css|html] versions', false],
    ['`Indentation character [" "]`: a quoted default in brackets closing the description', 'Indentation character [" "]', true],
    ['twin: `Indent with tabs [false]` (a bare boolean in brackets) is a switch state', 'Indent with tabs [false]', false],
  ])('%s', (_title, description, takesValue) => {
    expect(option(help(description), 'start')?.takes_value).toBe(takesValue);
  });
});

describe('help and version spellings stay out of the spec', () => {
  const help = (line: string): string => `Usage: tool [options] FILE\n  -q, --quiet            be quiet\n  -o, --output=FILE      write to FILE\n${line}\n`;
  it.each([
    ['`-v  Show program version`', '  -v                     Show program version', 'v', false],
    ['`-v  print copyright and version info`', '  -v                     print copyright and version info', 'v', false],
    ['twin: `-v  print the inputs and their version` (a verb acting on other things) stays', '  -v                     print the inputs and their version', 'v', true],
    ['AutoOpts `--version[=MODE]  output version information and exit`', '  -v, --version[=MODE]   output version information and exit', 'version', false],
    ['twin: `--version[=MODE]  version to stamp into the output` is a value of its own', '  -v, --version[=MODE]   version to stamp into the output', 'version', true],
    ['llvm `--help-list  - Display list of available options`', '      --help-list        - Display list of available options', 'help-list', false],
    ['twin: `--help-list  Display list of suggestions` lists no options', '      --help-list        Display list of suggestions', 'help-list', true],
    ['nats `--help_tls  TLS help`: the help on one topic', '      --help_tls         TLS help', 'help_tls', false],
    ['twin: `--help_url  TLS help`: the spelling names another topic than the description', '      --help_url         TLS help', 'help_url', true],
  ])('%s', (_title, line, key, kept) => {
    expect(option(help(line), key) !== undefined).toBe(kept);
  });
});

describe('a flag letter repeated', () => {
  const help = (letter: string): string =>
    `memd 1.6\n-p, --port=<num>          TCP port to listen on\n-${letter}, --verbose             verbose (print errors)\n-vv                       very verbose\n-vvv                      extremely verbose\n-d, --daemon              run as a daemon\n`;
  it.each([
    ['`-vvv` under `-v, --verbose` and `-vv` is that flag given three times', 'v', false],
    ['twin: with no `-v` listed, `-vvv` is an option of its own', 'b', true],
  ])('%s', (_title, letter, kept) => {
    expect(option(help(letter), 'vvv') !== undefined).toBe(kept);
  });
});

describe('Dart args: allowed values in brackets under a bare option', () => {
  const help = (values: string): string =>
    `Usage: sassy <input.scss> [output.css]\n\n-s, --style=<NAME>             Output style.\n                               [expanded (default), compressed]\n    --[no-]source-map          Whether to generate source maps.\n    --source-map-urls          How to link from source maps to source files.\n                               ${values}\n    --update                   Only compile out-of-date stylesheets.\n`;
  it.each([
    ['`[relative (default), absolute]`: the values, the default marked, say a value is taken', '[relative (default), absolute]', true],
    ['twin: `[relative, absolute]` with no item marked the default is prose in brackets', '[relative, absolute]', false],
  ])('%s', (_title, values, takesValue) => {
    expect(option(help(values), 'source-map-urls')?.takes_value).toBe(takesValue);
    expect(option(help(values), 'update')?.takes_value).toBe(false);
  });
});

describe('a single-dash spelling, then a long one with the very same values', () => {
  const help = (second: string): string =>
    `usage: styl [option option=parameter ...] <source>\n\noptions:\n  -s, --silent                 Suppresses output of error messages.\n  -su=on|off                   Allows mixed units, e.g. 1px+1em which have units\n  ${second}\n  --verbose                    Be verbose.\n`;
  it.each([
    ['`-su=on|off  … which have units` then `--strict-units=on|off  that cannot be represented.`: one option', '--strict-units=on|off        that cannot be represented.', 'su'],
    ['…and a bare `--strict-units=on|off` under it', '--strict-units=on|off       ', 'su'],
    ['twin: other values (`=yes|no`) make another option', '--strict-units=yes|no        that cannot be represented.', null],
  ])('%s', (_title, second, short) => {
    expect(option(help(second), 'strict-units')?.short ?? null).toBe(short);
    expect(option(help(second), 'strict-units')?.takes_value).toBe(true);
  });
});

describe('single-dash names of several letters', () => {
  const help = (others: string): string => `Usage: pdfdump [options] <PDF-file>\n  -f <int>             : first page to convert\n${others}  -bbox                : output bounding box for each word\n`;
  it.each([
    ['among `-layout`, `-raw`, `-nodiag`, `-bbox  : … bounding box` is one more name', '  -layout              : keep the layout\n  -raw                 : keep strings in order\n  -nodiag              : discard diagonal text\n', 'bbox', false],
    ['twin: among letter flags, `-bbox  : … bounding box` is `-b` with its value glued on', '  -l                   : keep the layout\n  -r                   : keep strings in order\n  -n                   : discard diagonal text\n', 'b', true],
  ])('%s', (_title, others, key, takesValue) => {
    expect(option(help(others), key)?.takes_value).toBe(takesValue);
  });
});

describe('OptionParser spellings wrapped over several lines', () => {
  const help = (first: string): string =>
    `Usage: docgen [options] [names...]\n\nCommon options:\n\n    -o, --output=DIR                 Set the output directory.\n\n    ${first}Prints a report on undocumented items.\n        --[no-]coverage-report       Does not generate files.\n        --[no-]dcov\n\n    -q, --quiet                      Be quiet.\n`;
  it.each([
    ['`-C[LEVEL],` (a comma ending the first line) then two lines of longs: a bare `--[no-]dcov` is one more spelling', '-C[LEVEL],                       ', false],
    ['twin: `-C[LEVEL]` without the comma: `--[no-]dcov` is an option of its own', '-C[LEVEL]                        ', true],
  ])('%s', (_title, first, separate) => {
    expect(option(help(first), 'dcov') !== undefined).toBe(separate);
  });
});

describe('head notations', () => {
  it.each([
    ['command-line-usage `--verbose.include string[]`: a type word marked `[]` is a repeated value', '  --verbose.include string[]   Patterns of event keys to include.', 'verbose.include', { takes_value: true, repeatable: true }],
    ['twin: `--verbose.include thing[]` (no type word) is no value', '  --verbose.include thing[]    Patterns of event keys to include.', 'verbose.include', { takes_value: false }],
    ['psql `-1 ("one"), --single-transaction`: the quoted name of the digit is a gloss', '  -1 ("one"), --single-transaction\n                           execute as a single transaction', 'single-transaction', { short: '1', takes_value: false }],
    ['twin: `-1 (one), --single-transaction` (unquoted) is prose: no long spelling read', '  -1 (one), --single-transaction\n                           execute as a single transaction', '1', { long: null }],
  ])('%s', (_title, line, key, expected) => {
    const help = `Usage: tool [OPTION]... [FILE]\n\nOptions:\n  -q, --quiet              run quietly\n${line}\n  -X, --no-rc              do not read the startup file\n`;
    expect(option(help, key)).toMatchObject(expected);
  });
});

describe('a stated default that is the flag itself repeated', () => {
  it.each([
    ['`-v, --verbose … [default: -vvv]`: the own letter repeated says how often, no value', '[default: -vvv]', false],
    ['twin: `[default: -x]`, another letter, is a value (a dash-led string)', '[default: -x]', true],
  ])('%s', (_title, tag, takesValue) => {
    const help = `Usage: lintc [OPTIONS] COMMAND [ARGS]...\n\nOptions:\n  -c TEXT                  Config option\n  -v, --verbose            Verbosity, use multiple times. ${tag}\n  -s, --silent             Silent mode.\n`;
    expect(option(help, 'verbose')?.takes_value).toBe(takesValue);
  });
});

describe('cyclopts: a parameter given by position or by its long spelling', () => {
  it.each([
    ['`SERVER-SPEC --server-spec  Python file …`: the long spelling takes the value its capitals name', 'SERVER-SPEC --server-spec  Python file or URL to run', 'server-spec', true],
    ['twin: `TARGET --server-spec  …` (another name) is no such pair', 'TARGET --server-spec       Python file or URL to run', 'server-spec', false],
  ])('%s', (_title, line, key, found) => {
    const help = `Usage: mcprun run [OPTIONS] [ARGS...]\n\nParameters:\n  ${line}\n  --host STR                 Host to bind to (default: 127.0.0.1)\n  --no-banner                Don't show the banner\n`;
    expect(option(help, key)?.takes_value ?? false).toBe(found);
  });
});

describe('program name: a subcommand path before a variadic placeholder', () => {
  it.each([
    ['oclif `$ loadtest run SCRIPT... [-t <value>]`: `run` is the command path', 'SCRIPT...', 'loadtest_run'],
    ['twin: `$ loadtest run script... [-t <value>]` (no capitals) shows no path', 'script...', 'loadtest'],
  ])('%s', (_title, placeholder, name) => {
    const help = `run a test script\n\nUSAGE\n  $ loadtest run ${placeholder} [-t <value>] [-c <value>]\n\nFLAGS\n  -c, --config=<value>  Read configuration\n  -t, --target=<value>  Set target URL\n`;
    expect(parseHelp(help).name).toBe(name);
  });
});

describe('a bare option described as a list, in a help that shows placeholders', () => {
  it.each([
    ['`comma separated list of extended options`: a flag is never a list', 'comma separated list of extended options', true],
    ['twin: `list the extended options` (a verb) is a flag', 'list the extended options', false],
    ['a list whose items state defaults is left alone (the default would be an item\'s)', 'comma separated list of extended options, hashpower a multiplier (default starts at: 0) grown at runtime', false],
  ])('%s', (_title, description, takesValue) => {
    const help = `cached 1.6\n-p, --port=<num>          TCP port to listen on\n-d, --daemon              run as a daemon\n-o, --extended            ${description}\n-t, --threads=<num>       number of threads to use\n`;
    expect(option(help, 'extended')?.takes_value).toBe(takesValue);
  });
});

describe('a doubled letter in a help of several-letter single-dash names', () => {
  it.each([
    ['nats `-DV  Debug and trace` beside `-V, --trace`: `-VV` is a name of its own', '    -DV                              Debug and trace\n', true],
    ['twin: no several-letter names: `-VV` is `-V` given twice', '', false],
  ])('%s', (_title, extra, named) => {
    const help = `Usage: natsd [options]\n\nLogging Options:\n    -D, --debug                      Enable debugging output\n    -V, --trace                      Trace the raw protocol\n    -VV                              Verbose trace\n${extra}    -l, --log <file>                 File to redirect log output\n`;
    expect(option(help, 'VV') !== undefined).toBe(named);
  });
});
