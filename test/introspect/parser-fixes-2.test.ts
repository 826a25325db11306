/**
 * Notations first met in the corpus's third part (issue 12, parser fixes round 2), each pinned on a
 * minimal help: yargs group titles without a colon and its untagged options, computed and list
 * defaults, numeric double-dash flags, value lists in GNU epilogs and prose, kong literal defaults,
 * oclif's capital section titles, and value-taking written only in a placeholder-less description.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('yargs', () => {
  const yargs = (body: string): string =>
    `c8 [opts] [script] [opts]\n\nCommands:\n  c8 report  read V8 coverage data\n\n${body}\nOptions:\n      --help     Show help                               [boolean]\n      --version  Show version number                     [boolean]\n`;

  it('a group title without a colon (`Reporting options`) ends the commands section: its options are read', () => {
    const help = yargs('Reporting options\n  -r, --reporter   coverage reporter(s) to use [default: "text"]\n      --all        consider all files [boolean] [default: false]\n\nCoverage thresholds\n      --lines      what % of lines must be covered?  [number] [default: 90]\n');
    const options = parseHelp(help).options;
    expect(options.map(({ long, takes_value, default: value }) => ({ long, takes_value, default: value }))).toEqual([
      { long: 'reporter', takes_value: true, default: 'text' },
      { long: 'all', takes_value: false, default: false },
      { long: 'lines', takes_value: true, default: 90 },
    ]);
    expect(parseHelp(help).subcommands.map((command) => command.name)).toEqual(['report']);
  });

  it('an option without a type tag takes a value; `[default: true]` alone keeps a switch', () => {
    const help = yargs('Other\n  -s, --static     Set static files directory\n      --clean      delete temp files           [default: true]\n      --no-cors    Disable CORS\n');
    expect(option(help, 'static')?.takes_value).toBe(true);
    expect(option(help, 'clean')?.takes_value).toBe(false);
    expect(option(help, 'no-cors')?.takes_value).toBe(false);
  });

  it('without yargs\' `Show help [boolean]` an untagged option stays a flag', () => {
    expect(option('Options:\n  -s, --static     Set static files directory\n  -h, --help  Show help\n', 'static')?.takes_value).toBe(false);
  });

  it('`[default: (default)]` (a function\'s description), `[default: ""]` and `[default: []]` give no default', () => {
    const help = yargs('Misc\n  -c, --config   path to JSON configuration file [default: (default)]\n      --resolve  resolve paths                  [default: ""]\n  -n, --include  files to cover                 [default: []]\n');
    expect(option(help, 'config')?.default).toBeNull();
    expect(option(help, 'resolve')?.default).toBeNull();
    expect(option(help, 'include')?.default).toBeNull();
  });
});

describe('defaults that are no single value', () => {
  it('a list literal (`Defaults to [.gitignore, .prettierignore].`, argparse `[\'*.py\']`) gives none', () => {
    expect(option('Options:\n  --ignore-path <path>   Ignore files. Defaults to [.gitignore, .prettierignore].\n', 'ignore-path')?.default).toBeNull();
    expect(option("options:\n  --filename patterns   Only check these. (Default: ['*.py'])\n", 'filename')?.default).toBeNull();
  });

  it('a template in braces is still a value (`[default: {p}]`)', () => {
    expect(option('Options:\n  --format <FORMAT>  Format string [default: {p}]\n', 'format')?.default).toBe('{p}');
  });

  it('typer\'s `[default: (model)]` names a choice; a parenthesized word that is none is no default', () => {
    expect(option('Options:\n  --type [model|dataset]  The type.  [default: (model)]\n', 'type')?.default).toBe('model');
    expect(option('Options:\n  --when [now|later]  When.  [default: (dynamic)]\n', 'when')?.default).toBeNull();
  });
});

describe('option heads', () => {
  it('double-dash digits are flags (`--100`, `-0, --01`); single-dash numbers are not', () => {
    const help = 'Options:\n  -0, --01          read in BITS mode\n      --100         shortcut for all thresholds at 100\n  -10               not a flag\n';
    expect(parseHelp(help).options.map(({ long, short }) => ({ long, short }))).toEqual([
      { long: '01', short: '0' },
      { long: '100', short: null },
    ]);
  });
});

describe('value lists written in prose', () => {
  it('GNU `MODE can be: abort (default), fail, warn`: every item is a choice, the marked one the default', () => {
    const help = 'Usage: numfmt [OPTION]...\n      --invalid=MODE   failure mode for invalid numbers: MODE can be:\n                         abort (default), fail, warn, ignore\n      --round=METHOD   use METHOD for rounding; METHOD can be:\n                         up, down, from-zero (default), towards-zero, nearest\n';
    expect(option(help, 'invalid')).toMatchObject({ choices: ['abort', 'fail', 'warn', 'ignore'], default: 'abort' });
    expect(option(help, 'round')).toMatchObject({ choices: ['up', 'down', 'from-zero', 'towards-zero', 'nearest'], default: 'from-zero' });
  });

  it('`word: a, b, c.` ends the sentence: the choices (commander reflows them into one line)', () => {
    const help = 'Options:\n  -l, --loglevel <n>   Amount to log: silent, error, warn. (default: "warn")\n  --dep <value>        Check sections only: dev, peer, or prod (comma-delimited).\n';
    expect(option(help, 'loglevel')).toMatchObject({ choices: ['silent', 'error', 'warn'], default: 'warn' });
    expect(option(help, 'dep')?.choices).toEqual(['dev', 'peer', 'prod']);
  });

  it('picocli `Valid values: xml, sarif, plain for XMLLogger, …` (a list mapped `for` others)', () => {
    const help = 'Usage: checkstyle [-f=<format>] <files>...\n  -f=<format>    Specifies the output format. Valid values: xml, sarif, plain for\n                   XMLLogger, SarifLogger, and DefaultLogger respectively. Defaults to\n                   plain.\n';
    expect(option(help, 'f')).toMatchObject({ choices: ['xml', 'sarif', 'plain'], default: 'plain' });
  });

  it('a list of examples, of defaults, or ending in an ellipsis is no choice list', () => {
    const help = 'Options:\n  --ecma <version>   Specify ECMAScript release: 5, 2015, 2016 or 2017...\n  --unsafe <p>       Replaces default unsafe packages: distribute, pip, setuptools\n  --name <n>         A name, e.g.: foo, bar.\n';
    expect(option(help, 'ecma')?.choices).toBeNull();
    expect(option(help, 'unsafe')?.choices).toBeNull();
    expect(option(help, 'name')?.choices).toBeNull();
  });

  it('a description that opens with three or more values gives them (`npm, yarn, pnpm (default: npm)`)', () => {
    expect(option('Options:\n  -p, --packageManager <s>   npm, yarn, pnpm (default: npm). Run "ncu --help" for details.\n', 'packageManager')).toMatchObject({ choices: ['npm', 'yarn', 'pnpm'], default: 'npm' });
  });

  it('numbered meanings reflowed into one line (`1: exits … 2: exits …`) are the choices; a default in a choice\'s spelling', () => {
    const help = 'Options:\n  -e, --errorLevel <n>   Set the error level. 1: exits with error code 0 if no errors occur. 2: exits with error code 0 if no packages need updating. (default: 1)\n';
    expect(option(help, 'errorLevel')).toMatchObject({ choices: ['1', '2'], default: '1' });
  });

  it('kong `Backend handler: \'postgresql\', \'sqlite\'` and oclif `<options: CommonJS|ESM>`', () => {
    expect(option("Flags:\n  -h, --help   Show context-sensitive help.\n      --handler=\"postgresql\"   Backend handler: 'postgresql', 'sqlite', 'mysql' ($HANDLER).\n", 'handler')).toMatchObject({
      choices: ['postgresql', 'sqlite', 'mysql'],
      default: 'postgresql',
    });
    expect(option('FLAGS\n      --module-type=<option>  Select a module type\n                              <options: CommonJS|ESM>\n', 'module-type')?.choices).toEqual(['CommonJS', 'ESM']);
  });

  it('flake8 `(default, pylint) or a format string`: an alternative after the parenthesis opens the list', () => {
    expect(option('options:\n  --format format   Format errors as (default, pylint, quiet) or a format string with keys (code, col, path).\n', 'format')?.choices).toBeNull();
  });
});

describe('settings written in prose', () => {
  it('hyperfine `(default: auto). Set this to \'basic\' to … Set it to \'full\' …`: the set values and the default are the choices', () => {
    const help = "Options:\n        --style <TYPE>\n            Set output style type (default: auto). Set this to 'basic' to disable coloring. Set it to 'full' to enable all\n            effects. Set this to 'none' to disable all the output.\n";
    expect(option(help, 'style')).toMatchObject({ choices: ['auto', 'basic', 'full', 'none'], default: 'auto' });
  });

  it('one or two mentions are examples, not the values', () => {
    expect(option("Options:\n    --shell <SHELL>   The shell to use. Set this to 'bash' to use bash.\n", 'shell')?.choices).toBeNull();
  });
});

describe('defaults written in prose', () => {
  it('`(instead of the default 1)`, `Default is the public API: https://…`, clap `null: … (the default).`', () => {
    expect(option('Usage: numfmt [OPTION]...\n      --from-unit=N    specify the input unit size (instead of the default 1)\n', 'from-unit')?.default).toBe(1);
    expect(option('Options:\n  --api-url=<url>   Specify a base URL. Default is the public API: https://api.github.com\n', 'api-url')?.default).toBe('https://api.github.com');
    const clap = 'Options:\n        --output <WHERE>\n            Control where the output goes. <WHERE> can be:\n\n            null: Redirect output to /dev/null (the default). Note this.\n\n            pipe: Feed the output through a pipe.\n';
    expect(option(clap, 'output')?.default).toBe('null');
  });
});

describe('more value notations', () => {
  it('a word wrapped after its hyphen is rejoined (`[default: no-` / `force-download]`, `quiet-` / `filename`)', () => {
    const help = 'Options:\n  --force-download / --no-force-download\n                                  If True, download again.  [default: no-\n                                  force-download]\n';
    expect(option(help, 'force-download')?.default).toBe(false);
  });

  it('`(Default: stdin)` is a value unless the option takes a file; `Defaults to Infinity.` on a number', () => {
    expect(option('options:\n  --stdin-display-name STDIN_DISPLAY_NAME\n                        The name used for stdin. (Default: stdin)\n', 'stdin-display-name')?.default).toBe('stdin');
    expect(option('Options:\n  -i, --input FILE   read from FILE (default: stdin)\n', 'input')?.default).toBeNull();
    expect(option('Options:\n  --range-end <int>   Format code ending here.\n                      Defaults to Infinity.\n', 'range-end')?.default).toBe('Infinity');
  });

  it('argparse\'s metavar repeating the option name (`--jobs JOBS`) gives no type against a word default', () => {
    expect(option('options:\n  -j JOBS, --jobs JOBS  Number of subprocesses. (Default: auto)\n', 'jobs')).toMatchObject({ type: 'string', default: 'auto' });
    expect(option('options:\n  -j JOBS, --jobs JOBS  Number of subprocesses. (Default: 4)\n', 'jobs')).toMatchObject({ type: 'integer', default: 4 });
  });

  it('a `<command>` value\'s default may have spaces (`(default: npm test)`), unless it is prose', () => {
    const help = 'Options:\n  --doctorTest <command>     Specifies the test script. (default: npm test)\n  --doctorInstall <command>  Specifies the install script. (default: npm install or the equivalent for your package manager)\n  --name <name>              A name. (default: all interfaces)\n';
    expect(option(help, 'doctorTest')?.default).toBe('npm test');
    expect(option(help, 'doctorInstall')?.default).toBeNull();
    expect(option(help, 'name')?.default).toBeNull();
  });

  it('`defaults to at most one …` is prose', () => {
    expect(option('Options:\n  -l[MAX-LINES]   similar to -L but defaults to at most one non-\n                    blank input line if MAX-LINES is not specified\n', 'l')?.default).toBeNull();
  });

  it('commander `<path|glob>` is a placeholder, `<flow|babel>` choices; busybox `-Y on/off` choices', () => {
    expect(option('Options:\n  --packageFile <path|glob>  Package file(s) location. (default: ./package.json)\n', 'packageFile')).toMatchObject({ choices: null, default: './package.json' });
    expect(option('Options:\n  --parser <flow|babel>   Which parser to use.\n', 'parser')?.choices).toEqual(['flow', 'babel']);
    expect(option('Usage: wget [-Y on/off] URL...\n\n\t-Y on/off\tUse proxy\n', 'Y')).toMatchObject({ takes_value: true, choices: ['on', 'off'] });
  });

  it('kong `--telemetry=undecided` is the default, not a one-value choice', () => {
    expect(option('Flags:\n  -h, --help   Show context-sensitive help.\n      --telemetry=undecided   Enable or disable telemetry.\n', 'telemetry')).toMatchObject({ takes_value: true, choices: null, default: 'undecided' });
  });

  it('perl shasum `-a, --algorithm   1 (default), 224, 256`: a description of values only takes one of them', () => {
    const help = 'Usage: shasum [OPTION]... [FILE]...\n\n  -a, --algorithm   1 (default), 224, 256, 384\n  -b, --binary      read in binary mode\n';
    expect(option(help, 'algorithm')).toMatchObject({ takes_value: true, choices: ['1', '224', '256', '384'], default: '1' });
    expect(option(help, 'binary')?.takes_value).toBe(false);
  });

  it('argparse\'s `-   read from standard input` line does not turn the next option into prose', () => {
    const help = 'options:\n  -h, --help            show this help message and exit\n  -                     read from standard input\n  -c CONFIG_FILE, --config-file CONFIG_FILE\n                        path to a custom configuration\n';
    expect(option(help, 'config-file')?.takes_value).toBe(true);
  });

  it('numfmt `UNIT options:` then a definition list whose items run on over deeper lines: the choices of `--from=UNIT`', () => {
    const help =
      'Usage: numfmt [OPTION]... [NUMBER]...\n      --from=UNIT      auto-scale input numbers to UNITs; see UNIT below\n      --to=UNIT        auto-scale output numbers to UNITs\n\nUNIT options:\n  none       no auto-scaling is done\n  auto       accept optional single/two letter suffix:\n               1K = 1000,\n               1Ki = 1024,\n  si         accept optional single letter suffix:\n               1K = 1000,\n               ...\n  iec-i      accept optional two-letter suffix:\n               1Ki = 1024,\n';
    expect(option(help, 'from')?.choices).toEqual(['none', 'auto', 'si', 'iec-i']);
    expect(option(help, 'to')?.choices).toEqual(['none', 'auto', 'si', 'iec-i']);
  });
});

describe('oclif', () => {
  const help =
    'Generate a new CLI\n\nUSAGE\n  $ oclif generate NAME [--author <value>] [--module-type CommonJS|ESM]\n    [-n] [-y]\n\nARGUMENTS\n  NAME  Directory name of new project.\n\nFLAGS\n  -n, --dry-run                   Print the files that would be created.\n  -y, --yes                       Use defaults for all prompts.\n      --author=<value>            Supply answer for prompt: Author\n      --module-type=<option>      Select a module type\n                                  <options: CommonJS|ESM>\n\nDESCRIPTION\n  Generate a new CLI\n\nCOMMANDS\n  generate command  Add a command to an existing CLI or plugin.\n  generate hook     Add a hook to an existing CLI or plugin.\n';

  it('capital titles without a colon (`USAGE`, `ARGUMENTS`, `FLAGS`, `COMMANDS`) are sections; a wrapped usage line is one form', () => {
    const spec = parseHelp(help);
    expect(spec.options.map((entry) => entry.long)).toEqual(['dry-run', 'yes', 'author', 'module-type']);
    expect(spec.positionals.map(({ name, required }) => ({ name, required }))).toEqual([{ name: 'NAME', required: true }]);
    expect(spec.subcommands.map((command) => command.name)).toEqual(['command', 'hook']);
  });

  it('`generate NAME` with commands listed as `generate command`: the program is `oclif generate`', () => {
    expect(parseHelp(help).name).toBe('oclif_generate');
  });

  it('a form wrapped onto deeper lines under `USAGE` stays one form: its later positional counts', () => {
    const wrapped = 'USAGE\n  $ mycli SOURCE [--force] [--author <value>]\n    [--bin <value>] DEST\n\nFLAGS\n  --force  Overwrite.\n';
    expect(parseHelp(wrapped).positionals.map((positional) => positional.name)).toEqual(['SOURCE', 'DEST']);
  });

  it('without a `USAGE` title, capital lines (tsc\'s `COMMON COMMANDS`) are no sections', () => {
    const tsc = 'tsc: The TypeScript Compiler\n\nCOMMON COMMANDS\n\n  tsc\n  Compiles the current project.\n\nCOMMAND LINE FLAGS\n\n--watch, -w\nWatch input files.\n';
    expect(parseHelp(tsc).subcommands).toEqual([]);
    expect(parseHelp(tsc).options.map((entry) => entry.long)).toEqual(['watch']);
  });
});

describe('value-taking from descriptions, in a help that shows no placeholder at all', () => {
  const mocha = (extra = ''): string =>
    `Usage: mocha [spec..]\n\nOptions:\n  --config                           Path to config file\n  --jobs, -j                         Number of concurrent jobs for --parallel\n  --reporter, -R                     Specify reporter to use\n  --grep, -g                         Only run tests matching this string or regexp\n  --timeout, -t                      Specify test timeout threshold (in milliseconds)\n  --reporter-option, -O              Reporter-specific options (<k=v,[k1=v1,..]>)\n  --ignore                           Ignore file(s) or glob pattern(s)\n  --bail, -b                         Abort ("bail") after first test failure\n  --list-reporters                   List built-in reporters & exit\n  --parallel, -p                     Run tests in parallel\n  --sort, -S                         Sort test files\n${extra}`;

  it('noun phrases, `Specify …`, `this string`, units, `<k=v>` and globs take a value; the others stay flags', () => {
    const options = parseHelp(mocha()).options;
    expect(Object.fromEntries(options.map((entry) => [entry.long, entry.takes_value]))).toEqual({
      config: true, jobs: true, reporter: true, grep: true, timeout: true, 'reporter-option': true, ignore: true,
      bail: false, 'list-reporters': false, parallel: false, sort: false,
    });
  });

  it('one option with a placeholder shows the format states value-taking: descriptions are not read', () => {
    const options = parseHelp(mocha('  --file <path>                      Specify file(s) to be loaded first\n')).options;
    expect(options.find((entry) => entry.long === 'config')?.takes_value).toBe(false);
    expect(options.find((entry) => entry.long === 'file')?.takes_value).toBe(true);
  });
});

describe('Go flag usage', () => {
  it('the forms indented under `Usage of stringer:` give the positionals (first form) and required options; a `# comment` is dropped', () => {
    const help =
      'Usage of stringer:\n\tstringer [flags] -type T [directory]\n\tstringer [flags] -type T files... # Must be a single package\nFor more information, see:\n\thttps://pkg.go.dev/golang.org/x/tools/cmd/stringer\nFlags:\n  -output string\n    \toutput file name\n  -type string\n    \tcomma-separated list of type names; must be set\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('stringer');
    expect(spec.positionals.map(({ name, required, variadic }) => ({ name, required, variadic }))).toEqual([{ name: 'directory', required: false, variadic: false }]);
    expect(spec.options.find((entry) => entry.long === 'type')?.required).toBe(true);
    const commented = parseHelp('Usage of x:\n\tx [flags] file # exactly one file\nFlags:\n  -v\tverbose\n');
    expect(commented.positionals.map((positional) => positional.name)).toEqual(['file']);
  });
});

describe('rich panels (typer, rich-click)', () => {
  it('typer\'s `*` column before a required parameter is no part of the row', () => {
    const typer =
      ' Usage: app [OPTIONS] NAME\n\n' +
      '╭─ Options ────────────────────────────────────────────╮\n' +
      '│ *  --output  -o      PATH     Where to write. [required] │\n' +
      '│    --count           INTEGER  How many. [default: 1]     │\n' +
      '╰───────────────────────────────────────────────────────╯\n';
    expect(parseHelp(typer).options.map(({ long, short, required, default: value }) => ({ long, short, required, default: value }))).toEqual([
      { long: 'output', short: 'o', required: true, default: null },
      { long: 'count', short: null, required: false, default: 1 },
    ]);
  });

  const help =
    ' Usage: fastapi dev [OPTIONS] [PATH]\n\n Run a FastAPI app in development mode.\n\n' +
    '╭─ Arguments ─────────────────────────────────────────────╮\n' +
    '│   path      [PATH]  A path to a Python file.             │\n' +
    '╰──────────────────────────────────────────────────────────╯\n' +
    '╭─ Options ───────────────────────────────────────────────╮\n' +
    '│ --port                          INTEGER  The port.       │\n' +
    '│                                          [default: 8000] │\n' +
    '│ --reload         --no-reload             Auto-reload.    │\n' +
    '│                                          [default: reload]│\n' +
    '│ --verbose        -v                      Verbose output. │\n' +
    '│ --help                                   Show this message and exit. │\n' +
    '╰──────────────────────────────────────────────────────────╯\n';

  it('panel borders are dropped and titles read as sections; the spelling columns join the head', () => {
    const spec = parseHelp(help);
    expect(spec.options.map(({ long, short, takes_value, type, default: value, negation }) => ({ long, short, takes_value, type, default: value, negation }))).toEqual([
      { long: 'port', short: null, takes_value: true, type: 'integer', default: 8000, negation: null },
      { long: 'reload', short: null, takes_value: false, type: 'boolean', default: true, negation: '--no-reload' },
      { long: 'verbose', short: 'v', takes_value: false, type: 'boolean', default: null, negation: null },
    ]);
    expect(spec.positionals.map(({ name, required }) => ({ name, required }))).toEqual([{ name: 'path', required: false }]);
  });
});

describe('Pod::Usage (perl prove)', () => {
  const help =
    'Usage:\n     prove [options] [files or directories]\n\nOptions:\n     Boolean options:\n\n      -v,  --verbose         Print all test lines.\n      -D   --dry             Dry run. Show test that would have run.\n           --nocolor         Do not color test output.\n\n     Options that take arguments:\n\n      -I                     Library paths to include.\n      -e,  --exec            Interpreter to run the tests\n           --ext             Set the extension for tests (default \'.t\')\n           --state=opts      Control prove\'s persistent state.\n';

  it('long spellings in a column of their own (`-v,  --verbose`, `-D   --dry`) belong to the option', () => {
    expect(parseHelp(help).options.slice(0, 3).map(({ long, short }) => ({ long, short }))).toEqual([
      { long: 'verbose', short: 'v' },
      { long: 'dry', short: 'D' },
      { long: 'nocolor', short: null },
    ]);
  });

  it('options under `Options that take arguments:` take a value; `--state=opts` is a placeholder, not a literal', () => {
    const options = parseHelp(help).options;
    expect(Object.fromEntries(options.map((entry) => [entry.long ?? entry.short, entry.takes_value]))).toEqual({ verbose: false, dry: false, nocolor: false, I: true, exec: true, ext: true, state: true });
    expect(option(help, 'ext')?.default).toBe('.t');
    expect(option(help, 'state')?.choices).toBeNull();
  });
});

describe('busybox, cac and gh notations', () => {
  it('busybox `-v[v]` is a repeatable flag, `-u USER[:GRP]` takes a value, `(default {/etc,HOME}/httpd.conf)` is no one value', () => {
    const help = 'Usage: httpd [-ifv[v]] [-u USER[:GRP]] [-c FILE]\n\n\t-v[v]\t\tVerbose\n\t-u USER[:GRP]\tSet uid/gid after binding to port\n\t-c FILE\t\tConfiguration file (default {/etc,HOME}/httpd.conf)\n\t-h HOME\t\tHome directory (default .)\n';
    expect(option(help, 'v')).toMatchObject({ takes_value: false, repeatable: true });
    expect(option(help, 'u')?.takes_value).toBe(true);
    expect(option(help, 'c')?.default).toBeNull();
    expect(option(help, 'h')?.default).toBe('.');
  });

  it('cac `Bundle format, "cjs", "iife", "esm"` and gh `Filter by state: {open|closed|all}` give choices', () => {
    expect(option('Options:\n  --format <format>     Bundle format, "cjs", "iife", "esm" (default: cjs)\n  --target <target>     Bundle target, "es20XX" or "esnext" (default: es2017)\n', 'format')).toMatchObject({ choices: ['cjs', 'iife', 'esm'], default: 'cjs' });
    expect(option('Options:\n  --target <target>     Bundle target, "es20XX" or "esnext" (default: es2017)\n', 'target')?.choices).toBeNull();
    expect(option('FLAGS\n  -s, --state string       Filter by state: {open|closed|all} (default "open")\n', 'state')).toMatchObject({ choices: ['open', 'closed', 'all'], default: 'open' });
  });
});

describe('meow', () => {
  it('titles indented by two without a colon (`  Usage`, `  Options`); `<source …>` is variadic', () => {
    const help = '\n  Copy files\n\n  Usage\n    $ cpy <source …> <destination>\n\n  Options\n    --cwd=<dir>          Working directory for files\n    --flat               Flatten directory structure.\n\n  Examples\n    $ cpy \'src/*.png\' dist\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('cpy');
    expect(spec.positionals.map(({ name, required, variadic }) => ({ name, required, variadic }))).toEqual([
      { name: 'source', required: true, variadic: true },
      { name: 'destination', required: true, variadic: false },
    ]);
    expect(spec.options.map(({ long, takes_value }) => ({ long, takes_value }))).toEqual([
      { long: 'cwd', takes_value: true },
      { long: 'flat', takes_value: false },
    ]);
  });
});

describe('urfave/cli and yargs details', () => {
  it('urfave\'s generic `value` placeholder does not make a number default a string', () => {
    expect(option('OPTIONS:\n   --parseDepth value                     Dependency parse depth (default: 100)\n', 'parseDepth')).toMatchObject({ type: 'integer', default: 100 });
  });

  it('`[default: index or name (when --names is set)]` names alternatives: no default', () => {
    expect(option('Options:\n  -p, --prefix   Prefix used in logging.\n                 [string] [default: index or name (when --names is set)]\n', 'prefix')?.default).toBeNull();
  });

  it('yargs `<command ...>`: the positional is `command`', () => {
    expect(parseHelp('concurrently [options] <command ...>\n\nOptions:\n  -h, --help  Show help  [boolean]\n').positionals.map(({ name, variadic }) => ({ name, variadic }))).toEqual([{ name: 'command', variadic: true }]);
  });
});

describe('click defaults wrapped over lines', () => {
  it('a `[default: …]` cut by the wrap (several more words before `]`) gives none; `[Default: 0 (automatic)]` stays', () => {
    const black = 'Options:\n  --exclude TEXT                  A regular expression.\n                                  [default: /(\\.direnv|\\.eggs|\\.git|\\.ipy\n                                  nb_checkpoints|\\.mypy_cache|\\.nox|\\.pytest_c\n                                  ache|venv)/]\n';
    expect(option(black, 'exclude')?.default).toBeNull();
    expect(option('Options:\n  -B#   Set job size to #. [Default: 0 (automatic)]\n', 'B')?.default).toBe(0);
  });
});

describe('open value lists', () => {
  it('fd `<date|dur>` names kinds of value: a placeholder, not choices', () => {
    expect(option('Options:\n      --changed-within <date|dur>  Filter by file modification time (newer than)\n', 'changed-within')).toMatchObject({ takes_value: true, choices: null });
  });

  it('GNU od: a definition-list item that is no plain name (`d[SIZE]`) leaves the epilog list open', () => {
    const help = 'Usage: od [OPTION]... [FILE]...\n  -t, --format=TYPE           select output format or formats\n\nTYPE is made up of one or more of these specifications:\n  a          named character, ignoring high-order bit\n  c          printable character or backslash escape\n  d[SIZE]    signed decimal, SIZE bytes per integer\n';
    expect(option(help, 'format')?.choices).toBeNull();
  });
});

describe('positional sections', () => {
  it('docopt `Arguments:` writes `<path>` for the `[<path>]` of the usage: optional', () => {
    const help = 'Usage:\n    pipreqs [options] [<path>]\n\nArguments:\n    <path>                The path to the directory.\n\nOptions:\n    --debug               Print debug information\n';
    expect(parseHelp(help).positionals.map(({ name, required }) => ({ name, required }))).toEqual([{ name: 'path', required: false }]);
  });

  it('kong `[<files> ...]` is optional and variadic', () => {
    const help = 'Usage: chroma [<files> ...] [flags]\n\nArguments:\n  [<files> ...]    Files to highlight.\n\nFlags:\n  -h, --help    Show context-sensitive help.\n      --fail    Exit with status 1.\n';
    expect(parseHelp(help).positionals.map(({ name, required, variadic }) => ({ name, required, variadic }))).toEqual([{ name: 'files', required: false, variadic: true }]);
  });
});

describe('robustness', () => {
  it('`[possible values: ]` names no choice (an empty list is none; the spec stays valid)', () => {
    expect(option('--all[\n[possible values: ]', 'all')?.choices).toBeNull();
  });
});

describe('repeatable in prose', () => {
  it('`Pass over SVGs multiple times` describes the work, not the flag; `can be supplied multiple times` repeats it', () => {
    const help = 'Options:\n  --multipass         Pass over SVGs multiple times to ensure all optimizations are applied\n  --src <dir>         --src can be supplied multiple times\n  --prepare <cmd>     Can be specified once for all commands or multiple times\n';
    expect(option(help, 'multipass')).toMatchObject({ takes_value: false, repeatable: false });
    expect(option(help, 'src')?.repeatable).toBe(true);
    expect(option(help, 'prepare')?.repeatable).toBe(true);
  });
});

describe('help and version', () => {
  it('oclif `--version=<value>  Version to use in readme links` takes a value: an option, not the version flag', () => {
    const help = 'USAGE\n  $ oclif readme [--version <value>]\n\nFLAGS\n  --dry-run                      Prints the README.\n  --version=<value>              Version to use in readme links.\n';
    expect(parseHelp(help).options.map((entry) => entry.long)).toEqual(['dry-run', 'version']);
    expect(parseHelp('Options:\n  --dry-run   Prints.\n  --version   Show version.\n').options.map((entry) => entry.long)).toEqual(['dry-run']);
  });
});

describe('Go flag details', () => {
  const help = 'Usage: benchstat [flags] inputs...\n\nFlags:\n  -confidence level\n    \tconfidence level for ranges (default 0.95)\n  -format format\n    \tformat output as "text" or "csv" (default "text")\n';

  it('a decimal default makes an integer-sounding placeholder (`level`) a number', () => {
    expect(option(help, 'confidence')).toMatchObject({ type: 'number', default: 0.95 });
  });

  it('`as "text" or "csv"` gives the choices', () => {
    expect(option(help, 'format')).toMatchObject({ choices: ['text', 'csv'], default: 'text' });
  });
});
