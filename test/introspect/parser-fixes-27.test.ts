/**
 * Notations met in parser fixes round 15 (issue 12, batch 20 part c: JS/TS helps), each pinned on a
 * minimal help: invented choices first, then value-taking, positionals, names, choices, defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('choices that are no closed set', () => {
  it('cac `should be "**/*.html" or "**/*.json"`: glob patterns match many values, they are no choices', () => {
    const help =
      'Usage:\n  $ viz [options]\n\nOptions:\n  --output -o <filepath>    Output file path, should be "**/*.html" or "**/*.json" (default: /tmp/stats.html)\n  --mode -m <mode>          Mode, should be "dev" or "prod"\n';
    expect(option(help, 'output')).toMatchObject({ choices: null, default: '/tmp/stats.html' });
    expect(option(help, 'mode')?.choices).toEqual(['dev', 'prod']);
  });
});

describe('choices that are no closed set (file contents)', () => {
  it('commander `-d, --iteration-data <path>  … data file … (either JSON or CSV)`: formats of a file\'s contents, no values of a path', () => {
    const help =
      'Usage: run <collection> [options]\n\nOptions:\n  -d, --iteration-data <path>   Specify a data file to use for\n                                iterations (either JSON or CSV)\n  -f, --format <fmt>            Output format (either JSON or CSV)\n';
    expect(option(help, 'iteration-data')?.choices).toBeNull();
    expect(option(help, 'format')?.choices).toEqual(['JSON', 'CSV']);
  });
});

describe('choices', () => {
  it('yargs `[choices: "onTag", "always", undefined]`: the bare `undefined` is the JavaScript value, no choice', () => {
    const help =
      'Usage: eb [options]\n\nPublishing:\n  -p, --publish  Publish artifacts\n                [choices: "onTag", "always", "never", undefined]\n\nOther:\n      --help     Show help                                             [boolean]\n';
    expect(option(help, 'publish')?.choices).toEqual(['onTag', 'always', 'never']);
  });
});

describe('names', () => {
  it('0x opens with `0x 6.0.0`: a name opening with digits, then its version, names the program', () => {
    const help = '\n  0x 6.0.0\n\n  0x [flags] -- node [nodeFlags] script.js [scriptFlags]\n\n  --open | -o             Automatically open after finishing\n';
    expect(parseHelp(help).name).toBe('0x');
    expect(parseHelp('\n  2 ways to run it\n\n  --open   Open it\n', { fileName: 'runner' }).name).toBe('runner');
  });

  it('meow `--ignore-[OPTION]  Pass options to …`: a dash-ended prefix glued to a placeholder is a family of options, not one', () => {
    const help =
      '  Usage: crit <input>\n\n  Options:\n    -b, --base              Your base directory\n    -i, --inline            Generate inlined HTML\n    --ignore                Selector to ignore\n    --ignore-[OPTION]       Pass options to postcss-discard.\n    --penthouse-<name>      Pass options to penthouse.\n    --strict                Throw on errors\n    --quiet                 Say less\n';
    const longs = parseHelp(help).options.map((parsed) => parsed.long);
    expect(longs).toEqual(['base', 'inline', 'ignore', 'strict', 'quiet']);
    // with no placeholder left, descriptions tell the value-taking ones
    expect(option(help, 'base')?.takes_value).toBe(true);
  });
});

describe('value-taking', () => {
  it('karma `(eg. --browsers Chrome,Firefox)`: after an example marker, the option\'s own spelling given a word', () => {
    const help = 'Usage: run [options]\n\nOptions:\n  --port <n>     Port to listen on\n  --browsers     Browsers to start (eg. --browsers Chrome,Firefox)\n  --watch        Watch files (e.g. --watch --port 80)\n';
    expect(option(help, 'browsers')?.takes_value).toBe(true);
    expect(option(help, 'watch')?.takes_value).toBe(false);
  });

  it('meow critical: `RFC2617 basic authorization user`, `RegExp, @type or selector to ignore`, `Directories/Urls where …`, `e.g. 1300x900` name a value', () => {
    const help =
      '  Usage: crit <input>\n\n  Options:\n    -i, --inline            Generate inlined HTML\n    -c, --css               Your CSS Files (optional)\n    --dimensions            Pass dimensions e.g. 1300x900\n    --ignore                RegExp, @type or selector to ignore\n    --assetPaths            Directories/Urls where the inliner should start looking for assets\n    --user                  RFC2617 basic authorization user\n    --strict                Throw an error on css parsing errors\n    --extract               Extract inlined styles or selectors to remove\n';
    for (const key of ['css', 'dimensions', 'ignore', 'assetPaths', 'user']) expect(option(help, key)?.takes_value).toBe(true);
    for (const key of ['inline', 'strict', 'extract']) expect(option(help, key)?.takes_value).toBe(false);
  });

  it('yargs karma: where the only placeholders open descriptions, a bare option\'s description is read (`List of reporters (available: …)`)', () => {
    const help =
      'Usage:\n  karma start [configFile]\n\nOptions:\n  --help          Print usage and options.            [boolean]\n  --port          <integer> Port where the server is running.\n  --detached      Detach the server.\n  --colors        Use colors when reporting.\n  --reporters     List of reporters (available: dots, progress,\n                  junit).\n  --browsers      List of browsers to start.\n  --single-run    Run the test and exit.\n';
    expect(option(help, 'reporters')).toMatchObject({ takes_value: true, choices: ['dots', 'progress', 'junit'] });
    expect(option(help, 'browsers')?.takes_value).toBe(true);
    expect(option(help, 'detached')?.takes_value).toBe(false);
    expect(option(help, 'colors')?.takes_value).toBe(false);
  });

  it('yargs karma `--port   <integer> Port where …`: a placeholder opening the description, one space before its sentence', () => {
    const help =
      'Usage:\n  karma start [configFile]\n\nOptions:\n  --port          <integer> Port where the server is running.\n  --log-level     <disable | error | warn | info | debug> Level\n                  of logging.\n  --detached      Detach the server.\n  --format-error  A path to a file.                [string]\n';
    expect(option(help, 'port')).toMatchObject({ takes_value: true, value_name: '<integer>' });
    expect(option(help, 'log-level')).toMatchObject({ takes_value: true, choices: ['disable', 'error', 'warn', 'info', 'debug'] });
    expect(option(help, 'detached')?.takes_value).toBe(false);
  });

  it('meow `Flag examples` lines (`--manifest ./src/manifest.json`) give the option listed bare a value', () => {
    const help =
      '  Usage\n    $ gen [source-file] [output-folder]\n\n  Options\n    -m --manifest     Web app manifest file path to update\n    -x --xhtml        Generate self-closing tags  [default: false]\n\n  Examples\n    $ gen logo.svg -m ./manifest.json\n\n  Flag examples\n    --manifest ./src/manifest.json\n    --xhtml\n';
    expect(option(help, 'manifest')?.takes_value).toBe(true);
    expect(option(help, 'xhtml')?.takes_value).toBe(false);
  });
});

describe('positionals', () => {
  it('cac `$ prog <command> [options]` with no command listed: cac\'s default usage text, no argument', () => {
    const help = 'viz\n\nUsage:\n  $ viz <command> [options]\n\nOptions:\n  -h, --help                Display this message \n  --mode -m <mode>          set env mode \n';
    expect(parseHelp(help).positionals).toEqual([]);
    const listed = 'viz\n\nUsage:\n  $ viz <command> [options]\n\nCommands:\n  build   Build it\n  serve   Serve it\n\nOptions:\n  -h, --help                Display this message \n';
    expect(parseHelp(listed).subcommands.map((command) => command.name)).toEqual(['build', 'serve']);
  });

  it('mri degit: `Usage:`, a blank line, then the form flush left; a spelling that is a sentence\'s subject is no option', () => {
    const help =
      '\ndegit\n\nUsage:\n\ndegit <src>[#ref] [<dest>] [options]\n\nFetches the src repo.\n\nOptions:\n\n--help, -h Show this message\n--force, -f Allow non-empty destination directory\n\n--mode=git is still accepted for compatibility.\n';
    const spec = parseHelp(help);
    expect(spec.positionals.map((positional) => [positional.name, positional.required])).toEqual([['src', true], ['dest', false]]);
    expect(spec.options.map((parsed) => parsed.long)).toEqual(['force']);
  });

  it('oclif `[--proxy enabled|disabled]` in a usage form: the bar-joined words are the option\'s values, no positional', () => {
    const help =
      'Start a mock\n\nUSAGE\n  $ mock start -d <value>... [-h] [--proxy\n    enabled|disabled] [-w]\n\nFLAGS\n  -d, --data=<value>...  Data files\n  -w, --watch            Watch\n  --proxy=<option>       Override proxy\n                         <options: enabled|disabled>\n';
    expect(parseHelp(help).positionals).toEqual([]);
  });
});

describe('defaults', () => {
  it('0x `Default: node [nodeFlags] script.js`: a word a placeholder goes on from starts a command\'s form, no value', () => {
    const help = 'Usage: prof [options]\n\nOptions:\n  --title <t>    Set the title. Default: node [nodeFlags] script.js\n  --name <name>  The name (default: flamegraph)\n';
    expect(option(help, 'title')?.default).toBeNull();
    expect(option(help, 'name')?.default).toBe('flamegraph');
  });

  it('0x: a `Default:` line indented with no-break spaces lays out as one indented with spaces', () => {
    const nbsp = '\u00a0'.repeat(23);
    const help =
      `\n  0x [flags]\n\n  --open | -o             Automatically open after finishing\n\n                          Default: false\n\n  --output-html | -F      Specify destination path.\n\n                          If set to - the HTML goes to STDOUT.\n\n   ${nbsp}Default: 'out.html'\n\n` +
      '  --name                  The name of the file\n\n                          Default: flamegraph\n\n  --quiet                 Be quiet\n\n                          Default: false\n\n  --silent                Be silent\n\n                          Default: false\n';
    expect(option(help, 'output-html')?.default).toBe('out.html');
  });

  it('bunyan `One of` over `long: (the default) pretty`, `json-N: …`: a list left open by a patterned item still names its default', () => {
    const help =
      'Usage:\n  bunyan [OPTIONS] [FILE ...]\n\nOutput options:\n  --color       Colorize output.\n  -o, --output MODE\n                Specify an output mode/format. One of\n                  long: (the default) pretty\n                  json: JSON output, 2-space indent\n                  json-N: JSON output, N-space indent, e.g. "json-4"\n                  short: like "long", but more concise\n';
    expect(option(help, 'output')).toMatchObject({ takes_value: true, choices: null, default: 'long' });
  });
});
