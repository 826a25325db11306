/**
 * Notations met in parser fixes round 15, batch 20 part b (Python helps, issue 12), each pinned on a
 * minimal help: invented defaults and choices first, then value-taking, positionals, names, choices
 * and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('invented defaults', () => {
  it('argparse `Under Windows, this defaults to true.`: a sentence opening with a condition states one case only', () => {
    const help =
      'usage: nodeenv [OPTIONS] DEST_DIR\n\noptions:\n  --with-npm      Build without installing npm. Under Windows, this defaults to true.\n  --max-sz SZ     Largest size. If not specified, defaults to 4096.\n  -a, --average   If True, display the average. Default to False.\n';
    expect(option(help, 'with-npm')?.default).toBeNull();
    expect(option(help, 'max-sz')?.default).toBe(4096);
    expect(option(help, 'average')?.default).toBe(false);
  });
});

describe('invented defaults: list defaults', () => {
  it('click `[default: dev-requirements.txt, requirements-dev.txt]`: a list default names no single default; `(default: 0, disabled)` still does', () => {
    const help =
      'Usage: deptry [OPTIONS] ROOT...\n\nOptions:\n  -rfd, --requirements-files-dev TUPLE\n                        .txt files to scan. Can be multiple  [default: dev-requirements.txt,\n                        requirements-dev.txt]\n  --min-age DAYS        Minimum age (default: 0, disabled)\n';
    expect(option(help, 'requirements-files-dev')?.default).toBeNull();
    expect(option(help, 'min-age')?.default).toBe(0);
  });
});

describe('invented choices', () => {
  it('click subliminal: a prose list beside `If set to an empty string (the default)` would refuse the empty string: none', () => {
    const help = [
      'Usage: sub [OPTIONS] PATH...',
      '',
      'Options:',
      '  -C, --subtitle-categories TEXT  Comma-separated ordered list of subtitle categories to download.',
      '                                  The (exclusive) categories are: hi (hearing',
      '                                  impaired), fo (foreign only) and n (narrative, standard',
      '                                  subtitles). For instance, "hi,n,fo" would sort hearing impaired',
      '                                  subtitles first. If set to an empty string',
      '                                  (the default), no filtering or sorting is carried out.',
      '  --mode TEXT                     The mode, one of: fast, slow, off.',
      '',
    ].join('\n');
    expect(option(help, 'subtitle-categories')?.choices).toBeNull();
    expect(option(help, 'mode')?.choices).toEqual(['fast', 'slow', 'off']);
  });
});

describe('value-taking', () => {
  it('rich-click `append_metavars_help`: `Output directory [TEXT]` closing the description is the placeholder, no default', () => {
    const help = [
      ' Usage: dl [OPTIONS] <name>',
      '',
      ' ═ Options ═══════════════════════════════════════════',
      ' --outdir     -o  Output directory [TEXT]',
      ' --compress   -x  Archive compression type',
      '                  [tar.gz|zip|none]',
      ' --jobs           Parallel tasks. Not available for Docker. [INTEGER]',
      ' --force      -f  Overwrite existing files',
      '',
    ].join('\n');
    expect(option(help, 'outdir')).toMatchObject({ takes_value: true, default: null, choices: null });
    expect(option(help, 'compress')).toMatchObject({ takes_value: true, choices: ['tar.gz', 'zip', 'none'] });
    expect(option(help, 'jobs')).toMatchObject({ takes_value: true, type: 'integer', default: null });
    expect(option(help, 'force')?.takes_value).toBe(false);
    expect(parseHelp(help).options.find((one) => one.long === 'outdir')?.description).toBe('Output directory');
  });

  it('a trailing `[a|b]` alone, with no click type name anywhere in the help, stays prose', () => {
    const help = 'Usage: x [options]\n\nOptions:\n  --color   Colour the output [always|never]\n  --force   Overwrite files\n';
    expect(option(help, 'color')?.takes_value).toBe(false);
  });
});

describe('positionals', () => {
  it('docopt `sumy (luhn | lsa | kl) [--length=<length>]`: a group of bare words after the program is a choice of commands', () => {
    const help =
      'Usage:\n    sumy (luhn | lsa | kl) [--length=<length>]\n    sumy (luhn | lsa | kl) --url=<url>\n    sumy --version\n\nOptions:\n    --length=<length>  Length of summary. [default: 20%]\n    --url=<url>        URL of the page.\n';
    const spec = parseHelp(help);
    expect(spec.positionals).toEqual([]);
    expect(spec.subcommands.map((command) => command.name)).toEqual(['luhn', 'lsa', 'kl']);
  });
});

describe('names', () => {
  it('Python Fire `NAME` / `    autofaiss build_index - …` over `SYNOPSIS`: the path names the program, no positional', () => {
    const help =
      'NAME\n    autofaiss build_index - Reads embeddings.\n\nSYNOPSIS\n    autofaiss build_index EMBEDDINGS <flags>\n\nPOSITIONAL ARGUMENTS\n    EMBEDDINGS\n        Type: Union\n        Local path.\n\nFLAGS\n    --index_path=INDEX_PATH\n        Type: Optional\n        Default: \'knn.index\'\n        Destination path.\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('autofaiss_build_index');
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['EMBEDDINGS']);
    expect(spec.subcommands).toEqual([]);
  });
});

describe('names of options', () => {
  it('GNU `Usage: crudini --set [OPTION]... file` / `or:  crudini --get [OPTION]... file`: each mode option is a switch', () => {
    const help =
      'Usage: crudini --set [OPTION]...   config_file section   [param] [value]\n  or:  crudini --get [OPTION]...   config_file [section] [param]\n\nOptions:\n\n  --format=FMT       For --get, select the output FMT.\n  --verbose          Indicate changes\n';
    expect(option(help, 'set')).toMatchObject({ takes_value: false });
    expect(option(help, 'get')).toMatchObject({ takes_value: false });
  });
});

describe('choices and defaults in hand-written prose', () => {
  it("rotate-backups: ``rm -fR`` (an RST literal) quotes a default; `the values '1', 'yes' and 'on' … the values '0', 'no' and 'off'` all count", () => {
    const help = [
      'Usage: rotate-backups [OPTIONS] [DIRECTORY, ..]',
      '',
      'Supported options:',
      '',
      '  -C, --removal-command=CMD',
      '',
      '    Change the command used to remove backups. The value of CMD defaults to',
      '    ``rm -fR``. This choice was made because it works everywhere.',
      '',
      '  -S, --syslog=CHOICE',
      '',
      "    Explicitly enable or disable system logging. The values '1', 'yes' and 'on' enable system",
      "    logging whereas the values '0', 'no' and 'off' disable it.",
      '',
    ].join('\n');
    expect(option(help, 'removal-command')?.default).toBe('rm -fR');
    expect(option(help, 'syslog')?.choices).toEqual(['1', 'yes', 'on', '0', 'no', 'off']);
  });
});

describe('defaults glossed in words', () => {
  it('argparse nodeenv `The default is last stable version (`latest`).`: the quoted value in the closing parenthesis', () => {
    const help =
      'usage: nodeenv [OPTIONS] DEST_DIR\n\noptions:\n  --npm NPM_VER   The npm version to use. The default is last available version (`latest`).\n  --mirror URL    Mirror to use. The default is the official one (see docs).\n';
    expect(option(help, 'npm')?.default).toBe('latest');
    expect(option(help, 'mirror')?.default).toBeNull();
  });
});

describe('percentages', () => {
  it('docopt `It may be count of sentences or percentage of input text. [default: 20%]`: the percent sign is in the value', () => {
    const help =
      'Usage:\n    sumy [--length=<length>] [--tolerance=<t>]\n\nOptions:\n    --length=<length>  Length of text. It may be count of sentences\n                       or percentage of input text. [default: 20%]\n    --tolerance=<t>    Tolerance threshold (default=0.001%).\n';
    expect(option(help, 'length')?.default).toBe('20%');
    expect(option(help, 'tolerance')?.default).toBeNull();
  });
});

describe('names under a rule', () => {
  it('certbot: a rule of dashes, then the form `  certbot [SUBCOMMAND] [options] [-d DOMAIN] ...`: the form names the program; SUBCOMMAND is no positional', () => {
    const help =
      '\n- - - - - - - - - - - - - - - -\n\n  certbot [SUBCOMMAND] [options] [-d DOMAIN] [-d DOMAIN] ...\n\nCertbot can obtain certificates. The most common SUBCOMMANDS and flags are:\n\nobtain, install, and renew certificates:\n    (default) run   Obtain & install a certificate\n    certonly        Obtain or renew a certificate\n   -d DOMAINS       Comma-separated list of domains\n';
    const spec = parseHelp(help, { fileName: 'x-certbot' });
    expect(spec.name).toBe('certbot');
    expect(spec.positionals).toEqual([]);
  });
});

describe('choices in Python Fire docstrings', () => {
  it('Fire: `npy or parquet ; default npy` opening the docstring, and a reflowed bullet list `: - "ip" for … - "l2" for …`', () => {
    const help = [
      'NAME',
      '    idx build - Builds.',
      '',
      'SYNOPSIS',
      '    idx build <flags>',
      '',
      'FLAGS',
      '    -f, --file_format=FILE_FORMAT',
      '        Type: str',
      "        Default: 'npy'",
      '        npy or parquet ; default npy',
      '    --metric_type=METRIC_TYPE',
      '        Type: str',
      "        Default: 'ip'",
      '        Similarity function used for query: - "ip" for inner product - "l2" for euclidian distance',
      '    --name=NAME',
      '        Type: str',
      "        Default: 'x'",
      '        file or stdin; default x',
      '',
    ].join('\n');
    expect(option(help, 'file_format')).toMatchObject({ choices: ['npy', 'parquet'], default: 'npy' });
    expect(option(help, 'metric_type')).toMatchObject({ choices: ['ip', 'l2'], default: 'ip' });
    expect(option(help, 'name')?.choices).toBeNull();
  });
});

describe('choices (keywords in capitals)', () => {
  it('click `[ALL|hash|metadata]`: a keyword in capitals is a value; `{keep,no,INTEGER}` stays open', () => {
    const help =
      'Usage: sub [OPTIONS] PATH...\n\nOptions:\n  -r, --refiner [ALL|hash|metadata]\n                  Refiner to use.\n  --keep {keep,no,INTEGER}  What to keep\n';
    expect(option(help, 'refiner')?.choices).toEqual(['ALL', 'hash', 'metadata']);
    expect(option(help, 'keep')?.choices).toBeNull();
  });
});

describe('defaults', () => {
  it('Python Fire `Type: bool` / `Default: True` lines: the Python default, typed; a cut `\'hdf...` or `None` states none', () => {
    const help = [
      'NAME',
      '    idx build - Builds.',
      '',
      'SYNOPSIS',
      '    idx build <flags>',
      '',
      'FLAGS',
      '    --save_on_disk=SAVE_ON_DISK',
      '        Type: bool',
      '        Default: True',
      '        Whether to save the index on disk.',
      '    --max_time_ms=MAX_TIME_MS',
      '        Type: float',
      '        Default: 10.0',
      '        Bound on the query time.',
      '    --memory=MEMORY',
      "        Type: str",
      "        Default: '32G'",
      '        Memory available, having more memory is a boost.',
      '    -t, --temporary_folder=TEMPORARY_FOLDER',
      '        Type: str',
      "        Default: 'hdf...",
      '        Folder to save the temporary indices.',
      '    --nb_cores=NB_CORES',
      '        Type: Optional[Optional]',
      '        Default: None',
      '        Number of cores, default 4 when guessed.',
      '',
    ].join('\n');
    expect(option(help, 'save_on_disk')?.default).toBe(true);
    expect(option(help, 'max_time_ms')?.default).toBe(10);
    expect(option(help, 'memory')?.default).toBe('32G');
    expect(option(help, 'temporary_folder')?.default).toBeNull();
    expect(option(help, 'nb_cores')?.default).toBeNull();
  });

  it('click `-z, --archives / -Z, --no-archives  [default: z]`: the short spelling names the side in effect', () => {
    const help =
      'Usage: sub [OPTIONS] PATH...\n\nOptions:\n  -z, --archives / -Z, --no-archives\n                  Scan archives.  [default: z]\n  -c, --color / -C, --no-color\n                  Colour.  [default: C]\n';
    expect(option(help, 'archives')?.default).toBe(true);
    expect(option(help, 'color')?.default).toBe(false);
  });

  it('argopt `[default: 0:int]`: the type after the colon is no part of the value', () => {
    const help =
      'usage: fame [-h] [--min val] [-j n]\n\noptions:\n  -h, --help      show this help message and exit\n  --min val       Minimum value to show [default: 0:int].\n  -j n, --jobs n  Number of threads [default: 0:int]: automatic.\n';
    expect(option(help, 'min')?.default).toBe(0);
    expect(option(help, 'jobs')?.default).toBe(0);
  });
});

describe('choices', () => {
  it('argopt `[default: git]|first|share`: the bracketed default is the first item of the `|` list', () => {
    const help =
      "usage: fame [-h] [--auth strat] [--show info]\n\noptions:\n  -h, --help    show this help message and exit\n  --auth strat  Credit trailers: [default: git]|first|share, i.e.: only use 'git' author, only use 'first' trailer,\n                or 'share' equally.\n  --show info   Author information to show [default: name]|email. Use 'name,email' to show both.\n";
    expect(option(help, 'auth')).toMatchObject({ choices: ['git', 'first', 'share'], default: 'git' });
    // two items joined by a comma in one value: a list of them, no single choice
    expect(option(help, 'show')).toMatchObject({ choices: null, default: 'name' });
  });
});
