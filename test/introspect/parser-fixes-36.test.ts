/**
 * Default notations met in parser fixes round 18 (issue 12, batch 19: defaults), each pinned on a
 * minimal help written for the test, with a negative twin that differs only in the cue that must
 * stop (or start) the reading.
 */
import { describe, expect, it } from 'vitest';
import { option } from './parsed-option.ts';

const lines = (entry: string): string => `Options:\n${entry}\n  -v, --verbose        Talk more\n`;

describe('words saying the program finds the value itself are no default', () => {
  const cases: [string, string | null][] = [
    ['  --conf <conf>        Path to the settings file (default: auto-discovery)', null],
    ['  --conf <conf>        Path to the settings file (default: autodiscovery)', null],
    ['  --conf <conf>        Path to the settings file (default: discovery)', 'discovery'],
    ['  --cmd CMD            The command run on reload (default: inferred)', null],
    ['  --cmd CMD            The command run on reload (default: infer)', 'infer'],
    ['  --cmd CMD            The command run on reload (default: guessed)', null],
  ];
  it.each(cases)('%s', (entry, expected) => {
    const help = lines(entry);
    const key = /--(\w+)/.exec(entry)?.[1] ?? '';
    expect(option(help, key)?.takes_value).toBe(true);
    expect(option(help, key)?.default ?? null).toBe(expected);
  });
});

describe("Perl's `undef` is no default, yet the option takes a value", () => {
  const cases: [string, string | null][] = [
    ['    -b, --bind\n        Binds to a local address. Defaults to undef. Only some servers bind.\n', null],
    ['    -b, --bind\n        Binds to a local address. Defaults to under. Only some servers bind.\n', 'under'],
  ];
  it.each(cases)('%s', (entry, expected) => {
    // a help showing no placeholder at all, where a stated default says a value is taken
    const help = `OPTIONS\n    -p, --port\n        Binds to a TCP port. Defaults to 5000.\n\n${entry}\n    -q, --quiet\n        Talks less.\n\n    -D, --daemonize\n        Runs in the background.\n\n    -r, --reload\n        Reloads on change.\n`;
    expect(option(help, 'bind')?.takes_value).toBe(true);
    expect(option(help, 'bind')?.default ?? null).toBe(expected);
  });
});

describe('a placeholder in angle brackets inside a path makes the default a template', () => {
  const cases: [string, string | null][] = [
    ['  -m, --mods=DIR       load modules under DIR\n                       [default=/opt/mods/<arch>]', null],
    ['  -m, --mods=DIR       load modules under DIR\n                       [default=/opt/mods/arch]', '/opt/mods/arch'],
    // a regular expression's named group is no placeholder
    ['  -m, --mods RE        match module names (default: (?P<major>\\d+)\\.(?P<minor>\\d+))', '(?P<major>\\d+)\\.(?P<minor>\\d+)'],
  ];
  it.each(cases)('%s', (entry, expected) => {
    expect(option(lines(entry), 'mods')?.default ?? null).toBe(expected);
  });
});

describe('a sentence opening on a case (`For X, the default is …`) states no default', () => {
  const cases: [string, string | number | null][] = [
    ['  --peer-host VALUE:str   The peer to reach. For UDP, the default is 10.0.0.255; for TCP, a value is required', null],
    ['  --peer-host VALUE:str   The peer to reach. In short, the default is 10.0.0.255; a value may be given', '10.0.0.255'],
    ['  --peer-host VALUE:str   The peer to reach. The default is 10.0.0.255; for TCP, a value is required', '10.0.0.255'],
  ];
  it.each(cases)('%s', (entry, expected) => {
    expect(option(lines(entry), 'peer-host')?.default ?? null).toBe(expected);
  });
});

describe('a number with a unit the value name spells is the number', () => {
  const cases: [string, number | string | null][] = [
    ['  -w, --wait=MSEC      pause between two probes (default: 25 ms)', 25],
    ['  -w, --wait=COUNT     pause between two probes (default: 25 ms)', null],
    // a case after the unit: the value holds only sometimes
    ['  -w, --wait=MSEC      pause between two probes (default: 25 ms, except with -q, where it is 90 ms)', null],
  ];
  it.each(cases)('%s', (entry, expected) => {
    expect(option(lines(entry), 'wait')?.default ?? null).toBe(expected);
  });
});

describe('`default (N)`: a number or quoted value in a parenthesis right after the cue', () => {
  const cases: [string, number | string | null][] = [
    ['  --jobs JOBS          How many workers to start. The default (0) picks one per core.', 0],
    ['  --jobs JOBS          How many workers to start. By default (4) some run at once.', 4],
    ['  --jobs JOBS          How many workers to start. The default (fast) picks one per core.', null],
    ['  --jobs JOBS          How many workers to start. The default count picks one per core.', null],
  ];
  it.each(cases)('%s', (entry, expected) => {
    expect(option(lines(entry), 'jobs')?.default ?? null).toBe(expected);
  });
});

