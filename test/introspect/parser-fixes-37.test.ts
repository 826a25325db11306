/**
 * Notations met in parser fixes round 18 (issue 12, batch 19, kind: options — found, invented,
 * value-taking, names), each pinned on a minimal help written for the test, with a negative twin
 * that differs only in the cue that must stop the fix.
 */
import { describe, expect, it } from 'vitest';
import { option } from './parsed-option.ts';

describe('generic placeholder words', () => {
  const cases: { notation: string; help: string; key: string; takes_value: boolean; short: string | null }[] = [
    {
      notation: 'pborman/getopt `-m, --memo=value` alone on its line: `value` is the placeholder',
      help: 'Usage: notes [-m value]\n -m, --memo=value\n                    Text of the memo.\n -q, --quiet        Say less.\n',
      key: 'memo',
      takes_value: true,
      short: 'm',
    },
    {
      notation: '`--colour=val`: `val` is the placeholder too',
      help: 'Usage: paint [options]\n     --colour=val\n                    Colour to paint with.\n -q, --quiet        Say less.\n',
      key: 'colour',
      takes_value: true,
      short: null,
    },
  ];
  for (const entry of cases) {
    it(entry.notation, () => {
      expect(option(entry.help, entry.key)).toMatchObject({ takes_value: entry.takes_value, short: entry.short, choices: null });
    });
  }

  it('negative twin: a lowercase word naming no kind of value after `=` stays a literal spelling (`--check=quiet`)', () => {
    const help = 'Usage: notes [options]\n     --check=quiet\n                    Check without output.\n -q, --quiet        Say less.\n';
    expect(option(help, 'check')?.choices ?? null).not.toBeNull();
    expect(option(help, 'check')?.choices).not.toContain('value');
  });
});

describe('Boost.Program_options heads', () => {
  const cases: { notation: string; line: string; long: string; short: string; takes_value: boolean }[] = [
    { notation: '`-d [ --dir ] DIR (=/tmp)`: short, bracketed long, value', line: '  -d [ --dir ] DIR (=/tmp)      where to work', long: 'dir', short: 'd', takes_value: true },
    { notation: '`-n [ --dry-run ]`: short and bracketed long, no value', line: '  -n [ --dry-run ]              change nothing', long: 'dry-run', short: 'n', takes_value: false },
    { notation: '`-l [ --level ] arg`, description on the next line', line: '  -l [ --level ] arg\n                                log level', long: 'level', short: 'l', takes_value: true },
  ];
  for (const entry of cases) {
    it(entry.notation, () => {
      const help = `Usage: worker [options]\nOptions:\n${entry.line}\n  --trace                       trace calls\n`;
      expect(option(help, entry.long)).toMatchObject({ short: entry.short, takes_value: entry.takes_value });
      expect(option(help, entry.short)?.long).toBe(entry.long);
    });
  }

  it('the description keeps its column: `DIR (=/tmp)` is no description word', () => {
    const help = 'Usage: worker [options]\nOptions:\n  -d [ --dir ] DIR              where to work\n  --trace                       trace calls\n';
    expect(option(help, 'dir')?.description).toBe('where to work');
  });

  it('negative twin: without the spaced brackets (`-d [--dir]`) no long spelling is read from them', () => {
    const help = 'Usage: worker [options]\nOptions:\n  -d [--dir] DIR                where to work\n  --trace                       trace calls\n';
    expect(option(help, 'd')?.long ?? null).not.toBe('dir');
  });
});

describe('a spaced `...` ending a head', () => {
  const cases: { notation: string; head: string; key: string; takes_value: boolean; repeatable: boolean }[] = [
    { notation: "bup's options `-o, --outdir ...`: the dots stand for the value", head: '-o, --outdir ...', key: 'outdir', takes_value: true, repeatable: false },
    { notation: 'long-only `--limit ...`', head: '--limit ...', key: 'limit', takes_value: true, repeatable: false },
    { notation: 'twin: `--limit N ...` — after a value the dots repeat it', head: '--limit N ...', key: 'limit', takes_value: true, repeatable: true },
    { notation: 'twin: `--verbose...` — attached dots repeat a flag', head: '--verbose...', key: 'verbose', takes_value: false, repeatable: true },
  ];
  for (const entry of cases) {
    it(entry.notation, () => {
      const help = `usage: keep save [-q] [-o dir] <files...>\n\n    ${entry.head.padEnd(20, ' ')}  what it does\n    -q, --quiet           say less\n`;
      expect(option(help, entry.key)).toMatchObject({ takes_value: entry.takes_value, repeatable: entry.repeatable });
    });
  }
});

