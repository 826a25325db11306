/**
 * Notations met in parser fixes round 17 (issue 12, batch 21 options: found, invented, value-taking,
 * names), each pinned on a minimal help written for the test, with a negative twin that differs only
 * in the cue that must stop it.
 */
import { describe, expect, it } from 'vitest';
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
