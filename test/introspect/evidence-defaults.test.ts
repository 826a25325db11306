/**
 * The generic fallback for defaults and value-taking (evidence-defaults.ts), table-driven over
 * notations: what a phrasing states, what it must not be read as (an example, a kind of value, a
 * case, a list, the default of something else), and that parseHelp uses it only where the rules
 * found nothing.
 */
import { describe, expect, it } from 'vitest';
import { describesTakenValue, describesTakenValueIn, evidenceDefault } from '../../src/introspect/evidence-defaults.ts';
import type { CliOption } from '../../src/introspect/spec.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';

describe('evidenceDefault: a default stated in prose', () => {
  const stated: [string, string, string | null, string][] = [
    ['`default x` closing a clause', 'Initial delay before checking for resources in ms, default 0', null, '0'],
    ['`defaults to x` closing a sentence', 'Output format, defaults to json.', null, 'json'],
    ['`(default: x)`', 'Cache directory (default: .cache)', null, '.cache'],
    ['`"x" is the default`', 'Output mode; "json" is the default.', null, 'json'],
    ['a quoted list item marked `(default)`', 'Compression method: store, "deflate" (default) or bzip2', null, 'deflate'],
    ['a bare list item marked `(default)`', 'failure mode: abort (default), fail, warn', null, 'abort'],
    ['`The default value is x.`', 'Log level. The default value is warn.', null, 'warn'],
    ['`defaulting to x`', 'Number of retries, defaulting to 3', null, '3'],
    ['`default being x`', 'Listen address, default being 0.0.0.0', null, '0.0.0.0'],
    ['`uses "x" by default`', 'Theme name. Uses "dark" by default.', null, 'dark'],
    ['`(x by default)` filling a parenthesis', 'Order of results; ASCEND or DESCEND (ASCEND by default)', null, 'ASCEND'],
    ['a number and its unit', 'Width of the output; default is 80 columns.', null, '80'],
    ["older GNU quotes `` `x' ``", "Use the output format FORMAT.  The default is `sysv'", 'FORMAT', 'sysv'],
    ['a value and its gloss', 'Bit rate limit (default 0 = no limit)', null, '0'],
    ['`default Infinity`', 'Maximum time in ms to wait before exiting, default Infinity', null, 'Infinity'],
    ['`default value x` in a parenthesis', 'Block size in bytes (default value 4096).', null, '4096'],
    ['a URL', 'Set the base URL; default: https://example.com/api', null, 'https://example.com/api'],
    ['a stream as `-`', 'The file to output to. Defaults to -, meaning standard output.', null, '-'],
    ['a measure in the unit the value is counted in', 'Timeout in seconds (default: 10 seconds)', null, '10'],
    ['the value named in words, then spelled quoted in a parenthesis', 'Release channel. The default is the newest tagged build (`nightly`).', null, 'nightly'],
    ['a measure in another spelling of the unit the value is counted in', 'Pause between polls (in milliseconds) (default: 250 ms).', null, '250'],
    ['one word naming the value, then its spelling quoted', "Field separator (default: semicolon ';')", null, ';'],
    ['a starred item of a list', 'When to ring the bell (*visual*, audible, none).', null, 'visual'],
    ['a value with its type glued on', 'Retries before giving up [default: 3:int].', null, '3'],
    ['a number and a word glossing it closing the bracket', 'Minimum age in days (default: 0, disabled)', null, '0'],
    ['a quoted value and a word glossing it closing the bracket', "Where to save the log (defaults to '-', stdout)", null, '-'],
    ['a sentence after one ending in an abbreviation other than `e.g.`', 'Pairs of folders, cf. the docs. Default: `in:out`', null, 'in:out'],
    ['`default suffix:` on a value that is the suffix', 'Backup file ending; default suffix: .bak', 'SUFFIX', '.bak'],
    ['a character named, then spelled alone in a parenthesis', 'Column separator. default comma (,).', null, ','],
    ['a quote character named, then spelled', 'Quote character. Default is double quote (") as in RFC 4180.', null, '"'],
    ['a file name, then where it lands', 'Report file path (default: report.txt in current directory).', null, 'report.txt'],
    ['two nouns between the cue and `is`', 'Output layout. Default output layout is compact.', null, 'compact'],
    ['a strftime pattern on a format', 'Name format for renamed files. Default name format is %Y-%m-%d_%H%M.', 'fmt', '%Y-%m-%d_%H%M'],
  ];
  it.each(stated)('%s', (_notation, description, valueName, expected) => {
    expect(evidenceDefault(description, valueName)).toBe(expected);
  });

  const none: [string, string, string | null][] = [
    ['an example (`e.g.`)', 'Timeout for each test, e.g. default 30s for slow suites', null],
    ['an example (`such as`)', 'Request method, such as GET (default) or POST', null],
    ['a kind of value', 'Where to write the report (default: stdout)', null],
    ['a kind of value in words', 'Directory to scan (default: current directory)', null],
    ['a condition after the value', 'Port to listen on (defaults to 8080 if unset)', null],
    ['one value per case', 'Bandwidth (default 1 Mbit/sec for UDP, unlimited for TCP)', null],
    ['another value for another case', 'Line width (default: 79, 88 with --black)', null],
    ['an alternative after the value', 'Spaces per indent level. [default: 4, or indent_size from .editorconfig]', null],
    ['a conditional default elsewhere', 'Quality. Defaults to JPEG unless WebP is selected. WebP defaults to 100.', null],
    ['a condition before the cue', 'Selector to filter on. If present, default to ".*" for the pod-query.', null],
    ['the default of something else', 'Disable the default behavior', null],
    ['a noun phrase', 'When set, the default config file is used', null],
    ['what the option overrides', 'Override the default colors', null],
    ['a list', 'Patterns to skip (default: .git, node_modules, dist)', null],
    ['a comma-joined list', 'Keys holding errors (defaults to `err,error`)', null],
    ['a list of two closing the bracket', 'Lock files to read [default: app.lock, app-dev.lock]', null],
    ['prose going on', 'Profile to use (defaults to executing all tests)', null],
    ['a call the program makes', 'Worker count (default: min(4, cpus))', null],
    ['a placeholder of the help', 'Directory for doctrees (default: OUTPUT_DIR/.doctrees)', null],
    ['the default of one part of the value', 'The optional KIND can be one of <static|dylib> (default: dylib).', '[KIND=]NAME'],
    ['a percentage', 'Tolerance threshold (default=0.001%).', null],
    ['a measure in a unit the value is not counted in', 'Buffer size (default: 4 KiB)', null],
    ['a number glued to a unit written on the placeholder', 'Set compression block size to mmmK (default 128K)', 'mmm'],
    ['values of other modes', 'format <cols> octets per line. Default 16 (-i: 12, -ps: 30).', 'cols'],
    ['a state', 'Colorize the output (enabled by default)', null],
    ['a marked word that is no list item', "don't rely on indentation (default)", null],
    ['words naming a condition before the spelled value', 'Release channel. The default is stable unless pinned (`nightly`).', null],
    ['a measure in another unit than the one the value is counted in', 'Pause between polls (in seconds) (default: 250 ms).', null],
    ['a value the program derives, then quoted', 'Interpreter to run (default is deduced from `sys.prefix`)', null],
    ['a starred word in prose, no list item', 'Do *not* retry when the bell rings, ever', null],
    ['no cue at all', 'Number of retries', null],
    ['an example whose abbreviation has one period (`eg.`)', 'Folder pairs (eg. default `in:out`)', null],
    ['an example after `i.e.` in a sentence going on', 'Pairs of folders, i.e. default `in:out` style names', null],
    ['the default of a part of the value (`default suffix:`)', 'cap the store at SIZE; default suffix: G', 'SIZE'],
    ['the default of a part of the value (`default unit is`)', 'Wait this long; the default unit is s', 'DURATION'],
    ['a character spelled in a parenthesis after an example', 'Column separator, for example comma (,).', null],
    ['a file name, then a case', 'Report file path (default: report.txt in quiet mode).', null],
    ['a strftime pattern on a value that is no format', 'Name for renamed files. Default name format is %Y-%m-%d_%H%M.', 'name'],
  ];
  it.each(none)('none from %s', (_notation, description, valueName) => {
    expect(evidenceDefault(description, valueName)).toBeNull();
  });
});

