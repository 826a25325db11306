/**
 * Round 17 (issue 12, batches 13 and 21): positionals' required and variadic read from the prose and
 * the other usage forms, and their names, each pinned on a help written for the test beside a negative
 * twin that differs only in the cue.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';

type Shown = { name: string; required: boolean; variadic: boolean };

function positionals(help: string): Shown[] {
  return parseHelp(help).positionals.map(({ name, required, variadic }) => ({ name, required, variadic }));
}

const OPTIONS = '\nOptions:\n  -k, --keep  Keep the input\n';

/** [what, help with the cue, twin without it, positional name, required with the cue, required in the twin]. */
const requiredTwins: [string, string, string, string, boolean, boolean][] = [
  [
    '`If no filenames or "-" is specified`: a conjunction after the noun is no word of it, and a file\'s name stands for the file',
    `Usage: squeeze [options] <file...>\n${OPTIONS}\nIf no filenames or "-" is specified, stdin/out will be used.\n`,
    `Usage: squeeze [options] <file...>\n${OPTIONS}\nIf filenames or "-" are specified, they will be used.\n`,
    'file', false, true,
  ],
  [
    '`By default, the source is the current directory`: prose giving the argument a value when left out',
    `Format files\n\nBy default, the source is the current directory.\n\nUsage:\n  fmtr format <source> [flags]\n\nFlags:\n  -w, --write  Rewrite in place\n`,
    `Format files\n\nBy design, the source is the current directory.\n\nUsage:\n  fmtr format <source> [flags]\n\nFlags:\n  -w, --write  Rewrite in place\n`,
    'source', false, true,
  ],
  [
    '`The target defaults to …`: prose giving the argument a value when left out',
    `Usage: deployer [options] <target>\n\nThe target defaults to the staging host.\n${OPTIONS}`,
    `Usage: deployer [options] <target>\n\nThe target refers to the staging host.\n${OPTIONS}`,
    'target', false, true,
  ],
  [
    'a docopt form of `--list-*` queries only prints a listing, like `--help`: the first form\'s argument stays required',
    'Usage:\n    speller [options] <number>\n    speller --list-languages\n    speller --help\n\nOptions:\n    -L --list-languages  Show all languages.\n    -k --keep            Keep it.\n',
    'Usage:\n    speller [options] <number>\n    speller --lower-languages\n    speller --help\n\nOptions:\n    -L --lower-languages  Lower all languages.\n    -k --keep             Keep it.\n',
    'number', true, false,
  ],
];

describe('required read from the prose and the other forms', () => {
  for (const [what, help, twin, name, withCue, withoutCue] of requiredTwins) {
    it(what, () => {
      expect(positionals(help).find((positional) => positional.name === name)?.required).toBe(withCue);
      expect(positionals(twin).find((positional) => positional.name === name)?.required).toBe(withoutCue);
    });
  }
});

describe('names', () => {
  it('`[path1] [path2] [pathn]`: a numbered series closed by `n` is one repeated argument named by its stem; `[path1] [path2]` stays two', () => {
    expect(positionals(`Usage: watcher [options] [path1] [path2] [pathn]\n${OPTIONS}`)).toEqual([{ name: 'path', required: false, variadic: true }]);
    expect(positionals(`Usage: watcher [options] [path1] [path2]\n${OPTIONS}`).map((positional) => positional.name)).toEqual(['path1', 'path2']);
  });
  it('`[optional display function]`: a bracketed name opening with `optional` is named by the rest; `[display function]` keeps its name', () => {
    expect(positionals(`Usage\n    picker [flags] [selectors] [optional display function]\n${OPTIONS}`).map((positional) => positional.name)).toContain('display function');
    expect(positionals(`Usage\n    picker [flags] [selectors] [chosen display function]\n${OPTIONS}`).map((positional) => positional.name)).toContain('chosen display function');
  });
});

describe('alternatives', () => {
  it('clap `{INPUT...|--file <FILE>}`: a brace group of a placeholder or an option is an optional repeated argument (the option may fill the slot); `{INPUT...}` alone is a word', () => {
    const help = (form: string): string => `Usage: regexer [OPTIONS] ${form}\n\nOptions:\n  -f, --file <FILE>  Read cases from a file\n  -d, --digits       Use digits\n`;
    expect(positionals(help('{INPUT...|--file <FILE>}'))).toEqual([{ name: 'INPUT', required: false, variadic: true }]);
    expect(positionals(help('{INPUT...|FILE}'))).not.toEqual([{ name: 'INPUT', required: false, variadic: true }]);
  });
  it('`(-l <list> | FILE)`: a placeholder an option is the alternative of is optional; `(FILE | DIR)` stays required', () => {
    expect(positionals('Usage: unpacker (-l <list> | FILE)\n\nOptions:\n  -l <list>  Read names from a list\n')).toEqual([{ name: 'FILE', required: false, variadic: false }]);
    expect(positionals('Usage: unpacker (FILE | DIR)\n\nOptions:\n  -l <list>  Read names from a list\n')).toEqual([{ name: 'FILE|DIR', required: true, variadic: false }]);
  });
});

