/**
 * Notations met in parser fixes round 13 on batch 17's JS/TS and Rust/Go texts (issue 12), each
 * pinned on a minimal help: invented choices, value-taking, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('choices', () => {
  it('gosec `- atlas (Atlas default), atlas-x, atlas:<model-id>;`: bullets opening runs of values are no definition list', () => {
    const help =
      'Usage of prog:\n  -provider string\n    \tAI provider. Valid options are:\n    \t- atlas (Atlas default), atlas-small, atlas:<model-id>;\n    \t- gemini-pro (gemini, default), gemini-flash\n  -v\tverbose\n';
    expect(option(help, 'provider')).toMatchObject({ takes_value: true, choices: null });
    // a bullet definition list still gives its names
    const listed = 'Options:\n  --mode <m>   Pick one:\n               - fast: run swiftly\n               - safe: run carefully\n';
    expect(option(listed, 'mode')?.choices).toEqual(['fast', 'safe']);
  });
});

describe('value-taking', () => {
  it('yargs `[count]`: a flag repeated to count (`-LLL`), no value', () => {
    const help = 'Usage: x [options]\n\nOptions:\n  -h, --help       Show help                           [boolean]\n  -L, --log-level  Set the loglevel. -LLL is default.    [count]\n  -d, --depth      Depth of the tree                    [number]\n';
    expect(option(help, 'log-level')).toMatchObject({ takes_value: false, repeatable: true });
    expect(option(help, 'depth')?.takes_value).toBe(true);
  });
});

describe('names', () => {
  it('jsonnet `-J / --jpath <dir>`: a short and a long set apart by a spaced slash are one option; click `--x / --no-x` stays a negation', () => {
    const help =
      'Available options:\n  -h / --help                This message\n  -e / --exec                Treat filename as code\n  -J / --jpath <dir>         Specify a library search dir\n  -c / --no-color            Plain output\n';
    expect(option(help, 'jpath')).toMatchObject({ short: 'J', long: 'jpath', takes_value: true, negation: null });
    expect(option(help, 'exec')).toMatchObject({ short: 'e', takes_value: false, negation: null });
    const click = 'Usage: x [OPTIONS]\n\nOptions:\n  --shout / --no-shout  Shout it\n  -s / -S               Loud or soft\n';
    expect(option(click, 'shout')?.negation).toBe('--no-shout');
    expect(option(click, 's')?.negation).toBe('-S');
  });
});

describe('value-taking from examples', () => {
  it('pkg `pkg [options] <input>` over `$ pkg -t node14 index.js`: words beyond the form\'s positionals are the options\' values', () => {
    const help =
      '\n  pkg [options] <input>\n\n  Options:\n\n    -h, --help           output usage information\n    -t, --targets        list of targets\n    -d, --debug          show more information\n    --public             disclose the sources\n    -C, --compress       compression algorithm\n    -b, --build          build base binaries\n\n  Examples:\n\n  – Makes executable for a target\n    $ pkg -t node14-win-arm64 index.js\n  – Debug output\n    $ pkg -d index.js\n  – Compressed\n    $ pkg --public --compress GZip index.js\n  – Redirected\n    $ pkg -b index.js < list\n';
    expect(option(help, 'targets')?.takes_value).toBe(true);
    expect(option(help, 'compress')?.takes_value).toBe(true);
    // the example's one word is the positional; a redirection's file is none
    expect(option(help, 'debug')?.takes_value).toBe(false);
    expect(option(help, 'public')?.takes_value).toBe(false);
    expect(option(help, 'build')?.takes_value).toBe(false);
  });
});

describe('positionals', () => {
  it('templ `usage: templ generate [<args>...]` over an `Args:` section of options: the placeholder stands for them', () => {
    const help = 'usage: templ generate [<args>...]\n\nGenerates Go code.\n\nArgs:\n  -path <path>\n    Generates code for all files in path. (default .)\n  -watch\n    Watch the path for changes.\n';
    expect(parseHelp(help).positionals).toEqual([]);
    const real = 'usage: prog [<args>...]\n\nOptions:\n  -v  verbose\n';
    expect(parseHelp(real).positionals.map((positional) => positional.name)).toEqual(['args']);
  });
});

describe('value-taking from stated defaults', () => {
  const help =
    'usage: templ generate [<args>...]\n\nArgs:\n  -path <path>\n    Generates code for all files in path. (default .)\n  -proxyport\n    The port the proxy will listen on. (default 7331)\n  -proxybind\n    The address the proxy will listen on. (default 127.0.0.1)\n  -log-level\n    Set log verbosity level. (default "info", options: "debug", "info", "warn", "error")\n  -v\n    Set log verbosity level to "debug". (default "info")\n  -include-version\n    Include the version. (default true)\n  -retries\n    Retry once. (default 1)\n';

  it('templ `-proxyport … (default 7331)`, `(default 127.0.0.1)`: a default no switch can have says a value is taken', () => {
    expect(option(help, 'proxyport')).toMatchObject({ takes_value: true, type: 'integer', default: 7331 });
    expect(option(help, 'proxybind')).toMatchObject({ takes_value: true, default: '127.0.0.1' });
    expect(option(help, 'include-version')?.takes_value).toBe(false);
    // one digit may be a switch's state
    expect(option(help, 'retries')?.takes_value).toBe(false);
  });

  it('templ `(default "info", options: "debug", "info", …)`: a default among the values named `options:` gives a value and its choices', () => {
    expect(option(help, 'log-level')).toMatchObject({ takes_value: true, choices: ['debug', 'info', 'warn', 'error'], default: 'info' });
    // a quoted default alone names no value set: the switch stays one
    expect(option(help, 'v')?.takes_value).toBe(false);
    const placeholder = 'Options:\n  --level <l>   Log level, options: debug, info, warn\n';
    expect(option(placeholder, 'level')?.choices).toEqual(['debug', 'info', 'warn']);
  });
});

describe('usage forms', () => {
  it('jsonnet: a one-line headline naming the program, a blank line, then a bare form with `{<option>}` (braces repeat options)', () => {
    const help =
      'Jsonnet commandline interpreter (Go implementation) v0.20.0\n\njsonnet {<option>} <filename>\n\nAvailable options:\n  -h / --help                This message\n  -e / --exec                Treat filename as code\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('jsonnet');
    expect(spec.positionals).toEqual([expect.objectContaining({ name: 'filename', required: true, variadic: false })]);
    // a headline naming another word leaves a bare line below it prose
    const other = 'A tool for things\n\nthings [x] <y>\n\nOptions:\n  -v  verbose\n';
    expect(parseHelp(other).positionals).toEqual([]);
  });
});

describe('glued value names', () => {
  it('node `cli` (jshint) `--exclude-path STRINGPass in …`: a value name other options show, glued to a capitalized description past the column', () => {
    const help =
      'Usage:\n  jshint [OPTIONS] [ARGS]\n\nOptions: \n  -c, --config STRING    Custom configuration file\n      --exclude STRING   Exclude files\n      --exclude-path STRINGPass in a custom ignore file path\n      --verbose          Show message codes\n      --checkstyle-reporter Use a CheckStyle reporter\n';
    expect(option(help, 'exclude-path')).toMatchObject({ takes_value: true, value_name: 'STRING', description: 'Pass in a custom ignore file path' });
    expect(option(help, 'checkstyle-reporter')?.takes_value).toBe(false);
  });
});

describe('plural positionals', () => {
  it('gulp `gulp [options] tasks`: a lower-case plural written bare after the options names several values', () => {
    const help = 'Usage: gulp [options] tasks\n\nOptions:\n  -v, --version  Print the version.  [boolean]\n';
    expect(parseHelp(help).positionals).toEqual([expect.objectContaining({ name: 'tasks', required: true, variadic: true })]);
    // a bare word right after the program is a command word, no positional
    const command = 'Usage: tool items [options] <id>\n\nOptions:\n  -v  verbose\n';
    expect(parseHelp(command).positionals.map((positional) => positional.name)).toEqual(['id']);
  });
});

describe('plural positionals after spelled options', () => {
  it('argparse `pipcheck [-h] [-i PKG] requirements`: a bare plural after the options themselves stays one', () => {
    const help = 'usage: pipcheck [-h] [-o FILE] requirements\n\npositional arguments:\n  requirements  requirements file\n\noptions:\n  -h, --help  show this help message and exit\n  -o FILE     report\n';
    expect(parseHelp(help).positionals).toEqual([expect.objectContaining({ name: 'requirements', variadic: false })]);
  });
});