describe('describesTakenValue: a placeholder-less description that takes a value', () => {
  const takes: [string, string][] = [
    ['a quantity counted in a unit', 'Initial delay before checking for resources in ms'],
    ['a noun phrase naming a quantity', 'Maximum number of concurrent jobs'],
    ['a short noun phrase naming a thing', 'Input file'],
    ['a thing and its purpose', 'Path to the config file'],
    ['the thing named as `this`', 'Run the web server on this port'],
    ['the value\'s form', 'Comma-separated list of paths to ignore'],
    ['`X to use`', 'Theme to use for syntax highlighting'],
    ['a verb of giving', 'Specify a units data file'],
    ['a stated default no switch has', 'Seconds to keep the connection open (default "30s")'],
    ['the thing given, named as such', 'assume non-UTF8 filenames have the given encoding'],
    ['a path as the stated default', 'Where to write files (default: ./out)'],
    ['a thing named with `your`', 'Your cache directory'],
    ['a thing before a bracketed type tag', 'Cache file [TEXT]'],
    ['the value\'s placeholder opening the description', '<count> Retries before giving up.'],
    ['alternatives in a placeholder opening the description', '<low | high> Priority of the job.'],
    ['a list of things opening the description', 'List of mirrors to try (available: alpha, beta).'],
    ['the specified thing, used', 'Use specified lock file'],
    ['a compound naming a file path, then its purpose', 'Site map index file path to rewrite with the new pages'],
  ];
  it.each(takes)('%s', (_notation, description) => {
    expect(describesTakenValue(description)).toBe(true);
  });

  const flags: [string, string][] = [
    ['a verb opening', 'Enable verbose output'],
    ['a verb opening with a noun after it', 'Show line numbers'],
    ['a unit after a verb', 'Print sizes in bytes rather than in human readable format'],
    ['a switch state', 'Colorize the output (default: false)'],
    ['a style named by an adjective', 'Long format'],
    ['a negation', "Don't truncate text in columns"],
    ['a preset value', 'Set log verbosity level to "debug"'],
    ['markup, no placeholder', 'Also format the contents of <style> tags'],
    ['things the arguments name', 'Recompress the specified files'],
    ['a verb listing things', 'List all hosts'],
    ['a verb before a compound naming a thing', 'Clean output directory'],
    ['markup opening the description, no placeholder', '<b> tags are kept.'],
    ['an empty description', ''],
  ];
  it.each(flags)('not from %s', (_notation, description) => {
    expect(describesTakenValue(description)).toBe(false);
  });

  it('a Go-style help (single-dash long names) prints a type for every value: a bare option there is a switch', () => {
    const bare = (long: string | null, short: string | null, description: string, prefix?: '-'): CliOption => ({
      long, short, aliases: [], takes_value: false, value_name: null, type: 'boolean', default: null, choices: null, repeatable: false, required: false, negation: null, description, ...(prefix ? { prefix } : {}),
    });
    const target = bare(null, 'u', 'Target URL');
    expect(describesTakenValueIn(target, [target, bare('quiet', null, 'Quiet output', '-')])).toBe(false);
    expect(describesTakenValueIn(target, [target, bare('quiet', 'q', 'Quiet output')])).toBe(true);
  });
});

