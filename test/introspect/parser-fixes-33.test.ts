/**
 * Notations met in parser fixes round 17 (issue 12, batch 21 options: found, invented, value-taking,
 * names), each pinned on a minimal help written for the test, with a negative twin that differs only
 * in the cue that must stop it.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('bulleted option lists (man pages rendered from markdown)', () => {
  const bulleted = (bullet: string): string =>
    `SYNOPSIS\n       mdtool [-w <file>] [--fast]\n\nOPTIONS\n        ${bullet}-w, --write [target file]\n          Write the result to a file.\n\n        ${bullet}--fast\n          Skip checks.\n`;
  it.each([
    ['•', '• '],
    ['◦', '◦  '],
    ['▪', '▪ '],
  ])('`%s -w, --write [target file]`: the bullet is list markup, the line an option entry', (_name, bullet) => {
    expect(option(bulleted(bullet), 'write')).toMatchObject({ short: 'w', takes_value: true });
  });
  it('negative twin: a bullet before prose that mentions an option opens no entry', () => {
    const help = 'OPTIONS\n        • see -w, --write [target file]\n          Write the result to a file.\n';
    expect(option(help, 'write')).toBeUndefined();
  });
});

describe('a form titled `syntax:` listed one option group a line', () => {
  const listed = (title: string, gap: string): string =>
    `${title}\n  [--set-root DIRECTORY]\n  [--verbose]\n  [--quiet]\n  [--show-root]${gap}Prints the root entry.\n  [--swap-names OLD NEW]\n  FILE...\n`;
  it.each([
    ['syntax: elfedit', 'elfedit'],
    ['Synopsis: elfedit', 'elfedit'],
  ])('`%s` over deeper `[--x VALUE]` lines: the program, its positionals and usage-only options', (title, name) => {
    const help = listed(title, '\t\t');
    const spec = parseHelp(help);
    expect(spec.name).toBe(name);
    expect(spec.positionals).toEqual([{ name: 'FILE', required: true, variadic: true }]);
    expect(option(help, 'set-root')?.takes_value).toBe(true);
    expect(option(help, 'show-root')?.takes_value).toBe(false);
    expect(option(help, 'swap-names')).toMatchObject({ takes_value: true, value_count: 2 });
  });
  it('negative twin: a `syntax:` word over a line that opens no bracket is no form', () => {
    const help = 'syntax: elfedit\n  set-root DIRECTORY\n';
    expect(parseHelp(help).name).not.toBe('elfedit');
  });
  it('negative twin: a group glossed after one space only is prose that ends the form', () => {
    const help = listed('syntax: elfedit', ' ');
    expect(option(help, 'set-root')?.takes_value).toBe(true);
    expect(option(help, 'swap-names')).toBeUndefined();
  });
  it('negative twin: a bracketed word that is no option spelling, glossed after a gap, ends the form', () => {
    const help = 'syntax: elfedit\n  [--set-root DIRECTORY]\n  [--show-root]\n  [note]    the lines below are examples\n  [--swap-names OLD NEW]\n';
    expect(option(help, 'swap-names')).toBeUndefined();
  });
});

describe('usage-only long options with a value in capitals after a space', () => {
  const form = (value: string): string => `Usage: elfedit [--set-root${value}] [--show-root] [--verbose] FILE\n`;
  it.each([
    [' DIRECTORY', true],
    ['', false],
    [' DIR NAME', true],
  ])('`[--set-root%s]` takes a value: %s', (value, takes) => {
    expect(option(form(value), 'set-root')?.takes_value).toBe(takes);
  });
});
