/**
 * Round 18 (issue 12, batch 19, kind: choices): notations written for the test, each with a
 * negative twin that differs only in the cue that must stop the reading.
 */
import { describe, expect, it } from 'vitest';
import { evidenceChoices } from '../../src/introspect/evidence-choices.ts';
import { option } from './parsed-option.ts';

function help(head: string, description: string): string {
  return `Usage: tool [options]\n\nOptions:\n  ${head.padEnd(26)}${description}\n  -q, --quiet               Say less\n`;
}

describe('placeholders that are no one-value sets', () => {
  // [notation, head, the option, its twin head (a literal the option takes: one choice)]
  const cases: [string, string, string, string][] = [
    ['getopt `--name=value`: `value` is the generic placeholder word, no literal spelling', '--limit=value', 'limit', '--limit=strict'],
    ['`{words of a phrase}` in braces, no separator: a description of the value, no braced set', '--keys {sort field names}', 'keys', '--keys {asc}'],
    ['`{<placeholder>}`: a placeholder in angle brackets, braced, is one placeholder', '--root {<dir>}', 'root', '--root {top}'],
  ];
  it.each(cases)('%s', (_title, head, key, twin) => {
    expect(option(help(head, 'What to use'), key)).toMatchObject({ takes_value: true, choices: null });
    expect(option(help(twin, 'What to use'), key)?.choices).toHaveLength(1);
  });
});

describe('prose lists the rules read no more (twins still read)', () => {
  // [what stops it, head, description, its twin description, the twin's choices]
  const cases: [string, string, string, string, string[]][] = [
    ['the value is a file path: quoted words after it are special values besides a path', '--log <dest>', 'file path to write to, "syslog" or "stdout"', 'where to write to, "syslog" or "stdout"', ['syslog', 'stdout']],
    ['`E.g.:` with a colon marks quoted examples as `E.g.` does', '--track <ref>', 'Branch to track. E.g.: "main", "dev".', 'Branch to track. Choose: "main", "dev".', ['main', 'dev']],
    ['items after `either` spelled as options are other options', '--tidy <how>', 'use together with either -strict or -loose', 'use together with either strict or loose', ['strict', 'loose']],
  ];
  it.each(cases)('%s', (_title, head, description, twin, twinChoices) => {
    const key = head.slice(2).split(' ')[0] ?? '';
    expect(option(help(head, description), key)).toMatchObject({ takes_value: true, choices: null });
    expect(option(help(head, twin), key)?.choices).toEqual(twinChoices);
  });
});

describe('runs the evidence reader refuses (twins accepted)', () => {
  // [what stops it, the text, its twin without that cue, the value name]
  const cases: [string, string, string, string][] = [
    ['`Common values are` names examples of an open set', 'Stage to run under. Common values are "dev", "stage" and "prod".', 'Stage to run under. Valid values are "dev", "stage" and "prod".', 'X'],
  ];
  it.each(cases)('%s', (_title, text, twin, valueName) => {
    expect(evidenceChoices(text, valueName)).toBeNull();
    expect(evidenceChoices(twin, valueName)).not.toBeNull();
  });
});

describe('runs the evidence reader accepts (twins refused)', () => {
  // [what vouches for it, the text, its twin without that cue, the choices]
  const cases: [string, string, string, string[]][] = [
    ["quoted items each defined after a spaced dash (`'a' - does x, 'b' - does y`)", "Name lookup in patterns ('yes' - resolve all hosts, 'no' - addresses only)", "Name lookup in patterns ('yes' resolves all hosts, 'no' keeps addresses only)", ['yes', 'no']],
  ];
  it.each(cases)('%s', (_title, text, twin, choices) => {
    expect(evidenceChoices(text, 'X')).toEqual(choices);
    expect(evidenceChoices(twin, 'X')).toBeNull();
  });
});

describe('runs the evidence reader refuses, continued', () => {
  const cases: [string, string, string, string][] = [
    ['`typically` names examples too', 'Stage to run under, typically one of "dev", "stage" or "prod".', 'Stage to run under, one of "dev", "stage" or "prod".', 'X'],
  ];
  it.each(cases)('%s', (_title, text, twin, valueName) => {
    expect(evidenceChoices(text, valueName)).toBeNull();
    expect(evidenceChoices(twin, valueName)).not.toBeNull();
  });
});

