/**
 * Round 17, choices (issue 12, batches 13 and 21): each notation pinned on a minimal help written for
 * the test, with a negative twin differing only in the cue that must change the answer.
 */
import { describe, expect, it } from 'vitest';
import { option } from './parsed-option.ts';

interface Row {
  name: string;
  help: string;
  key: string;
  choices: string[] | null;
}

function table(rows: readonly Row[]): void {
  for (const row of rows) {
    it(row.name, () => {
      expect(option(row.help, row.key)?.choices ?? null).toEqual(row.choices);
    });
  }
}

const options = (line: string): string => `Usage: prog [options]\n\nOptions:\n${line}\n  -h, --help        show help\n`;

describe('lists a rule reads that are no set of values', () => {
  table([
    {
      name: 'unit letters of a value named as an amount (`<max-size>  … size (k/m/g)`) are suffixes',
      help: options('  --max-size <max-size>   Skip files larger than size (k/m/g)'),
      key: 'max-size',
      choices: null,
    },
    {
      name: 'twin: the same letters for a value named as a unit are its values',
      help: options('  --unit <unit>           Show sizes in this unit (k/m/g)'),
      key: 'unit',
      choices: ['k', 'm', 'g'],
    },
    {
      name: 'a function word read as an item (`(or |pipe)`) is prose',
      help: options('  -o, --out=NAME   send results to a file (or |pipe)'),
      key: 'out',
      choices: null,
    },
    {
      name: 'twin: a parenthesized bar list of values',
      help: options('  -o, --out=NAME   send results to a sink (file |pipe)'),
      key: 'out',
      choices: ['file', 'pipe'],
    },
    {
      name: 'twin: a preposition that is a value (`(in | out)`) stays one',
      help: options('  -d, --dir=WAY   direction of the copy (in | out)'),
      key: 'dir',
      choices: ['in', 'out'],
    },
    {
      name: 'a slash list glued to a word (`modules(rules/presets/plugins)`) names kinds of it',
      help: options('  --base <name>   Loads modules(rules/presets/plugins) from there.'),
      key: 'base',
      choices: null,
    },
    {
      name: 'twin: a slash list set apart is the values',
      help: options('  --base <name>   Loads modules (rules/presets/plugins) from there.'),
      key: 'base',
      choices: ['rules', 'presets', 'plugins'],
    },
    {
      name: 'a bar list before placeholders (`set|add|del <key> [<value>]`) is a line syntax',
      help: options('  -m <name>   Each line reads set|add|del <key> [<value>].'),
      key: 'm',
      choices: null,
    },
    {
      name: 'twin: a bar list before a bracketed default is the values',
      help: options('  -m <name>   Cache mode off|minimal|full [default: off]'),
      key: 'm',
      choices: ['off', 'minimal', 'full'],
    },
    {
      name: 'twin: a bar list before a gloss is the values',
      help: options('  -m <name>   Each line reads set|add|del (the action).'),
      key: 'm',
      choices: ['set', 'add', 'del'],
    },
  ]);
});

describe('abbreviated values', () => {
  table([
    {
      name: '`d(ebug), i(nfo) or q(uiet)`: each letter glued to the rest of its word is the value typed',
      help: options('  -L <lvl>   Set verbosity to d(ebug), i(nfo) or q(uiet).'),
      key: 'L',
      choices: ['d', 'i', 'q'],
    },
  ]);
});

describe('values of one part of a value', () => {
  table([
    {
      name: '`<TYPE[:SEED]>`: a value of parts joined by `:`; a list the prose gives is one part\'s, no enum of the whole',
      help: options('  --order <TYPE[:SEED]>    run in the given order. Type should be `fixed` or `shuffled`'),
      key: 'order',
      choices: null,
    },
    {
      name: 'twin: `<TYPE>` alone takes the listed values',
      help: options('  --order <TYPE>           run in the given order. Type should be `fixed` or `shuffled`'),
      key: 'order',
      choices: ['fixed', 'shuffled'],
    },
  ]);
});