describe('required across usage forms', () => {
  const OPTS = '\nOPTIONS:\n  -c                  Prints to stdout\n  -w, --width LENGTH  Width\n';
  const required = (help: string): Record<string, boolean> => Object.fromEntries(positionals(help).map((positional) => [positional.name, positional.required]));
  it('a lone `-` in a form fills the first argument\'s slot (stdin): `render - -c` does not run without it; `render -c` does', () => {
    const forms = (last: string): string => `USAGE:\n  render [OPTIONS] <in-svg> <out-png>\n  render [OPTIONS] - <out-png>\n  ${last}\n${OPTS}`;
    expect(required(forms('render [OPTIONS] - -c'))['in-svg']).toBe(true);
    expect(required(forms('render [OPTIONS] -c'))['in-svg']).toBe(false);
  });
  it('a form writing the first arguments then an option instead of the rest (`<in-svg> -c`) leaves the rest out; `<out-png> -c` (no prefix of them) does not', () => {
    expect(required(`USAGE:\n  render [OPTIONS] <in-svg> <out-png>\n  render [OPTIONS] <in-svg> -c\n${OPTS}`)).toEqual({ 'in-svg': true, 'out-png': false });
    expect(required(`USAGE:\n  render [OPTIONS] <in-svg> <out-png>\n  render [OPTIONS] <out-png> -c\n${OPTS}`)).toEqual({ 'in-svg': true, 'out-png': true });
  });
});

describe('forms without a usage title', () => {
  const OPTS = '\nOptions:\n  -h, --help                  Show help.\n  -c, --config path::String   Use this config.\n';
  it('optionator `linter [options] file.md [file|dir|glob*]` opening the help: the options group after the program, then argument words; a line with prose is none', () => {
    expect(positionals(`linter [options] file.md [file|dir|glob*]\n${OPTS}`)).toEqual([
      { name: 'file.md', required: true, variadic: false },
      { name: 'file|dir|glob', required: false, variadic: true },
    ]);
    expect(positionals(`linter [options] is the file.md [file|dir|glob*]\n${OPTS}`)).toEqual([]);
  });
  it('`$ lister [OPTION]... [FILES]...` under a headline: an ellipsis glued to a group repeats it; a bare word closing the line makes it no form', () => {
    const help = (form: string): string => `lister version 4.4 by Someone.\n${form}\n-c <alg>  - Compute hashes\n-r        - recursive mode\n`;
    expect(positionals(help('$ lister [OPTION]... [FILES]...'))).toEqual([{ name: 'FILES', required: false, variadic: true }]);
    expect(positionals(help('$ lister [OPTION]... [FILES]... then'))).toEqual([]);
  });
});

describe('arguments of other forms', () => {
  const help = (spelling: string): string =>
    `Usage:\n  notes <sheet>\n  notes -e <sheet>\n  notes -s <keyword>\n  notes -l\n\nOptions:\n  -e --edit     Edit a sheet\n  ${spelling}  Search sheets for <keyword>\n  -l --list     List sheets\n`;
  it('docopt `notes -s <keyword>` with `-s --search` listed as a flag: the placeholder is an argument of that mode, optional; after `-s --search=<keyword>` it is the option\'s value', () => {
    expect(positionals(help('-s --search  '))).toEqual([
      { name: 'sheet', required: false, variadic: false },
      { name: 'keyword', required: false, variadic: false },
    ]);
    expect(positionals(help('-s --search=<keyword>')).map((positional) => positional.name)).toEqual(['sheet']);
  });
});

describe('a name written twice', () => {
  it('socat `<address> <address>`: written twice in a row, required, with no ellipsis, it is two arguments; `<address> [<address>]` is one repeated', () => {
    const help = (form: string): string => `Usage:\nrelay [options] ${form}\n   options:\n      -v     verbose\n`;
    expect(positionals(help('<address> <address>'))).toEqual([
      { name: 'address', required: true, variadic: false },
      { name: 'address', required: true, variadic: false },
    ]);
    expect(positionals(help('<address> [<address>]'))).toEqual([{ name: 'address', required: true, variadic: true }]);
  });
  it('two arguments of one name get two schema properties', () => {
    const spec = parseHelp('Usage: relay [options] <address> <address>\n\nOptions:\n  -v     verbose\n');
    expect(Object.keys(cliSpecToZod(spec).shape)).toEqual(expect.arrayContaining(['address', 'address_2']));
  });
});

describe('cyclopts parameters given by position or by name', () => {
  const help = (head: string): string =>
    `Usage: serve run [OPTIONS] [ARGS...]\n\nRun a server.\n\n╭─ Arguments ──────────────────────────────────────╮\n│ SERVER_ARGS                                      │\n╰──────────────────────────────────────────────────╯\n╭─ Parameters ─────────────────────────────────────╮\n│ ${head}  Python file or URL              │\n│ --port -p INT              Port to bind (default: 8000) │\n╰──────────────────────────────────────────────────╯\n`;
  it('`SERVER-SPEC --server-spec` (a capitals name, then the long spelling of the same words) is an optional argument before the repeated one; `SPEC --server-spec` is not', () => {
    expect(positionals(help('SERVER-SPEC --server-spec'))).toEqual([
      { name: 'SERVER-SPEC', required: false, variadic: false },
      { name: 'SERVER_ARGS', required: false, variadic: true },
    ]);
    expect(positionals(help('SPEC --server-spec       '))).toEqual([{ name: 'SERVER_ARGS', required: false, variadic: true }]);
  });
});
