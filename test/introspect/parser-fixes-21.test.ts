/**
 * Notations met in parser fixes round 13 (issue 12) on batch 18's C/Ruby/Python texts, each pinned
 * on a minimal help: spellings, positionals, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('spellings', () => {
  it('hand-written `--input-file|-i <filename>`: a bar glued between the long and the short spelling joins them', () => {
    const help = 'usage: prog <filename> [options...]\n\n--input-file|-i <filename>   specify a file to read\n\n--escape                     allow escapes\n';
    expect(option(help, 'input-file')).toMatchObject({ short: 'i', takes_value: true });
    expect(option(help, 'escape')?.takes_value).toBe(false);
  });

  it("cog `--markers='START END END-OUTPUT'`: a single-quoted placeholder after `=` is one token, and a quoted default may close the sentence", () => {
    const help =
      "OPTIONS:\n    -c          Checksum the output.\n    --markers='START END END-OUTPUT'\n                The patterns. Defaults to '[[[cog ]]] [[[end]]]'.\n    --check-fail-msg='MSG'\n                If --check fails, include MSG.\n";
    expect(option(help, 'markers')).toMatchObject({ takes_value: true, default: '[[[cog ]]] [[[end]]]' });
    expect(option(help, 'markers')?.description).toBe("The patterns. Defaults to '[[[cog ]]] [[[end]]]'.");
    expect(option(help, 'check-fail-msg')).toMatchObject({ takes_value: true, default: null });
  });
});

describe('spellings of getopt tables', () => {
  it('jpeginfo `-f<filename>,  --file<filename>`: a comma after a glued placeholder says the long spelling after the gap is the same option', () => {
    const help =
      'Usage: prog [options] <filenames>\n\n  -d, --delete    Delete files that have errors\n  -f<filename>,  --file<filename>\n                  Read the filenames to process from given file\n  -h, --help      Display this help and exit\n';
    expect(option(help, 'file')).toMatchObject({ short: 'f', takes_value: true, description: 'Read the filenames to process from given file' });
  });

  it('jpeginfo `-, --stdin`: the bare `-` (standard input) before a long spelling opens an option line of that long spelling', () => {
    const help = 'Usage: prog [options] <filenames>\n\n  -d, --delete    Delete files that have errors\n\n   -, --stdin     Read input from standard input (instead of a file)\n';
    expect(option(help, 'stdin')).toMatchObject({ short: null, takes_value: false });
  });
});

describe('value-taking', () => {
  it('cog `-D name=val Define…`: a `key=value` word set off by single spaces, ending one short of the column, is the value name', () => {
    const help =
      'OPTIONS:\n    -c          Checksum the output.\n    -D name=val Define a global string.\n    -I PATH     Add PATH to the list.\n    -x          Excise all output.\n';
    expect(option(help, 'D')).toMatchObject({ takes_value: true, description: 'Define a global string.' });
    expect(option(help, 'x')?.takes_value).toBe(false);
  });
});

describe('choices', () => {
  it('lizard `-l LANGUAGES … The available languages are: cpp, java, GDScript, go`: the value name in the plural over a comma list in any case', () => {
    const help =
      'options:\n  -l LANGUAGES, --languages LANGUAGES\n                        List the languages you want to analyze. The available languages are: cpp, java,\n                        GDScript, go\n  --factory=FACTORY     Full path to the factory class. You can use the following shortcuts to the\n                        built-in factory classes: pil, png or svg.\n';
    expect(option(help, 'languages')?.choices).toEqual(['cpp', 'java', 'GDScript', 'go']);
    expect(option(help, 'factory')?.choices).toBeNull();
  });

  it('rougify `options are: …, null/raw/tokens, or tex.`: three or more slash-joined words are as many values; two (`text/html`) are no aliases', () => {
    const help =
      '--formatter-preset|-f <opts> specify the output formatter to use.\n                             options are: terminal256, html,\n                             null/raw/tokens, or tex.\n--mime <type>                The type. Valid values are: text/html, text/plain.\n';
    expect(option(help, 'formatter-preset')?.choices).toEqual(['terminal256', 'html', 'null', 'raw', 'tokens', 'tex']);
    expect(option(help, 'mime')?.choices ?? []).not.toContain('text');
  });
});

describe('choices in capitals', () => {
  it('radon `The ordering function. Can be SCORE, LINES or ALPHA.`: a subjectless `Can be` sentence of upper-case constants; `Can be FILE or URL.` names kinds', () => {
    const help =
      'options:\n  -o <str>, --order <str>\n                        The ordering function. Can be SCORE, LINES or ALPHA.\n  -i <str>, --input <str>\n                        The input. Can be FILE or URL.\n';
    expect(option(help, 'order')?.choices).toEqual(['SCORE', 'LINES', 'ALPHA']);
    expect(option(help, 'input')?.choices).toBeNull();
  });
});

describe('defaults', () => {
  it('radon `(default to A)`, `Default to False.`, rougify `will default to x.`: `default to` opening a sentence or parenthesis, or after `will`', () => {
    const help =
      'options:\n  -n <str>, --min <str>\n                        The minimum rank (default to A).\n  -s, --show            Show the score. Default to False.\n  -f <opts>             The formatter. If not provided, prog will default to terminal256. Options are many.\n';
    expect(option(help, 'min')?.default).toBe('A');
    expect(option(help, 'show')?.default).toBe(false);
    expect(option(help, 'f')?.default).toBe('terminal256');
  });

  it('`default to` a list of quoted values, or `will default to be`, states no default', () => {
    const help =
      'Options:\n  -i, --include TEXT  Files matching this glob. Default to \'*.yaml\' and \'*.yml\'.\n  --types             Whether to generate types, then it will default to be `true`\n';
    expect(option(help, 'include')?.default).toBeNull();
    expect(option(help, 'types')?.default).toBeNull();
  });

  it('cog `Control the output. 2 (the default) lists all files, 1 lists only changed files`: a value opening the sentence marked `(the default)`', () => {
    const help = 'OPTIONS:\n    --verbosity=VERBOSITY\n                Control the amount of output. 2 (the default) lists all files,\n                1 lists only changed files, 0 lists no files.\n';
    expect(option(help, 'verbosity')?.default).toBe(2);
  });

  it("lizard `It's './whitelizard.txt' by default.`: `it's` stands for `it is`", () => {
    const help = "options:\n  -W WHITELIST, --whitelist WHITELIST\n                        The path to the whitelist file. It's './whitelizard.txt' by\n                        default. Find more in README.\n";
    expect(option(help, 'whitelist')?.default).toBe('./whitelizard.txt');
  });
});

describe('positionals', () => {
  it('cmark `[FILE*]`: a Kleene star closing a usage name repeats it', () => {
    const spec = parseHelp('Usage:   cmark [FILE*]\nOptions:\n  --width WIDTH    Specify wrap width\n  --smart          Use smart punctuation\n');
    expect(spec.positionals).toMatchObject([{ name: 'FILE', required: false, variadic: true }]);
  });

  it('rougify `prog sub <filename> [options...]` over `prog sub [options...]`: a later form with only the options placeholder runs without the positional', () => {
    const spec = parseHelp('usage: rougify highlight <filename> [options...]\n       rougify highlight [options...]\n\n--escape                     allow escapes\n');
    expect(spec.positionals).toMatchObject([{ name: 'filename', required: false, variadic: false }]);
  });

  it('cog `cog - what it does`, a blank line, then a bare `cog [OPTIONS] [INFILE | @FILELIST] ...`: under a one-line title naming the program, the form is the usage', () => {
    const spec = parseHelp('cog - generate content.\n\ncog [OPTIONS] [INFILE | @FILELIST] ...\n\nINFILE is the name of an input file.\n\nOPTIONS:\n    -c          Checksum the output.\n');
    expect(spec.positionals).toMatchObject([{ name: 'INFILE|@FILELIST', required: false, variadic: true }]);
    expect(parseHelp('tool - a tool.\n\nother [FILE]\n\nOPTIONS:\n    -c          Checksum.\n').positionals).toEqual([]);
  });

  it('lizard `usage: lizard [options] [PATH or FILE] [PATH] ...` over `positional arguments: paths`: one section entry the usage names otherwise, all optional and repeated', () => {
    const help = 'usage: lizard [options] [PATH or FILE] [PATH] ...\n\npositional arguments:\n  paths                 list of the filename/paths.\n\noptions:\n  -h, --help            show this help message and exit\n';
    expect(parseHelp(help).positionals).toMatchObject([{ name: 'paths', required: false, variadic: true }]);
  });
});