describe("a quoted value opening a clause before `by default` (`…, 'out' by default`)", () => {
  const cases: [string, string | null][] = [
    ["  --dest string        Folder to write to, 'out' by default", 'out'],
    ["  --dest string        Folder to write to 'out' by default", null],
  ];
  it.each(cases)('%s', (entry, expected) => {
    expect(option(lines(entry), 'dest')?.default ?? null).toBe(expected);
  });
});

describe("click's own string for a default in a parenthesis: a path there is the value", () => {
  const cases: [string, string | null][] = [
    ['  --cache-dir PATH  Where to cache.  [default: (~/.cache/tool)]', '~/.cache/tool'],
    ['  --cache-dir PATH  Where to cache.  [default: (dynamic)]', null],
    ['  --cache-dir PATH  Where to cache.  [default: (home cache)]', null],
  ];
  it.each(cases)('%s', (entry, expected) => {
    const help = `Usage: tool [OPTIONS]\n\nOptions:\n${entry}\n  --help            Show this message and exit.\n`;
    expect(option(help, 'cache-dir')?.default ?? null).toBe(expected);
  });
});

describe('a name in a namespace (`Plack::Loader`) marked as the default is one value', () => {
  const cases: [string, string | null][] = [
    ['  --runner NAME  The class that runs jobs: Job::Runner (default).', 'Job::Runner'],
    ['  --runner NAME  The class that runs jobs: Job:::Runner (default).', null],
  ];
  it.each(cases)('%s', (entry, expected) => {
    expect(option(lines(entry), 'runner')?.default ?? null).toBe(expected);
  });
});

describe('a quoted word naming a kind of value in the head is the placeholder (outside kingpin)', () => {
  const getopt = (value: string): string => `Usage: probe [options] URL\nOptions:\n  -t, --tag="${value}"       Tag the log with a string.\n  -v, --verbose          Be loud.\n`;
  const kingpin = (value: string): string => `usage: probe [<flags>]\n\nFlags:\n  --help              Show context-sensitive help (also try --help-long and --help-man).\n  --tag="${value}"        Tag the log with a string.\n`;
  const cases: [string, string, string | null][] = [
    ['getopt', 'text', null],
    ['getopt', 'label', 'label'],
    ['kingpin', 'text', 'text'],
  ];
  it.each(cases)('%s --tag="%s"', (layout, value, expected) => {
    const help = layout === 'getopt' ? getopt(value) : kingpin(value);
    expect(option(help, 'tag')?.takes_value).toBe(true);
    expect(option(help, 'tag')?.default ?? null).toBe(expected);
  });
});

describe('`disabled` as the default of a value the help lists no choices for is a feature left off', () => {
  const cases: [string, string | null][] = [
    ['  --debug-addr=ADDR    Address for the debug server (default: disabled)', null],
    ['  --debug-addr=ADDR    Address for the debug server (default: localhost)', 'localhost'],
    // one of the listed choices is a value
    ['  --debug-mode=MODE    Debug mode: full, brief or disabled (default: disabled)', 'disabled'],
  ];
  it.each(cases)('%s', (entry, expected) => {
    const key = /--([\w-]+)/.exec(entry)?.[1] ?? '';
    expect(option(lines(entry), key)?.default ?? null).toBe(expected);
  });
});

describe('the value left out is the condition a default holds under, no case of its own', () => {
  const cases: [string, string | number | null][] = [
    ["  --cache DIR          Cache folder. If not given, the default is '.cache'.", '.cache'],
    ['  --cache DIR          Cache folder. If DIR is omitted, defaults to ./.cache.', './.cache'],
    ["  --cache DIR          Cache folder. If run in CI, the default is '.cache'.", null],
    // prose after the cue stays prose
    ['  --cache DIR          Cache folder. If not given, defaults to looking in the home folder.', null],
    // an optional value left out is what the bare flag means
    ['  --cache [DIR]        Cache folder (when not specified DIR defaults to \'./.cache\')', null],
  ];
  it.each(cases)('%s', (entry, expected) => {
    expect(option(lines(entry), 'cache')?.default ?? null).toBe(expected);
  });
});

describe('`the number of <unit>` counts a default written with that unit', () => {
  const cases: [string, number | string | null][] = [
    ['  --keep-days INTEGER  The number of days to keep logs. By default this value is 30 days.', 30],
    ['  --keep-days INTEGER  The count of logs to keep around. By default this value is 30 days.', null],
  ];
  it.each(cases)('%s', (entry, expected) => {
    expect(option(lines(entry), 'keep-days')?.default ?? null).toBe(expected);
  });
});
