/**
 * Notations met in parser fixes round 13 (issue 12, batch 18 JS/TS and Rust/Go texts), each pinned
 * on a minimal help: first what would be invented, then value-taking, positionals, names, choices.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('nothing invented', () => {
  it('clap `(e.g., bigquery, clickhouse, ansi)`: a parenthesis opened by an example cue names examples, no choices', () => {
    const help = 'Options:\n      --dialect <DIALECT>\n          Override the dialect (e.g., bigquery, clickhouse, ansi)\n      --mode <MODE>\n          Run mode (fast, slow, safe)\n';
    expect(option(help, 'dialect')?.choices).toBeNull();
    expect(option(help, 'mode')?.choices).toEqual(['fast', 'slow', 'safe']);
  });

  it('commander `--cache [cache-directory] … The directory defaults to x`: the bare flag\'s value, no default', () => {
    const help =
      'Usage: dc [options]\n\nOptions:\n  -A, --affected [revision]      only include changed modules (when not specified\n                                 revision defaults to \'main\')\n  -C, --cache [cache-directory]  use a cache. The directory defaults to\n                                 node_modules/.cache/dc\n  --key [name]                   the key (defaults to "level")\n';
    expect(option(help, 'affected')?.default).toBeNull();
    expect(option(help, 'cache')?.default).toBeNull();
    expect(option(help, 'key')?.default).toBe('level');
  });
});

describe('value-taking', () => {
  it('gojq `--slurpfile name file set the…`: two placeholder words ending one space short of the description column', () => {
    const help =
      'Usage:\n  jx [OPTIONS]\n\nOptions:\n  -r, --raw-output          output raw strings\n      --arg name value      set a string value to a variable\n      --slurpfile name file set the JSON contents of a file to a variable\n      --tab                 use tabs for indentation\n';
    expect(option(help, 'slurpfile')).toMatchObject({ takes_value: true, value_name: 'name', value_count: 2, description: 'set the JSON contents of a file to a variable' });
    expect(option(help, 'tab')?.takes_value).toBe(false);
  });
});

describe('switches', () => {
  it('yargs untagged `-i, --stdin  Compiles MJML from input stream`: an option named after a standard stream is a switch', () => {
    const help =
      'Options:\n  -r, --read                 Compile File(s)                             [array]\n  -i, --stdin                Compiles MJML from input stream\n  -s, --stdout               Output HTML to stdout\n  -c, --config               Option to pass to the core\n  -V, --version              Show version number                       [boolean]\n      --help                 Show help                                 [boolean]\n';
    expect(option(help, 'stdin')?.takes_value).toBe(false);
    expect(option(help, 'stdout')?.takes_value).toBe(false);
    expect(option(help, 'config')?.takes_value).toBe(true);
  });
});

describe('names', () => {
  it('a help opening with its `Options:` section names no program: the file name does', () => {
    const help = 'Options:\n  -r, --read      Compile files                             [array]\n      --help      Show help                                 [boolean]\n';
    expect(parseHelp(help, { fileName: 'mjml.wasm' }).name).toBe('mjml');
  });
});

describe('positionals', () => {
  it('goose `Usage: g [OPTIONS] DRIVER DBSTRING COMMAND` and a later `Usage: g [OPTIONS] COMMAND`: the command runs without the others', () => {
    const help =
      'Usage: g [OPTIONS] DRIVER DBSTRING COMMAND\n\nor\n\nUsage: g [OPTIONS] COMMAND\n\nOptions:\n  -dir string\n    \tdirectory (default ".")\n\nCommands:\n    up                   Migrate up\n    down                 Roll back\n';
    expect(parseHelp(help).positionals).toEqual([
      { name: 'DRIVER', required: false, variadic: false },
      { name: 'DBSTRING', required: false, variadic: false },
    ]);
  });
});

describe('positionals from prompt forms', () => {
  it('`$ fx [-a|-c] <filename> [-o out.json]` then `$ cat x.xml | fx [-a|-c] [-o out.json]`: the piped form runs without the file', () => {
    const help = 'Fx 4.0.0\n----------------\n$ fx [-a|-c] <filename> [-o outputfile.json]\n$ cat xmlfile.xml | fx [-a|-c] [-o outputfile.json]\n\nOptions\n----------------\n-a: don\'t parse attributes.\n-c: parse values.\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('fx');
    expect(spec.positionals).toEqual([{ name: 'filename', required: false, variadic: false }]);
  });
});

describe('choices', () => {
  it('csvq `Parameters:` titles over ` | ` value lists: each goes to the option the title names (all its words, else its noun and its default)', () => {
    const help = [
      'Usage:',
      '   cq [options] [query]',
      '',
      'Options:',
      '   --encoding value, -e value        file encoding (default: "AUTO")',
      '   --import-format value, -i value   default format to load files (default: "CSV")',
      '   --format value, -f value          format of query results',
      '   --write-encoding value, -E value  character encoding of query results (default: "UTF8")',
      '   --json-escape value, -J value     JSON escape type (default: "BACKSLASH")',
      '',
      'Parameters:',
      '   Import Format',
      '      CSV | TSV | JSON',
      '   Export Format',
      '      CSV | TSV | JSON | TEXT',
      '   Import Character Encodings',
      '      AUTO | UTF8 | SJIS',
      '   Export Character Encodings',
      '      UTF8 | SJIS',
      '   JSON Escape Type',
      '      BACKSLASH | HEX | HEXALL',
      '',
    ].join('\n');
    expect(option(help, 'import-format')?.choices).toEqual(['CSV', 'TSV', 'JSON']);
    expect(option(help, 'format')?.choices).toEqual(['CSV', 'TSV', 'JSON', 'TEXT']);
    expect(option(help, 'encoding')?.choices).toEqual(['AUTO', 'UTF8', 'SJIS']);
    expect(option(help, 'write-encoding')?.choices).toEqual(['UTF8', 'SJIS']);
    expect(option(help, 'json-escape')?.choices).toEqual(['BACKSLASH', 'HEX', 'HEXALL']);
  });
});

describe('options named only in the usage', () => {
  it('minimist `[--entryprefix prefix] [--notitle | --title title] [--all] [--syntax (md|mdx)]`: three or more unlisted long spellings are options', () => {
    const help = 'Usage: dt [--entryprefix prefix] [--notitle | --title title] [--all] [--syntax (md|mdx)] [--help] <path>\n\nAvailable modes are:\n  --github\tgithub.com\n  --gitlab\tgitlab.com\n';
    const spec = parseHelp(help);
    expect(option(help, 'entryprefix')).toMatchObject({ takes_value: true, value_name: 'prefix' });
    expect(option(help, 'notitle')?.takes_value).toBe(false);
    expect(option(help, 'title')?.takes_value).toBe(true);
    expect(option(help, 'all')?.takes_value).toBe(false);
    expect(option(help, 'syntax')).toMatchObject({ takes_value: true, choices: ['md', 'mdx'] });
    expect(spec.options.some((candidate) => candidate.long === 'help')).toBe(false);
  });

  it('one or two unlisted spellings (`[--allow-empty]`, `[--flags]`) add nothing', () => {
    const help = 'usage: gc [--allow-empty] [--quiet] [--flags] [<file>]\n\n    -q, --quiet           suppress summary\n';
    expect(option(help, 'allow-empty')).toBeUndefined();
    expect(option(help, 'flags')).toBeUndefined();
  });
});

describe('usage comments', () => {
  it('`<path> (where path is some path to a directory (e.g., .) or a file)` closing the form: the sentence names no positionals', () => {
    const help = 'Usage: dt [--all] <path> (where path is some path to a directory (e.g., .) or a file (e.g., README.md))\n\nOptions:\n  --all  everything\n';
    expect(parseHelp(help).positionals).toEqual([{ name: 'path', required: true, variadic: false }]);
  });
});

describe('option-set placeholders', () => {
  it('doctoc `[mode]` over `Available modes are:` and a list of flags: the placeholder stands for a flag, no positional', () => {
    const help = 'Usage: dt [mode] [--all] <path>\n\nAvailable modes are:\n  --bitbucket\tbitbucket.org\n  --github\tgithub.com\nDefaults to \'github.com\'.\n';
    expect(parseHelp(help).positionals).toEqual([{ name: 'path', required: true, variadic: false }]);
    expect(parseHelp('Usage: dt [mode] <path>\n\nOptions:\n  --all  everything\n').positionals.map((positional) => positional.name)).toEqual(['mode', 'path']);
  });
});

describe('commander choices with an array default', () => {
  it('`(choices: "a-b", "c-d", "e", default: [])`: the empty array nested in the group leaves the choices, and is no default', () => {
    const help = 'Options:\n  --ignore-rules <rules...>  Specify rules to ignore (choices: "a-b", "c-d", "e", default: [])\n';
    expect(option(help, 'ignore-rules')).toMatchObject({ choices: ['a-b', 'c-d', 'e'], default: null, repeatable: true });
  });
});

describe('glossed items after a colon', () => {
  it('Go flag `set subtest mode: ignore-parent-results (parents pass), exclude-parents (parents are excluded)`: each item\'s gloss left out', () => {
    const help = 'Usage of x:\n  -subtest-mode mode\n    \tset subtest mode: ignore-parent-results (subtest parents always pass), exclude-parents (subtest parents are excluded from the report)\n  -out file\n    \twrite to file: e.g. a.xml (the report), b.xml (another)\n';
    expect(option(help, 'subtest-mode')?.choices).toEqual(['ignore-parent-results', 'exclude-parents']);
    expect(option(help, 'out')?.choices).toBeNull();
  });
});