describe('a switch shown in its state', () => {
  const help = (head: string): string => `Usage: prog fmt [options]\n\nOptions:\n\n  ${head.padEnd(14)} Don't print changed names\n\n  -diff          Show diffs\n`;
  table([
    { name: '`-list=false`: a lone `false` in the head is a switch\'s state, no set of one value', help: help('-list=false'), key: 'list', choices: null },
    { name: 'twin: `-list=short` is one listed value', help: help('-list=short'), key: 'list', choices: ['short'] },
  ]);
});

describe('quoted words that are no values of the option', () => {
  table([
    {
      name: 'quoted names each with a colon inside braces are a JSON object\'s keys',
      help: options('  -F, --form <FORM>   Send a form, as JSON like \'{ "kind": "text", "body": "hi" }\''),
      key: 'form',
      choices: null,
    },
    {
      name: 'twin: the same quoted names outside braces define the values',
      help: options('  -F, --form <FORM>   Send a form, as "kind": a typed field, "body": the raw text'),
      key: 'form',
      choices: ['kind', 'body'],
    },
    {
      name: 'a quoted list right after a template variable (`${kind} - \'a\' or \'b\'`) is that variable\'s values',
      help: options('  --run <CMD>   Command to run. Variables: ${path} - the path, ${kind} - \'file\' or \'dir\''),
      key: 'run',
      choices: null,
    },
    {
      name: 'twin: after a plain word, the quoted list is the values',
      help: options('  --run <CMD>   Command to run. Variables: ${path} - the path, kind - \'file\' or \'dir\''),
      key: 'run',
      choices: ['file', 'dir'],
    },
  ]);
});

describe('a head alone over definition lines', () => {
  const help = (rest: string): string =>
    `Usage: calc [options] <file>\n\nOptions:\n  -m=, --math=${rest}\n     always                 Evaluate math always.\n     parens | strict        Only inside parentheses.\n     never                  Leave math as written.\n\n  -v, --verbose            Print more.\n`;
  table([
    { name: '`--math=` with no words of its own over `value   meaning` lines (one with `a | b` aliases): the values', help: help(''), key: 'math', choices: ['always', 'parens', 'strict', 'never'] },
    { name: 'twin: a head with a description of its own on its line introduces no list', help: help('     Math handling'), key: 'math', choices: null },
  ]);
});

describe('a word after `=` in the head', () => {
  table([
    {
      name: '`--copy-config=which` over `Possible values: all, rc, rifle`: the word the stated list leaves out names the value',
      help: options('  --copy-config=which   copy the default configs. Possible values: all, rc, rifle'),
      key: 'copy-config',
      choices: ['all', 'rc', 'rifle'],
    },
    {
      name: 'twin: with no list stated, the word is one literal value (zstd `--format=zstd`)',
      help: options('  --copy-config=which   copy the default configs.'),
      key: 'copy-config',
      choices: ['which'],
    },
  ]);
});

describe('rdfind: values joined by `|` opening the description, the default in parentheses', () => {
  const help = (values: string): string =>
    `Usage: dedupe [options] DIR ...\n\noptions are (default choice within parentheses)\n\n -hash       ${values.padEnd(20)} hash to compare with\n -quiet                           print less\n`;
  it('`md5 |(sha1)| sha256`: the values, the marked one the default, a value taken', () => {
    expect(option(help('md5 |(sha1)| sha256'), 'hash')).toMatchObject({ takes_value: true, choices: ['md5', 'sha1', 'sha256'], default: 'sha1' });
  });
  it('twin: with no item marked, the words stay the description of a switch', () => {
    expect(option(help('md5 | sha1 | sha256'), 'hash')).toMatchObject({ takes_value: false, choices: null, default: null });
  });
});

describe('LLVM CommandLine value lines', () => {
  const help = (dash: string): string =>
    `USAGE: fmt-tool [options] <file>\n\nOPTIONS:\n\n  --Wsilence=<value>             ${dash}Silence the given warning kind.\n    =stale                       -   Stale cache entries are not reported.\n                                     Use with care.\n    =slow                        -   Slow passes are not reported.\n  --verbose                      - Print more.\n`;
  table([
    { name: '`=name   -   text` lines under `--opt=<value>  - text`: each name a value', help: help('- '), key: 'Wsilence', choices: ['stale', 'slow'] },
    { name: 'twin: without LLVM\'s dash opening the description, the lines are prose', help: help(''), key: 'Wsilence', choices: null },
  ]);
});