describe('a default read from the head or a tag is evidence for the run holding it', () => {
  it('kingpin `--level="warn"  Log level; a,b,c`: the head default among a bare run tips it over', () => {
    const text = 'Log level; trace,debug,info,warn,error';
    expect(evidenceChoices(text, null, [], 'warn')).toEqual(['trace', 'debug', 'info', 'warn', 'error']);
    // twins: no default known, or one the run leaves out
    expect(evidenceChoices(text, null, [], null)).toBeNull();
    expect(evidenceChoices(text, null, [], 'fatal')).toBeNull();
    expect(option(help('--level="warn"', text), 'level')?.choices).toEqual(['trace', 'debug', 'info', 'warn', 'error']);
    expect(option(help('--level=<lvl>', text), 'level')?.choices).toBeNull();
  });

  it('a bracketed default after a glossed list (`10 (PROTOv1.0), …, 12 (PROTOv1.2). [12]`)', () => {
    const text = 'Lowest protocol version. 10 (PROTOv1.0), 11 (PROTOv1.1), 12 (PROTOv1.2) or 13 (PROTOv1.3). [12]';
    expect(option(help('--proto=value', text), 'proto')).toMatchObject({ choices: ['10', '11', '12', '13'], default: '12' });
    expect(option(help('--proto=value', text.replace(' [12]', '')), 'proto')?.choices).toBeNull();
  });
});

describe('go-flags layout: a value name, then its choices glued on in brackets', () => {
  it.each([
    ['-s=<sort key>[name|size|date]', 's', 'sort key', ['name', 'size', 'date']],
    ['-s, --sort=<key>[name|size]', 'sort', 'key', ['name', 'size']],
  ])('%s', (head, key, valueName, choices) => {
    const text = (spelled: string): string => `Usage:\n  prog [OPTIONS]\n\nApplication Options:\n  ${spelled.padEnd(34)}How to sort\n  -v, --verbose                     Say more\n`;
    expect(option(text(head), key)).toMatchObject({ takes_value: true, value_name: valueName, choices });
    // twin: the name alone
    expect(option(text(head.replace(/\[[^\]]*\]$/, '')), key)).toMatchObject({ takes_value: true, value_name: valueName, choices: null });
  });
});

describe('a `|` list hard-wrapped inside a word (oclif), the lines joined by a space', () => {
  it('oclif `<options: a|b|ver` / `bose|d>`: the piece after the space ends the item', () => {
    const help = 'USAGE\n  $ tool run [--level <option>]\n\nFLAGS\n  --level=<option>  How much to log.\n                    <options: quiet|normal|ver\n                    bose|debug>\n';
    expect(option(help, 'level')?.choices).toEqual(['quiet', 'normal', 'verbose', 'debug']);
  });

  it('the evidence reader joins the piece only with a `|` on either side', () => {
    expect(evidenceChoices('Log level. Valid levels: quiet|normal|ver bose|debug', 'X')).toEqual(['quiet', 'normal', 'verbose', 'debug']);
    // twin: no `|` after the piece, it is a word of the sentence
    expect(evidenceChoices('Log level. Valid levels: quiet|normal|ver bose', 'X')).not.toContain('verbose');
  });
});

describe('one value said outright, and namespaced names', () => {
  it('`Currently only `name` is supported.`: the one value, quoted; a bare word may name something else', () => {
    expect(evidenceChoices('Sorting method. Currently only `name` is supported.', null)).toEqual(['name']);
    expect(evidenceChoices('Macros for the parser (only glsl is supported)', null)).toBeNull();
    expect(option(help('--order <how>', 'Sorting method. Currently only "name" is supported.'), 'order')?.choices).toEqual(['name']);
  });

  it('`Plack::Loader`-style names are whole items, never their last part', () => {
    expect(evidenceChoices('Server backend. Available backends are Web::Fast, Web::Safe and Web::Lazy.', 'X')).toEqual(['Web::Fast', 'Web::Safe', 'Web::Lazy']);
  });
});
