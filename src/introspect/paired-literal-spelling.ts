/**
 * popt and gengetopt print every value-taking option as `-d, --delete=partnum`, `-c, --c-extension=ext`:
 * a short spelling paired with a long one whose lower-case word after `=` names the value. The head
 * parser reads such a word as a literal value (`--check=quiet`, zstd `--format=zstd` lines) when it
 * knows no kind of value by it, which leaves the short spelling a flag and drops the long one. A
 * literal spelling beside a short one only stands for a value when the help spells the same long
 * option elsewhere too (GNU ls `-p, --indicator-style=slash` under `--indicator-style=WORD`); a long
 * spelled nowhere else is the option itself, and its word the placeholder. popt and gengetopt put
 * the description on the head's line; a head standing alone over its description (ls pads
 * `-p, --indicator-style=slash` out of its column) keeps the literal reading.
 */
import type { Entry } from './help-scan.ts';

const LITERAL_SPELLING = /^--([A-Za-z][\w-]*)=([a-z][a-z0-9-]+)$/;

/** The long names every option entry spells, literal-value spellings (`--format=zstd`) included. */
function spelledLongs(entries: readonly Entry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    const head = entry.option;
    if (entry.kind !== 'option' || head === null) continue;
    const names = new Set([
      ...head.longs.filter((long) => long.dashes === '--').map((long) => long.name),
      ...head.aliases.map((alias) => /^--([A-Za-z][\w-]*)/.exec(alias)?.[1]).filter((name): name is string => name !== undefined),
    ]);
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

export function applyPairedPlaceholderSpellings(entries: readonly Entry[]): void {
  const counts = spelledLongs(entries);
  for (const entry of entries) {
    const head = entry.option;
    if (entry.kind !== 'option' || head === null || head.longs.length > 0 || head.shorts.length !== 1 || head.valueName !== null || head.choices !== null || head.rest.length === 0) continue;
    const literals = head.aliases.filter((alias) => LITERAL_SPELLING.test(alias));
    const match = literals.length === 1 && head.aliases.length === 1 ? LITERAL_SPELLING.exec(literals[0] ?? '') : null;
    const name = match?.[1];
    const word = match?.[2];
    if (name === undefined || word === undefined || counts.get(name) !== 1) continue;
    entry.option = { ...head, longs: [{ dashes: '--', name }], aliases: [], valueName: word, valueOptional: false };
  }
}
