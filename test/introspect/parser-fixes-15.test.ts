/**
 * Notations met in parser fixes round 12 (issue 12, corpus batch 15), each pinned on a minimal help:
 * invented defaults, value-taking, positionals, names, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('invented defaults', () => {
  it('hand-written `--x=[placeholder]:` heads are no Go `--name=DEFAULT:` help (Go prints `=false:` / `="":`)', () => {
    const help =
      'Usage: zp [options]... in out\n\nOptions:\n-m: compress more\n--iterations=[number]: number of iterations\n--filters=[types]: filter strategies\n--keepchunks=nAME,nAME,...: keep metadata chunks\n';
    expect(option(help, 'keepchunks')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'iterations')).toMatchObject({ takes_value: true, default: null });
  });

  it('`-0 ... -9` (numbered flags, an ellipsis between) is a switch: no value, no alias, no default from the level\'s `[Default: 6]`', () => {
    const help = 'Usage:\n  sz [OPTIONS]\n\nOPTIONS\n\n  -zipfile=F      Write to F\n  -0 ... -9       Set compression level\n                  [Default: 6]\n  -zip64          Create a Zip64 file\n';
    expect(option(help, '0')).toMatchObject({ takes_value: false, default: null, aliases: [] });
  });
});

describe('value-taking', () => {
  it('plumbum prints a value as `NAME:type` (`VALUE:str`, `VARIABLE=VALUE:str`, `PATH:ExistingFile`) and a set as `SHELL:{bash, fish}`', () => {
    const help =
      'Usage:\n    cp [SWITCHES] src dst\n\nMeta-switches:\n    --completions SHELL:{bash, fish} Prints shell completion script and quits\n    -h, --help                      Prints this help message and quits\n\nSwitches:\n    -a, --answers-file VALUE:str    Update using this path\n    -d, --data VARIABLE=VALUE:str   Make VARIABLE available\n    --data-file PATH:ExistingFile   Load data from a YAML file\n    -j, --jobs VALUE:int            Run this many jobs\n    -f, --force                     Overwrite\n';
    expect(option(help, 'completions')).toMatchObject({ takes_value: true, choices: ['bash', 'fish'] });
    expect(option(help, 'answers-file')).toMatchObject({ takes_value: true, type: 'string' });
    expect(option(help, 'data')?.takes_value).toBe(true);
    expect(option(help, 'data-file')?.takes_value).toBe(true);
    expect(option(help, 'jobs')).toMatchObject({ takes_value: true, type: 'integer' });
    expect(option(help, 'force')?.takes_value).toBe(false);
  });
});

describe('names', () => {
  it('plumbum `--help-all  Prints help messages of all sub-commands` is a wider help, kept out of the spec', () => {
    const help = 'Usage:\n    cp [SWITCHES] src\n\nMeta-switches:\n    -h, --help                      Prints this help message and quits\n    --help-all                      Prints help messages of all sub-commands and\n                                    quits\n\nSwitches:\n    -f, --force                     Overwrite\n';
    expect(option(help, 'help-all')).toBeUndefined();
    expect(option(help, 'force')).toBeDefined();
  });
});

describe('positionals and program name', () => {
  it('a usage form written as a shell pipeline (`producer | sz [OPTIONS] | consumer`) names the program after the first `|` and no positionals', () => {
    const spec = parseHelp('Usage:\n  producer | sz [OPTIONS] | consumer\n  producer | sz [OPTIONS] -zipfile output.zip\n\nOPTIONS\n\n  -zipfile=F      Write to F\n  -zip64          Create a Zip64 file\n');
    expect(spec.name).toBe('sz');
    expect(spec.positionals).toEqual([]);
  });

  it('a `|` after a positional is still an alternative (`prog [options] FILE | -`), not a pipeline', () => {
    const spec = parseHelp('Usage: prog [options] FILE | DIR\n\nOptions:\n  -v  verbose\n');
    expect(spec.name).toBe('prog');
  });
});

describe('repeated spellings', () => {
  it('waitress `--[no-]ipv4` then an example line `--no-ipv4` under it: the negation again, no option of its own', () => {
    const help = 'Usage:\n\n    ws [OPTS] MODULE\n\nStandard options:\n\n    --[no-]ipv4\n        Toggle on/off IPv4 support.\n\n        Example:\n\n            --no-ipv4\n\n        This will disable IPv4.\n\n    --call\n        Call the object.\n';
    const names = parseHelp(help).options.map((one) => one.long);
    expect(names).toContain('ipv4');
    expect(names).not.toContain('no-ipv4');
  });
});

describe('help variants', () => {
  it('lame `--longhelp  full list of options` is a wider help, kept out of the spec', () => {
    const help = 'usage: lame [options] <infile> [outfile]\n\nOPTIONS:\n    -f              fast mode\n    --longhelp      full list of options\n    --license       print License information\n';
    expect(option(help, 'longhelp')).toBeUndefined();
    expect(option(help, 'license')).toBeDefined();
  });
});

describe('defaults', () => {
  it('argparse `… in CSV output. Default ","` / `Default 10` (a sentence of `Default` and a value) states it; a per-mode `Default 16 (-i: 12).` does not', () => {
    const help =
      'usage: st [-h] [--csv-delimiter CSV_DELIMITER] [--timeout TIMEOUT] [-c cols]\n\noptions:\n  --csv-delimiter CSV_DELIMITER\n                        Single character delimiter to use in CSV output. Default ","\n  --timeout TIMEOUT     HTTP timeout in seconds. Default 10\n  -c cols               octets per line. Default 16 (-i: 12, -ps: 30).\n';
    expect(option(help, 'csv-delimiter')?.default).toBe(',');
    expect(option(help, 'timeout')?.default).toBe(10);
    expect(option(help, 'c')?.default).toBeNull();
  });

  it('click `--dialect [polyglot|clickhouse]  … supported by the default polyglot dialect`: a choice right after `the default` is the default', () => {
    const help =
      'Usage: sqlfmt [OPTIONS] [FILES]...\n\nOptions:\n  -d, --dialect [polyglot|clickhouse]\n                                  The SQL dialect. Nearly all dialects are\n                                  supported by the default polyglot dialect.\n  --mode [fast|slow]              Overrides the default settings.\n';
    expect(option(help, 'dialect')?.default).toBe('polyglot');
    expect(option(help, 'mode')?.default).toBeNull();
  });

  it('lame `default n=4` (the placeholder named before `=`, a sentence of its own) states the default', () => {
    const help = 'usage: lame [options] <infile> [outfile]\n\nOPTIONS:\n    -V n            quality setting for VBR.  default n=4\n                    0=high quality,bigger files. 9.999=smaller files\n    -f              fast mode\n';
    expect(option(help, 'V')).toMatchObject({ takes_value: true, default: 4 });
  });
});

describe('switch states', () => {
  const help =
    'Usage:\n\n    ws [OPTS] MODULE\n\nStandard options:\n\n    --[no-]log-socket-errors\n        Toggle whether errors ought to be\n        logged. On by default.\n\n    --[no-]expose-tracebacks\n        Toggle whether to expose tracebacks. Off by default.\n\n    --[no-]annotate\n        Print annotations.\n        On by default inside CI.\n\n    --use-poll\n        The use_poll argument. Default is False.\n\n    --zip64\n        Create a Zip64 file [Default: No]\n';

  it('waitress `--[no-]x … On by default.` / `Off by default.` (a sentence of its own) is the negatable switch\'s default; a conditional one is none', () => {
    expect(option(help, 'log-socket-errors')).toMatchObject({ takes_value: false, default: true });
    expect(option(help, 'expose-tracebacks')).toMatchObject({ takes_value: false, default: false });
    expect(option(help, 'annotate')?.default).toBeNull();
  });

  it('`Default is False.` (Python\'s spelling) and `[Default: No]` state a switch\'s default', () => {
    expect(option(help, 'use-poll')).toMatchObject({ takes_value: false, default: false });
    expect(option(help, 'zip64')).toMatchObject({ takes_value: false, default: false });
  });
});

describe('choices', () => {
  it('click `extension (supported: ``pyi``)`: a parenthesis titled `supported:` holding only values states them, even one; prose there none', () => {
    const help =
      'Usage: ig [OPTIONS] [PATHS]...\n\nOptions:\n  --ext STR       Include files with the given\n                  extension (supported: ``pyi``). Multiple\n                  ``--ext`` invocations supported.\n  --fmt STR       Output format (supported: see the docs).\n';
    expect(option(help, 'ext')?.choices).toEqual(['pyi']);
    expect(option(help, 'fmt')?.choices).toBeNull();
  });

  it('a definition list under `Valid methods are` (a title ending in `are`, as one ending in `:`) gives the choices', () => {
    const help =
      'Usage:\n  sz [OPTIONS]\n\nOPTIONS\n\n  -method=M       Compress using method M.\n                  Valid methods are\n                    store    Store without compression\n                    deflate  Use Deflate compression\n                    xz       Use LZMA compression\n  -zip64          Create a Zip64 file\n';
    expect(option(help, 'method')?.choices).toEqual(['store', 'deflate', 'xz']);
  });
});

describe('value-taking from the usage form', () => {
  it('getopt `-v show version` (description after one space) under a usage `[-v]` is a flag, not `-v name value`; dropped as the version flag', () => {
    const help = 'Usage: jo [-a] [-d keydelim] [-v] [-x] [word...]\n\t-a creates an array\n\t-d key will be a path\n\t-v show version\n\t-x run fast\n';
    expect(option(help, 'v')).toBeUndefined();
    expect(option(help, 'x')?.takes_value).toBe(false);
    expect(option(help, 'd')?.takes_value).toBe(true);
  });

  it('jq-style `--arg name value` keeps its two values when the usage shows them (`[--arg name value]`)', () => {
    const help = 'Usage: jq [--arg name value] [-v] [filter]\n\n  --arg name value\n        set a variable\n  -v    verbose\n';
    expect(option(help, 'arg')).toMatchObject({ takes_value: true, value_count: 2 });
  });
});