describe('parseHelp: the fallback, only where the rules found nothing', () => {
  const withValue = (description: string): string => `Usage: prog [options]\n\nOptions:\n  -x, --xval <value>  ${description}\n  -v, --verbose       be verbose\n`;
  const option = (help: string, long: string) => parseHelp(help).options.find((candidate) => candidate.long === long);

  const defaults: [string, string, string | number][] = [
    ['`The default value is x.`', 'Log level. The default value is warn.', 'warn'],
    ['`defaulting to x` (typed)', 'Number of retries, defaulting to 3', 3],
    ['`(default value x)` (typed)', 'Block size in bytes (default value 4096).', 4096],
    ['`uses "x" by default`', 'Theme name. Uses "dark" by default.', 'dark'],
  ];
  it.each(defaults)('%s', (_notation, description, expected) => {
    expect(option(withValue(description), 'xval')?.default).toBe(expected);
  });

  it('a default the rules call prose stays none (`(default: stdin)` on a file option)', () => {
    const help = 'Usage: prog [options]\n\nOptions:\n  -i, --input <file>  Input to read (default: stdin)\n';
    expect(option(help, 'input')?.default).toBeNull();
  });

  it('a flag gets no default from prose', () => {
    const help = 'Usage: prog [options]\n\nOptions:\n  -c, --color  Colorize the output, default auto\n  -x, --xval <n>  A value\n';
    expect(option(help, 'color')).toMatchObject({ takes_value: false, default: null });
  });

  it('a help showing no placeholder at all: the evidence says which options take a value', () => {
    const help = [
      'Usage: waiter [options] resource',
      '',
      'Options:',
      '  -d, --delay     Initial delay before checking for resources in ms',
      '  -s, --server    Run the web server on this port',
      '  -l, --log       Log output to the console',
      '  -r, --reverse   Reverse operation, wait for resources to be gone',
      '  -v, --verbose   Enable debug output',
      '  -q, --quiet     Print nothing',
      '',
    ].join('\n');
    const spec = parseHelp(help);
    const taking = spec.options.filter((candidate) => candidate.takes_value).map((candidate) => candidate.long);
    expect(taking).toEqual(['delay', 'server']);
  });
});

describe('evidenceDefault: round 18 cues', () => {
  const cases: [string, string, string | null, string | null][] = [
    ['`default (N)` right after the cue', 'Workers to start. The default (0) picks one per core.', null, '0'],
    ['a remark in the parenthesis is no value', 'Workers to start. The default (fast) picks one per core.', null, null],
    ['a quoted value opening a clause before `by default`', "Output folder, 'dist' by default", null, 'dist'],
    ['not opening a clause', "Output folder named 'dist' by default", null, null],
    ['a unit the value name spells', 'Pause between probes (default: 25 ms)', 'MSEC', '25'],
    ['a unit nothing counts in', 'Pause between probes (default: 25 ms)', 'COUNT', null],
    ['`number of <unit>` counts in the unit', 'The number of days to keep logs. By default this value is 30 days.', 'INTEGER', '30'],
    ['another unit is counted', 'The number of hours to keep logs. By default this value is 30 days.', 'INTEGER', null],
    ['the value left out is no case', 'Log file. If not specified, defaults to /var/log/probe.log', null, '/var/log/probe.log'],
    ['another condition is one', 'Log file. If run as root, defaults to /var/log/probe.log', null, null],
    ['a sentence opening on a case', 'The peer. For UDP, the default is 10.0.0.255; for TCP, a value is required', null, null],
    ['a program finding the value itself', 'Settings file (default: auto-discovery)', null, null],
  ];
  it.each(cases)('%s', (_label, description, valueName, expected) => {
    expect(evidenceDefault(description, valueName)).toBe(expected);
  });
});
