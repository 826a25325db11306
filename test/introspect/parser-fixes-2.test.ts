/**
 * Notations first met in the corpus's third part (issue 12, parser fixes round 2), each pinned on a
 * minimal help: yargs group titles without a colon and its untagged options, computed and list
 * defaults, numeric double-dash flags, value lists in GNU epilogs and prose, kong literal defaults,
 * oclif's capital section titles, and value-taking written only in a placeholder-less description.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';

function option(help: string, key: string) {
  return parseHelp(help).options.find((candidate) => candidate.long === key || candidate.short === key);
}

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