describe('quoted values each defined after a spaced dash', () => {
  table([
    {
      name: '`"json" (default) -- write JSON. "csv" -- write rows.`: each quoted value a definition\'s head',
      help: options('  --out <kind>   The format to write. "json" (default) -- write JSON. "csv" -- write rows. "tsv" -- write tabs'),
      key: 'out',
      choices: ['json', 'csv', 'tsv'],
    },
    {
      name: 'twin: quoted words inside sentences, with no dash, define nothing',
      help: options('  --out <kind>   The format to write. "json" (default) writes JSON. "csv" writes rows. "tsv" writes tabs'),
      key: 'out',
      choices: null,
    },
  ]);
});

describe('letter codes defined on lines of their own', () => {
  const help = (intro: string): string =>
    `Usage: meta [options] file ...\n\nOptions:\n   -p mode   ${intro}:\n             s : print a summary\n             L : print everything\n             x : print hex\n   -v      Be verbose.\n`;
  table([
    { name: '`s : …`, `L : …` under `Possible modes are:`: letter codes in either case, a spaced colon, are the values', help: help('Print mode. Possible modes are'), key: 'p', choices: ['s', 'L', 'x'] },
    { name: 'twin: codes introduced in the plural (`target(s)`) are combined into one value, no enum', help: help('Print target(s). Possible targets are'), key: 'p', choices: null },
  ]);
});

describe('nopt: bracketed `|` values opening the description of a head with no placeholder', () => {
  const help = (values: string): string => `fmt-tool@1.0.0\n\nCLI Options:\n  -q, --quiet      Say less\n  --lang           ${values}\n  -h, --help       Show this help\n`;
  it('`[js|css|html] ["js"]`: the values, the quoted bracket the default, a value taken', () => {
    expect(option(help('[js|css|html] ["js"]'), 'lang')).toMatchObject({ takes_value: true, choices: ['js', 'css', 'html'], default: 'js' });
  });
  it('twin: a bracket glued to more of the value (`[js|css|html][,min]`) is a pattern, no set', () => {
    expect(option(help('[js|css|html][,min] ["js"]'), 'lang')?.choices ?? null).toBeNull();
  });
});

describe('dart args: allowed values in brackets, one marked (default), closing a placeholder-less description', () => {
  const help = (flag: string): string =>
    `Usage: style-tool <input>\n\n    ${flag.padEnd(27)}How to write links.\n                               [relative (default), absolute]\n    --[no-]quiet               Be quiet.\n`;
  it('`--link-mode` over `[relative (default), absolute]`: a value taken, the values, the marked default', () => {
    expect(option(help('--link-mode'), 'link-mode')).toMatchObject({ takes_value: true, choices: ['relative', 'absolute'], default: 'relative', description: 'How to write links.' });
  });
  it('twin: a negatable `--[no-]link-mode` stays a switch', () => {
    expect(option(help('--[no-]link-mode'), 'link-mode')).toMatchObject({ takes_value: false, choices: null });
  });
});

describe('dart args: allowed values with help of their own, bracketed lines under the head', () => {
  const help = (valueLine: string): string =>
    `Usage: style-tool <input>\n\n-i, --importer=<KIND>          Importer to use for pkg: URLs.\n\n${valueLine}\n\n-q, --[no-]quiet               Be quiet.\n`;
  table([
    { name: '`[node]   Load files like Node.js.` under `--importer=<KIND>`: the value', help: help('          [node]               Load files like Node.js.'), key: 'importer', choices: ['node'] },
    { name: 'twin: a bracket alone on its line (a wrapped form) names no value', help: help('          [node]'), key: 'importer', choices: null },
  ]);
});

describe('a head alone over prose lines', () => {
  it('twin of `--math=`: lines `word: text` under a bare head are its description, no values', () => {
    const help = `Usage: calc [options] <file>\n\nOptions:\n  -m=, --math=\n     default: evaluate math always.\n     note: parentheses are kept.\n     also: see the manual.\n\n  -v, --verbose            Print more.\n`;
    expect(option(help, 'math')?.choices ?? null).toBeNull();
  });
});
