/**
 * Round 18 (issue 12, batch 19), positionals: each notation pinned on a minimal help written for the
 * test, with a negative twin that differs only in the cue that must stop it.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import type { CliPositional } from '../../src/introspect/spec.ts';

interface Case {
  title: string;
  help: string;
  positionals: CliPositional[];
}

const OPTIONS = '\nOptions:\n  -q, --quiet  Say less\n';

const numbered: Case[] = [
  {
    title: '`[SRC [SRC2 [SRC3]]]`: three optional placeholders of one stem numbered up are one optional list',
    help: `Usage: pushit [OPTIONS] [SRC [SRC2 [SRC3]]]\n${OPTIONS}`,
    positionals: [{ name: 'SRC', required: false, variadic: true }],
  },
  {
    title: '`[ID1 [ID2 [ID3]]]`: the first numbered 1 alike',
    help: `Usage: pushit [OPTIONS] [ID1 [ID2 [ID3]]]\n${OPTIONS}`,
    positionals: [{ name: 'ID', required: false, variadic: true }],
  },
  {
    title: 'twin: two (`[SRC [SRC2]]`) are two slots',
    help: `Usage: pushit [OPTIONS] [SRC [SRC2]]\n${OPTIONS}`,
    positionals: [
      { name: 'SRC', required: false, variadic: false },
      { name: 'SRC2', required: false, variadic: false },
    ],
  },
  {
    title: 'twin: required ones (`SRC SRC2 SRC3`) are fixed slots',
    help: `Usage: pushit [OPTIONS] SRC SRC2 SRC3\n${OPTIONS}`,
    positionals: [
      { name: 'SRC', required: true, variadic: false },
      { name: 'SRC2', required: true, variadic: false },
      { name: 'SRC3', required: true, variadic: false },
    ],
  },
  {
    title: 'twin: numbers that skip (`[SRC [SRC2 [SRC4]]]`) are no count',
    help: `Usage: pushit [OPTIONS] [SRC [SRC2 [SRC4]]]\n${OPTIONS}`,
    positionals: [
      { name: 'SRC', required: false, variadic: false },
      { name: 'SRC2', required: false, variadic: false },
      { name: 'SRC4', required: false, variadic: false },
    ],
  },
];

const titledGroups: Case[] = [
  {
    title: '`[...flags]` over a `   Flags ` title without a colon over option lines: the group of options',
    help: '\n  serve dev [...flags]\n\n   Flags \n      --port  Port to run on\n      --open  Open the browser\n',
    positionals: [],
  },
  {
    title: '`[extras]` over an `Extras` title without a colon over option lines: the group of options',
    help: 'Usage:\n  shipit [options] [extras]\n\nOptions\n  --dry  Dry run  [boolean]\n\nExtras\n  --notify  Who to tell  [array]\n',
    positionals: [],
  },
  {
    title: 'twin: `[extras]` over an `Extras` line over prose is an argument',
    help: 'Usage:\n  shipit [options] [extras]\n\nOptions\n  --dry  Dry run  [boolean]\n\nExtras\n  Names of extra packages to ship.\n',
    positionals: [{ name: 'extras', required: false, variadic: true }],
  },
];

const entryDefaults: Case[] = [
  {
    title: "`$ scanit <dir>` over a `Dir` entry whose description says `Defaults to the current directory`: optional",
    help: '\n  Usage\n    $ scanit <dir> <options>\n\n  Dir\n    Where to scan. Defaults to the current directory.\n\n  Options\n    --deep  Scan deeper.\n',
    positionals: [{ name: 'dir', required: false, variadic: false }],
  },
  {
    title: '`DIR  where to scan (default: .)`: a column entry stating its default, optional',
    help: 'Usage: scanit [options] DIR\n\nArguments:\n  DIR  where to scan (default: .)\n\nOptions:\n  --deep  Scan deeper.\n',
    positionals: [{ name: 'DIR', required: false, variadic: false }],
  },
  {
    title: 'twin: a `Dir` entry stating no default stays required',
    help: '\n  Usage\n    $ scanit <dir> <options>\n\n  Dir\n    Where to scan. Must be the current directory.\n\n  Options\n    --deep  Scan deeper.\n',
    positionals: [{ name: 'dir', required: true, variadic: false }],
  },
  {
    title: "twin: an option's entry under it stating a default is not the argument's",
    help: '\n  Usage\n    $ scanit <dir> <options>\n\n  Dir\n    Where to scan.\n    --depth  Defaults to 3.\n',
    positionals: [{ name: 'dir', required: true, variadic: false }],
  },
];

const OPTS = '\n\nOptions:\n  --out=<fmt>  Output format.\n  --a  All.\n';
const gluedValues: Case[] = [
  {
    title: 'docopt `[--out=<one|two|three>]`: bars inside a value glued by `=` are its values, no argument',
    help: `Usage:\n  rs --a [--out=<one|two|three>]${OPTS}`,
    positionals: [],
  },
  {
    title: 'twin: `<src|dst>` standing alone (no `--out=` before it) is an argument',
    help: `Usage:\n  rs --a [--out=<fmt>] <src|dst>${OPTS}`,
    positionals: [{ name: 'src|dst', required: true, variadic: false }],
  },
];

const meowTitles: Case[] = [
  {
    title: 'meow `  Commands` (indented, no colon) over deeper command entries: `[command]` is the command slot',
    help: '\n  Usage\n    $ emo [option] [command]\n  Options\n    --list, -l   List all\n  Commands\n    list         List all\n    init         Set up a hook\n',
    positionals: [],
  },
  {
    title: 'twin: the same line as the last of a flat list (entries not deeper) titles nothing',
    help: '\n  Usage\n    $ emo [option] [command]\n  Options\n    --list, -l   List all\n    Commands\n    list         List all\n    init         Set up a hook\n',
    positionals: [{ name: 'command', required: false, variadic: false }],
  },
];

describe('round 18 positionals', () => {
  for (const { title, help, positionals } of [...numbered, ...titledGroups, ...entryDefaults, ...gluedValues, ...meowTitles]) {
    it(title, () => {
      expect(parseHelp(help).positionals.map(({ name, required, variadic }) => ({ name, required, variadic }))).toEqual(positionals);
    });
  }
});

describe('round 18 command path before a brace placeholder', () => {
  const OPTIONS_N = '\n\nOptions:\n -n {count}  How many.\n';
  it('Miller `mlr head {flags}`: the lower-case word before a brace placeholder is the command path, no argument', () => {
    const spec = parseHelp(`Usage: mlr head {flags}${OPTIONS_N}`);
    expect(spec.name).toBe('mlr_head');
    expect(spec.positionals).toEqual([]);
  });
  it('twin: before `{1..9}` (no placeholder name in the braces) the word stays an argument', () => {
    const spec = parseHelp(`Usage: mlr head {1..9}${OPTIONS_N}`);
    expect(spec.positionals.map((positional) => positional.name)).toContain('head');
  });
});

describe('round 18 picocli argument files', () => {
  it('picocli `[@<filename>...]` entry under a `[OPTIONS]` synopsis: an optional list of argument files', () => {
    const help = 'Usage: Launch [OPTIONS]\nRuns things.\n      [@<filename>...]   One or more argument files containing options.\n  -h, --help             Show help.\n';
    expect(parseHelp(help).positionals).toEqual([{ name: '@<filename>', required: false, variadic: true }]);
  });
  it('twin: jlink-style `@<filename>` without picocli brackets is an option-file entry, no argument', () => {
    const help = 'Usage: Launch [OPTIONS]\nRuns things.\n      @<filename>        One or more argument files containing options.\n  -h, --help             Show help.\n';
    expect(parseHelp(help).positionals).toEqual([]);
  });
});

describe("round 18 an argument entry whose metavar spells the usage's placeholders", () => {
  const help = (metavar: string): string =>
    ` Usage: burn write [OPTIONS] <offset> <image>...\n\n Write images.\n\n╭─ Arguments ──────────────────────────────────────────╮\n│ *  OFFSET-IMAGE  ${metavar}  [required]              │\n╰──────────────────────────────────────────────────────╯\n╭─ Options ────────────────────────────────────────────╮\n│ --help  Show this message and exit.                  │\n╰──────────────────────────────────────────────────────╯\n`;
  it('rich-click `OFFSET-IMAGE  <offset> <image>...`: the usage form\'s placeholders are the arguments', () => {
    expect(parseHelp(help('<offset> <image>...')).positionals.map(({ name, required, variadic }) => ({ name, required, variadic }))).toEqual([
      { name: 'offset', required: true, variadic: false },
      { name: 'image', required: true, variadic: true },
    ]);
  });
  it('twin: a metavar naming other placeholders leaves the entry standing', () => {
    expect(parseHelp(help('<start> <blob>...   ')).positionals.map(({ name }) => name)).toEqual(['OFFSET-IMAGE']);
  });
});

describe('round 18 a URL scheme glued before a name', () => {
  const OPTS_N = '\nOptions are:\n    -n requests     Number of requests\n';
  it('`[http[s]://]host[:port]/path`: the optional scheme is a prefix of the one argument', () => {
    expect(parseHelp(`Usage: bench [options] [http[s]://]host[:port]/path\n${OPTS_N}`).positionals).toEqual([{ name: 'host/path', required: true, variadic: false }]);
  });
  it('twin: `[http[s]:]host/path` (no `//`: no scheme) is not read as a prefix by this rule', () => {
    expect(parseHelp(`Usage: bench [options] [http[s]:]host/path\n${OPTS_N}`).positionals.length).toBeGreaterThan(1);
  });
});

describe('round 18 forms of one query written in both spellings', () => {
  const help = (form: string): string => `Usage: zap [OPTION]... [--] NAME...\n       zap ${form}\n       zap -V, --version\n\n  -l,--list   list signals\n  -q,--quiet  say less\n`;
  it('killall `zap -l, --list` / `zap -V, --version`: listing and version queries run nothing, NAME stays required', () => {
    expect(parseHelp(help('-l, --list')).positionals).toEqual([{ name: 'NAME', required: true, variadic: true }]);
  });
  it('twin: `zap -q, --quiet` runs without NAME, so it is optional', () => {
    expect(parseHelp(help('-q, --quiet')).positionals).toEqual([{ name: 'NAME', required: false, variadic: true }]);
  });
});

describe('round 18 Pod argument entries', () => {
  const pod = (head: string, prose: string): string =>
    `Usage:\n      # run the app in app.conf\n      runit\n\n      # pick the file\n      runit my.conf\n\nArguments:\n    ${head}\n          runit --port 9090 /path/to/my.conf\n\n        The first non-option argument is used as a ".conf" file path.\n        ${prose}\n\nOptions:\n    -p, --port\n        Port to listen on.\n`;
  const read = (help: string): { name: string; required: boolean }[] => parseHelp(help).positionals.map(({ name, required }) => ({ name, required }));
  it('`.conf` (a file named by its extension) under `Arguments:`, `If omitted, …` in a later paragraph: an optional argument', () => {
    expect(read(pod('.conf', 'If omitted, the default file path is "app.conf".'))).toEqual([{ name: '.conf', required: false }]);
  });
  it('twin: the same entry without `If omitted` stays required', () => {
    expect(read(pod('.conf', 'It is read before the options.'))).toEqual([{ name: '.conf', required: true }]);
  });
  it('twin: a dot then a digit (`.9`) names no argument', () => {
    expect(read(pod('.9', 'If omitted, the default file path is "app.conf".'))).toEqual([]);
  });
});