describe('docopt forms, one per mode', () => {
  const forms = (first: string, second: string): string =>
    `Usage:\n  lookup --web [--in=<file>] [--mode=<fast|slow>] [--peer=<peer address>] [--qps=<n>]\n  lookup --dns [--zone=<zone>|--in=<file>] [--mode=<fast|slow>] [--peer=<peer address>] [--qps=<n>]\n  lookup --csv ${first} [--mode=<fast|slow>] [--peer=<peer address>] [--qps=<n>]\n  lookup --txt ${second} [--mode=<fast|slow>] [--peer=<peer address>] [--qps=<n>]\n\nOptions:\n  -h --help     Show this screen.\n`;
  const help = forms('--in=<file>', '--in=<file>');

  it('`--mode=<fast|slow>`: values set apart by `|` in angle brackets are the choices', () => {
    expect(option(help, 'mode')).toMatchObject({ takes_value: true, choices: ['fast', 'slow'] });
  });

  it('`--peer=<peer address>`: a placeholder of two words still takes a value', () => {
    expect(option(help, 'peer')).toMatchObject({ takes_value: true, choices: null });
  });

  it('a form adding one option counts the options earlier forms added (`--zone`)', () => {
    const two = 'Usage:\n  lookup --web [--in=<file>] [--mode=<m>] [--qps=<n>]\n  lookup --dns [--zone=<zone>] [--mode=<m>] [--qps=<n>]\n\nOptions:\n  -h --help     Show this screen.\n';
    expect(option(two, 'zone')?.takes_value).toBe(true);
    expect(option(help, 'zone')?.takes_value).toBe(true);
  });

  it('`lookup --csv --in=<file> [...]`: a mode followed by a required option is a switch', () => {
    expect(option(help, 'csv')?.takes_value).toBe(false);
    expect(option(help, 'txt')?.takes_value).toBe(false);
  });

  it('negative twin: a mode followed by a positional (`lookup --csv FILE`) is not read as a mode form', () => {
    const twin = forms('FILE', 'FILE');
    expect(option(twin, 'csv')).toBeUndefined();
  });

  it('negative twin: one form naming fewer than three unlisted options adds none', () => {
    const one = 'Usage:\n  lookup [--zone=<zone>] [--mode=<fast|slow>] FILE\n\nOptions:\n  -h --help     Show this screen.\n';
    expect(option(one, 'zone')).toBeUndefined();
    expect(option(one, 'mode')).toBeUndefined();
  });
});

describe("npm's option synopsis under `Options:`", () => {
  const help = (title: string): string =>
    `Check the store\n\nUsage:\nnpm verify [quick]\n\n${title}\n[--level <info|low|high>] [--dry-run]\n[-r|--registry <registry-url> [-r|--registry <registry-url> ...]]\n[--skip <dev|peer> [--skip <dev|peer> ...]]\n\n  --level\n    The least level to report.\n\n  --dry-run\n    Change nothing.\n\n  -r|--registry\n    Where to look packages up.\n\n  --skip\n    Kinds of dependency to skip.\n\nRun "npm help verify" for more info\n`;
  const cases: { key: string; takes_value: boolean; choices: string[] | null }[] = [
    { key: 'level', takes_value: true, choices: ['info', 'low', 'high'] },
    { key: 'registry', takes_value: true, choices: null },
    { key: 'skip', takes_value: true, choices: ['dev', 'peer'] },
    { key: 'dry-run', takes_value: false, choices: null },
  ];
  for (const entry of cases) {
    it(`\`--${entry.key}\` in the bracket lines under \`Options:\``, () => {
      expect(option(help('Options:'), entry.key)).toMatchObject({ takes_value: entry.takes_value, choices: entry.choices });
    });
  }

  it('negative twin: the same bracket lines under a title that is no options title say nothing', () => {
    for (const key of ['level', 'registry', 'skip']) expect(option(help('Aliases:'), key)?.takes_value).toBe(false);
  });
});

describe("plumbum's range type", () => {
  it('`--retries VALUE:[0..10]`: the bounded value is an integer', () => {
    const help = 'Usage:\n    fetcher [SWITCHES]\nSwitches:\n    --retries VALUE:[0..10]     How often to try again\n    --quiet                     Say less\n';
    expect(option(help, 'retries')).toMatchObject({ takes_value: true, type: 'integer', description: 'How often to try again' });
  });

  it('negative twin: `--retries [0..10]` with no value name is no plumbum type', () => {
    const help = 'Usage:\n    fetcher [SWITCHES]\nSwitches:\n    --retries [0..10]           How often to try again\n    --quiet                     Say less\n';
    expect(option(help, 'retries')?.type).not.toBe('integer');
  });
});

describe('braced words describe a value (Miller)', () => {
  const cases: { notation: string; line: string; key: string; takes_value: boolean; choices: string[] | null }[] = [
    { notation: '`-k  {comma-separated key names}  Keys`: braced words after a gap open the description', line: '-k  {comma-separated key names}  Keys to group by', key: 'k', takes_value: true, choices: null },
    { notation: '`-kr {comma-separated key names}  Keys`: braced words after one space', line: '-kr {comma-separated key names}  Keys to group by', key: 'kr', takes_value: true, choices: null },
    { notation: 'twin: `-kr {json,csv}  Format`: separated values after one space stay choices', line: '-kr {json,csv}  Format to write', key: 'kr', takes_value: true, choices: ['json', 'csv'] },
  ];
  for (const entry of cases) {
    it(entry.notation, () => {
      const help = `Usage: tally group {flags}\nGroups records.\n\nOptions:\n${entry.line}\n-q  Say less\n`;
      expect(option(help, entry.key)).toMatchObject({ takes_value: entry.takes_value, choices: entry.choices });
    });
  }

  it('twin: `-k  {json,csv}  Format`: separated values after a gap are no braced words', () => {
    const help = 'Usage: tally group {flags}\nGroups records.\n\nOptions:\n-k  {json,csv}  Format to write\n-q  Say less\n';
    expect(option(help, 'k')?.value_name ?? null).not.toBe('json,csv');
  });
});
