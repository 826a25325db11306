/**
 * Notations met in parser fixes round 7 (issue 12), each pinned on a minimal help. First the
 * defaults that are no value (an invented default is worse than a missing one), then choices,
 * positionals and the defaults that are values.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('defaults that are no value', () => {
  it('argparse `default: .?*, _svn, __pycache__` is a list; `default: 4.` and `default: fast, which is safe` are values', () => {
    const help =
      'usage: count [-h] [--skip PATTERNS] [--jobs N] [--mode MODE]\n\noptions:\n  --skip PATTERNS  comma separated list of glob patterns; default:\n                   .?*, _svn, __pycache__\n  --jobs N         jobs to run; default: 4.\n  --mode MODE      mode to use; default: fast, which is safe\n';
    expect(option(help, 'skip')?.default).toBeNull();
    expect(option(help, 'jobs')?.default).toBe(4);
    expect(option(help, 'mode')?.default).toBe('fast');
  });

  it('iperf `(default 1 Mbit/sec for UDP, unlimited for TCP)` holds per case; `(default 10 secs)` is a value', () => {
    const help =
      'Usage: perf [options]\n\nOptions:\n  -b, --bitrate #[KMG]  target bitrate\n                        (default 1 Mbit/sec for UDP, unlimited for TCP)\n  -t, --time #          time in seconds (default 10 secs)\n';
    expect(option(help, 'bitrate')?.default).toBeNull();
    expect(option(help, 'time')?.default).toBe(10);
  });

  it('click `Defaults to JPEG unless WebP is selected. WebP defaults to 100`: the defaults depend on a condition', () => {
    const help =
      'Usage: shot [OPTIONS]\n\nOptions:\n  --quality INTEGER  JPEG or WebP quality. Defaults to JPEG unless WebP is\n                     selected. WebP defaults to 100 (lossless).\n  --wait INTEGER     Wait this long. Defaults to 100.\n';
    expect(option(help, 'quality')?.default).toBeNull();
    expect(option(help, 'wait')?.default).toBe(100);
  });

  it('yargs `[default: 1 (or 2 for PPTX)]` names alternatives', () => {
    const help = 'Options:\n  --image-scale  The scale factor  [number] [default: 1 (or 2 for PPTX)]\n  --jpeg-quality  Set quality  [number] [default: 85]\n';
    expect(option(help, 'image-scale')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'jpeg-quality')?.default).toBe(85);
  });
});

describe('defaults that are values', () => {
  it('argparse `The name of the remote to push to. [origin]`: a bare value in brackets after the last sentence', () => {
    const help =
      'usage: pub [-h] [-r REMOTE] [-x PREFIX] [-s] [-t TAG]\n\noptions:\n  -r REMOTE, --remote REMOTE\n                        The name of the remote to push to. [origin]\n  -x PREFIX, --prefix PREFIX\n                        The prefix to add. [None]\n  -s, --shell           Use the shell when invoking Git. [False]\n  -t TAG, --tag TAG     Tag [see docs] to use\n';
    expect(option(help, 'remote')?.default).toBe('origin');
    expect(option(help, 'prefix')?.default).toBeNull();
    expect(option(help, 'shell')).toMatchObject({ takes_value: false, default: false });
    expect(option(help, 'tag')?.default).toBeNull();
  });
});

describe('defaults that are no value: character classes', () => {
  it('getopt `--sep REGEXP … (default: whitespace)` names a class of characters; `--float FPFMT (default: g)` is a value', () => {
    const help =
      'Usage: tab [options] [FILE ...]\n\n-s REGEXP, --sep REGEXP   use a custom column separator (default: whitespace)\n-F FPFMT, --float FPFMT   floating point number format (default: g)\n-m WORD, --mark WORD      mark to use (default: space)\n';
    expect(option(help, 'sep')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'float')?.default).toBe('g');
    expect(option(help, 'mark')?.default).toBe('space');
  });
});

describe('defaults that are no value: percentages', () => {
  it('optparse `(default=0.001%)` reads as a percentage, not as the value to pass; `(default=0.5)` is a value', () => {
    const help =
      'Usage: prof [options]\n\nOptions:\n  --tolerance=TOLERANCE\n                        Tolerance threshold (default=0.001%).\n  --cut=RATIO           Cut ratio (default=0.5).\n';
    expect(option(help, 'tolerance')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'cut')?.default).toBe(0.5);
  });
});

describe('value-taking', () => {
  it('iperf `-A, --affinity n/n,m`: one-letter placeholders joined by `/` and `,`', () => {
    const help = 'Usage: perf [options]\n\nOptions:\n  -A, --affinity n/n,m      set CPU affinity\n  -u, --udp                 use UDP\n';
    expect(option(help, 'affinity')?.takes_value).toBe(true);
    expect(option(help, 'udp')?.takes_value).toBe(false);
  });

  it('iperf `-f, --format   [kmgtKMGT] format to report: Kbits, Mbits, Gbits, Tbits`: each letter a value', () => {
    const help =
      'Usage: perf [options]\n\nOptions:\n  -f, --format   [kmgtKMGT] format to report: Kbits, Mbits, Gbits, Tbits\n  -x, --extra    [file] read extra settings from a file\n';
    expect(option(help, 'format')).toMatchObject({ takes_value: true, choices: ['k', 'm', 'g', 't', 'K', 'M', 'G', 'T'] });
    expect(option(help, 'extra')?.choices).toBeNull();
  });

  it('iperf `#` and `#[KMG][/#]` stand for a number, in the head or in a column of their own', () => {
    const help =
      'Usage: perf [-s|-c host] [options]\n\nOptions:\n  -p, --port      #         server port to listen on\n  -n, --bytes     #[KMG]    number of bytes to transmit\n  --rcv-timeout #           idle timeout (default 120000 ms)\n  -b, --bitrate #[KMG][/#]  target bitrate in bits/sec\n  -u, --udp                 use UDP\n';
    expect(option(help, 'port')?.takes_value).toBe(true);
    expect(option(help, 'bytes')?.takes_value).toBe(true);
    expect(option(help, 'rcv-timeout')).toMatchObject({ takes_value: true, default: 120000 });
    expect(option(help, 'bitrate')?.takes_value).toBe(true);
    expect(option(help, 'udp')?.takes_value).toBe(false);
  });
});

describe('pflag / cobra', () => {
  it('pflag `-t, --timestamps string[="default"]` takes an optional value; the next options stay options', () => {
    const help =
      'Usage:\n  tail [flags]\n\nFlags:\n  -t, --timestamps string[="default"]   Print timestamps. One of \'default\' or \'short\'.\n      --timezone string                 Set timezone. (default "Local")\n      --verbosity int                   Verbosity\n';
    expect(option(help, 'timestamps')).toMatchObject({ takes_value: true, value_optional: true, choices: ['default', 'short'], default: null });
    expect(option(help, 'timezone')).toMatchObject({ takes_value: true, default: 'Local' });
    expect(option(help, 'verbosity')?.type).toBe('integer');
  });
});

describe('choices', () => {
  it('optparse `(can be specified multiple times): self-time, …, total-time or total-time-percentage`: a list after a parenthesis and colon', () => {
    const help =
      'Usage: prof [options]\n\nOptions:\n  --node-label=MEASURE  measurements to on show the node (can be specified multiple times): self-\n                        time, self-time-percentage, total-time or total-time-percentage [default:\n                        total-time-percentage, self-time-percentage]\n  --skew=THETA          skew the colorization curve (e.g. 0.5): keep it low\n';
    expect(option(help, 'node-label')).toMatchObject({ choices: ['self-time', 'self-time-percentage', 'total-time', 'total-time-percentage'], default: null });
    expect(option(help, 'skew')?.choices).toBeNull();
  });

  it('pflag `Sets output style: [interleaved|group|prefixed].`, `… when listed. [default|alphanumeric|none].`: a bracketed pipe list ending the sentence', () => {
    const help =
      'Usage:\n  run [flags]\n\nFlags:\n  -o, --output string   Sets output style: [interleaved|group|prefixed].\n      --sort string     Changes the order of the tasks when listed. [default|alphanumeric|none].\n      --dir string      Directory [see docs] to use.\n      --ask string      Answer [yes|no] when asked, then go on\n';
    expect(option(help, 'output')?.choices).toEqual(['interleaved', 'group', 'prefixed']);
    expect(option(help, 'sort')?.choices).toEqual(['default', 'alphanumeric', 'none']);
    expect(option(help, 'dir')?.choices).toBeNull();
    expect(option(help, 'ask')?.choices).toBeNull();
  });

  it("cobra `Can be 'bash', 'zsh' or 'fish'.`: the whole quoted list, not its last two", () => {
    const help = "Usage:\n  tail [flags]\n\nFlags:\n      --completion string   Output completion code. Can be 'bash', 'zsh' or 'fish'.\n";
    expect(option(help, 'completion')?.choices).toEqual(['bash', 'zsh', 'fish']);
  });

  it("cobra `'auto': colorize if tty attached, 'always': always colorize, 'never': never colorize.`: quoted values defined after colons", () => {
    const help =
      "Usage:\n  tail [flags]\n\nFlags:\n      --color string   Force set color output. 'auto':  colorize if tty attached, 'always': always colorize, 'never': never colorize. (default \"auto\")\n      --note string    Note. 'x': is a letter.\n";
    expect(option(help, 'color')).toMatchObject({ choices: ['auto', 'always', 'never'], default: 'auto' });
    expect(option(help, 'note')?.choices).toBeNull();
  });

  it('cobra `with state in running, waiting, terminated, or all. … (default [all])`: a list holding the stated default', () => {
    const help =
      'Usage:\n  tail [flags]\n\nFlags:\n      --state strings   Tail containers with state in running, waiting, terminated, or all. (default [all])\n      --kind strings    Kinds such as pods, jobs, or all. (default [all])\n      --mode string     Modes fast, slow, or safe. (default "other")\n';
    expect(option(help, 'state')).toMatchObject({ choices: ['running', 'waiting', 'terminated', 'all'], default: null });
    expect(option(help, 'kind')?.choices).toBeNull();
    expect(option(help, 'mode')?.choices).toBeNull();
  });
});

describe('positionals', () => {
  it('OptionParser `rk [-f rakefile] {options} targets...` on the first line, without a `Usage:` title, is the form', () => {
    const help = 'rk [-f rakefile] {options} targets...\n\nOptions are ...\n    -f, --rakefile [FILENAME]        Use FILENAME as the rakefile.\n    -q, --quiet                      Do not log messages.\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('rk');
    expect(spec.positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['targets', true, true]]);
  });

  it('a first line of prose names no positionals', () => {
    const help = 'tail multiple pods and containers [-x] from kubernetes\n\nOptions:\n  -x   Do it\n';
    expect(parseHelp(help).positionals).toEqual([]);
  });

  it('commander `[globs...] [file://<path> ...] [stdin[://<path>]]`: URL-shaped forms are values of the list, not positionals', () => {
    const help = 'Usage: spell lint [options] [globs...] [file://<path> ...] [stdin[://<path>]]\n\nOptions:\n  -c, --config <cfg>  Configuration file\n';
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['globs', false, true]]);
  });

  it('cobra `stern pod-query [flags]` with `help for stern`: an argument, not a subcommand path', () => {
    const help = 'Tail pods\n\nUsage:\n  stern pod-query [flags]\n\nFlags:\n  -h, --help          help for stern\n      --tail int      Lines to show\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('stern');
    expect(spec.positionals).toEqual([expect.objectContaining({ name: 'pod-query', required: true, variadic: false })]);
  });

  it('cobra `crane pull IMAGE [flags]` with `help for pull` keeps its subcommand path', () => {
    const help = 'Pull an image\n\nUsage:\n  crane pull IMAGE [flags]\n\nFlags:\n  -h, --help          help for pull\n      --format string  Format\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('crane_pull');
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['IMAGE']);
  });
});

describe('helps that show no placeholder (sade)', () => {
  const help =
    '\n  Usage\n    $ check [options]\n\n  Options\n' +
    '    --workspace        Path to your workspace.\n' +
    '    --output           What output format to use. Options are human, human-verbose, machine.\n' +
    '    --watch            Keep watching  (default false)\n' +
    '    --tsconfig         Pass a path to a tsconfig or jsconfig file.\n' +
    '    --ignore           Files/folders to ignore, comma-separated. Example: `--ignore "dist,build"`\n' +
    '    --sources          A list of sources. Possible values are `js` (includes TS), `svelte`, `css`.\n' +
    '    --fail-on-warnings Will also exit with error code when there are warnings  (default false)\n' +
    '    --strict           Report warnings as errors. Example: `--strict --watch`\n' +
    '    -h, --help         Displays this message\n';

  it('`Options are a, b, c.` names the values: the option takes one of them', () => {
    expect(option(help, 'output')).toMatchObject({ takes_value: true, choices: ['human', 'human-verbose', 'machine'] });
  });

  it('`Pass a path to a tsconfig file.` names a value', () => {
    expect(option(help, 'tsconfig')?.takes_value).toBe(true);
    expect(option(help, 'fail-on-warnings')?.takes_value).toBe(false);
  });

  it("the description's own example ``--ignore \"dist,build\"`` gives the option a value; ``--strict --watch`` gives none", () => {
    expect(option(help, 'ignore')?.takes_value).toBe(true);
    expect(option(help, 'strict')?.takes_value).toBe(false);
  });

  it('`` `error` will output only errors while `warning` will output … (default warning)``: the values the sentence defines', () => {
    const threshold =
      '\n  Usage\n    $ check [options]\n\n  Options\n    --threshold   Filters the diagnostics. `error` will output only errors while `warning` will output warnings and errors.  (default warning)\n    --level       Level. `x` will do one thing while `y` will do another.  (default z)\n    --watch       Keep watching  (default false)\n    --a           A  (default false)\n    --b           B  (default false)\n';
    expect(option(threshold, 'threshold')).toMatchObject({ takes_value: true, choices: ['error', 'warning'], default: 'warning' });
    expect(option(threshold, 'level')?.choices).toBeNull();
  });

  it('`Possible values are `js` (includes TS), `svelte`, `css`.`: backquoted items, the note dropped', () => {
    expect(option(help, 'sources')).toMatchObject({ takes_value: true, choices: ['js', 'svelte', 'css'] });
  });
});

describe('quoted alternatives in parentheses', () => {
  it("sade `('suggestion' | 'warning' | 'error')  (default suggestion)`: the option takes one of them", () => {
    const help =
      "\n  Usage\n    $ lint run [path] [options]\n\n  Options\n    --level       Level of messages to log ('suggestion' | 'warning' | 'error')  (default suggestion)\n    --pack        Package manager ('auto' | 'npm' | false)  (default auto)\n    --strict      Report warnings as errors  (default false)\n    --loud        Log more (see 'x' | more)\n";
    expect(option(help, 'level')).toMatchObject({ takes_value: true, choices: ['suggestion', 'warning', 'error'], default: 'suggestion' });
    expect(option(help, 'pack')).toMatchObject({ takes_value: true, choices: ['auto', 'npm', 'false'], default: 'auto' });
    expect(option(help, 'strict')).toMatchObject({ takes_value: false, default: false });
    expect(option(help, 'loud')?.takes_value).toBe(false);
  });
});

describe('OptionParser (ruby)', () => {
  it('`OUT can be stderr (default) or stdout.`: the choices, the marked one the default', () => {
    const help =
      'Usage: rk [options]\n\nOptions are ...\n        --backtrace=[OUT]            Enable full backtrace.  OUT can be stderr (default) or stdout.\n    -q, --quiet                      Do not log messages.\n';
    expect(option(help, 'backtrace')).toMatchObject({ takes_value: true, value_optional: true, choices: ['stderr', 'stdout'], default: 'stderr' });
  });

  it('`-R, --rakelibdir RAKELIBDIR,     Auto-import…` then `--rakelib` alone: one option, the second spelling an alias', () => {
    const help =
      'Usage: rk [options]\n\nOptions are ...\n    -R, --rakelibdir RAKELIBDIR,     Auto-import any .rake files in RAKELIBDIR.\n        --rakelib\n    -s, --silent                     Like --quiet.\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => candidate.long)).toEqual(['rakelibdir', 'silent']);
    expect(option(help, 'rakelibdir')).toMatchObject({ takes_value: true, aliases: ['--rakelib'], description: 'Auto-import any .rake files in RAKELIBDIR.' });
  });
});

describe('Thor (ruby)', () => {
  const help =
    'Usage:\n  fm start [PROCESS]\n\nOptions:\n' +
    '  -c, [--color], [--no-color]          # Force color to be enabled\n' +
    '  -e, [--env=ENV]                      # Specify an environment file to load, defaults to .env\n' +
    '  -p, [--port=N]                       \n' +
    '      [--timestamp], [--no-timestamp]  # Include timestamp in output\n' +
    '                                       # Default: true\n' +
    '  -f, [--procfile=PROCFILE]            # Default: Procfile\n';

  it('bracketed long spellings and `#` descriptions are plain option lines', () => {
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => [candidate.short, candidate.long, candidate.takes_value])).toEqual([
      ['c', 'color', false],
      ['e', 'env', true],
      ['p', 'port', true],
      [null, 'timestamp', false],
      ['f', 'procfile', true],
    ]);
    expect(option(help, 'color')?.description).toBe('Force color to be enabled');
  });

  it('the defaults in the description and on a `# Default:` line under it', () => {
    expect(option(help, 'env')?.default).toBe('.env');
    expect(option(help, 'timestamp')?.default).toBe(true);
    expect(option(help, 'procfile')?.default).toBe('Procfile');
  });

  it('argparse usage lines `[--json-lines]` stay usage', () => {
    const usage = 'usage: tool [-h] [--sort-keys]\n            [--json-lines]\n            [infile]\n\noptions:\n  --sort-keys  sort\n  --json-lines  lines\n';
    expect(parseHelp(usage).positionals.map((positional) => positional.name)).toEqual(['infile']);
  });
});

describe('yargs', () => {
  const help =
    'taze [args]\n\nCommands:\n  taze usage      List dependencies versions usage\n  taze [mode]     Keeps your deps fresh                                [default]\n\n' +
    'Positionals:\n  mode  the mode how version range resolves\n  [string] [choices: "default", "major", "minor", "patch", "latest", "newest", "\n                                                                          next"]\n\n' +
    'Options:\n  -C, --cwd             specify the current working directory           [string]\n' +
    '      --sort            sort by most outdated absolute or relative to dependency\n' +
    '  [string] [choices: "time-asc", "time-desc", "diff-asc", "diff-desc", "name-asc\n                                                                 ", "name-desc"]\n' +
    '      --browser           The kind of browser to use\n       [string] [choices: "auto", "chrome", "edge", "firefox"] [default: "auto"]\n' +
    '  -h, --help            Show help                                      [boolean]\n';

  it('a tag line left of the description column still belongs to the option above', () => {
    expect(option(help, 'browser')).toMatchObject({ takes_value: true, choices: ['auto', 'chrome', 'edge', 'firefox'], default: 'auto' });
  });

  it('a `[choices: …]` tag wrapped inside a quoted value joins without the line break', () => {
    expect(option(help, 'sort')?.choices).toEqual(['time-asc', 'time-desc', 'diff-asc', 'diff-desc', 'name-asc', 'name-desc']);
  });

  it('the positionals section keeps its tag line, and the default command `taze [mode]` makes `mode` optional', () => {
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required])).toEqual([['mode', false]]);
  });
});

describe('Pod::Usage (pg_format)', () => {
  const help =
    '\nUsage: fmt [options] file.sql\n\n    SQL beautifier.\n\nArguments:\n\n    file.sql can be a file, multiple files or use - to read query from stdin.\n\n    Returning the SQL formatted to stdout or into a file specified with\n    the -o | --output option.\n\nOptions:\n\n' +
    '    -u | --keyword-case N : Change the case of the reserved keyword. Default is\n                            uppercase: 2. Values: 0=>unchanged, 1=>lowercase,\n                            2=>uppercase, 3=>capitalize.\n' +
    '    -s | --spaces size    : change space indent, default 4 spaces.\n';

  it('sentences under `Arguments:` are prose, and `file.sql can be … multiple files` makes it variadic', () => {
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['file.sql', true, true]]);
  });

  it('`Values: 0=>unchanged, 1=>lowercase, …` are the choices; `Default is uppercase: 2.` the default', () => {
    expect(option(help, 'keyword-case')).toMatchObject({ takes_value: true, choices: ['0', '1', '2', '3'], default: '2' });
    expect(option(help, 'spaces')?.default).toBe(4);
  });
});

describe('hand-written (cpanm)', () => {
  const help =
    'Usage: inst [options] Module [...]\n\nOptions:\n  -v,--verbose              Turns on chatty output\n  -q,--quiet                Turns off the most output\n  -f,--force                force install\n' +
    '  --mirror                  Specify the base URL for the mirror\n  -M,--from                 Use only this mirror base URL and its index file\n  -n,--notest               Do not run unit tests\n\n' +
    'Commands:\n  --self-upgrade            upgrades itself\n  -U,--uninstall            Uninstalls the modules\n  -V,--version              Displays software version\n';

  it('`Module [...]`: an ellipsis alone in brackets after a positional repeats it', () => {
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['Module', true, true]]);
  });

  it('long spellings listed under `Commands:` are options', () => {
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => candidate.long)).toEqual(expect.arrayContaining(['self-upgrade', 'uninstall']));
    expect(spec.subcommands).toEqual([]);
  });

  it('`Use only this mirror base URL` names a value where no option shows a placeholder', () => {
    expect(option(help, 'from')?.takes_value).toBe(true);
    expect(option(help, 'force')?.takes_value).toBe(false);
  });
});

describe('commander (jscpd)', () => {
  const help =
    'Usage: cpd [options] <path ...>\n\nOptions:\n' +
    '  -z, --max-size [string]    max size of source in bytes, examples: 1kb, 1mb,\n                             120kb (Default is 100kb)\n' +
    '  -c, --config [string]      path to config file (Default is .cpd.json in\n                             <path>)\n' +
    '  -o, --output [string]      reporters to use (Default is ./report/)\n' +
    '  -m, --mode [string]        mode of quality of search, can be "strict", "mild" and "weak"\n' +
    '  -g, --gitignore            respect .gitignore files (default: enabled, use\n                             --no-gitignore to disable)\n' +
    '  --no-gitignore             do not respect .gitignore files\n' +
    '  --store [string]           config file (default is $HOME/.store.yaml)\n' +
    '  --kind [string]            config file (default is cpd.yaml|json|toml)\n';

  it('`(Default is 100kb)`: one word closing the parenthesis; `examples: 1kb, 1mb` are no choices', () => {
    expect(option(help, 'max-size')).toMatchObject({ default: '100kb', choices: null });
    expect(option(help, 'output')?.default).toBe('./report/');
    expect(option(help, 'config')?.default).toBeNull();
  });

  it('`can be "strict", "mild" and "weak"`: quoted values joined by `and`', () => {
    expect(option(help, 'mode')?.choices).toEqual(['strict', 'mild', 'weak']);
  });

  it('`(default: enabled, use --no-gitignore to disable)` on a switch: on', () => {
    expect(option(help, 'gitignore')).toMatchObject({ takes_value: false, default: true });
  });

  it('`$HOME/…` (expanded by the program) and `a.yaml|json|toml` (alternatives) are no value', () => {
    expect(option(help, 'store')?.default).toBeNull();
    expect(option(help, 'kind')?.default).toBeNull();
  });
});

describe('typer (rich panels)', () => {
  it('`<list[BP001|BP002|BP0` wrapped onto the next row: the enum values of a repeated option', () => {
    const help =
      ' Usage: bump [OPTIONS] {path}\n\n' +
      '╭─ Options ──────────────────────────────────────────────────────────────╮\n' +
      '│ --disable                  <list[BP001|BP002|BP0  Disable a rule.       │\n' +
      '│                            03|BP004]>                                  │\n' +
      '│ --ignore                   <list[str]>            Ignore a path glob.   │\n' +
      '│ --log-file                 <path>                 Log errors to this.   │\n' +
      '╰────────────────────────────────────────────────────────────────────────╯\n';
    expect(option(help, 'disable')).toMatchObject({ takes_value: true, choices: ['BP001', 'BP002', 'BP003', 'BP004'], repeatable: true });
    expect(option(help, 'ignore')).toMatchObject({ takes_value: true, choices: null });
  });
});
