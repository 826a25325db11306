/**
 * How an option's value is written on the command line, read from the option's own entry head once
 * the options are built. One pass, run last by `parseHelp`; it sets only the facts below and never
 * removes an option.
 *
 * - **Glued to a short flag** (`-B#`, `-b#`, `-T#`, `-O<level>`, `-pNUM`): the head writes the value
 *   right after the letter, so the program reads it from the same argument (`-B4`); written apart
 *   (`-B 4`), getopt would take `4` but hand-written parsers read it as a file. Sets `attached`. Only
 *   for an option with no long spelling (argv writes the long one when there is one) and not for
 *   `-j[N]` (`value_optional` already, same argv).
 * - **Go flag's type column** (`-lang   str    target Go version`, a usage written by hand in Go flag's
 *   single-dash style with `str` where `flag.PrintDefaults` writes `string`): a single-dash flag read
 *   without a placeholder whose text opens with a Go type word and a column gap takes a value of that
 *   type; the word leaves the description.
 *
 * Linear in the help: one bounded regex test per entry head.
 */
import type { Entry } from './help-scan.ts';
import type { CliOption } from './spec.ts';
import { typeFromValueName } from './value-type.ts';
import type { Claimer } from './reader/claims.ts';
import { claimTakesValue } from './reader/option-claims.ts';

/** Type words Go programs print in a flag's type column (flag's own, and the `str` shorthand). */
const GO_TYPE_COLUMN = /^(str|string|int|int64|uint|uint64|float|float64|duration)(?: {2,}|\t+)(?=\S)/;
const MAX_HEAD_CHARS = 300;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The head without the description that follows it on the line. */
function spellingPart(entry: Entry): string {
  const rest = entry.option?.rest ?? '';
  const head = rest.length > 0 && entry.head.endsWith(rest) ? entry.head.slice(0, entry.head.length - rest.length) : entry.head;
  return head.slice(0, MAX_HEAD_CHARS);
}

/** `-B#`, `-O<level>`, `-pNUM`: the short spelling with a placeholder glued on (not `-j[N]`, `-o=FILE`, `-o FILE`). */
function writesShortGlued(entry: Entry, short: string): boolean {
  if (entry.option === null || !entry.option.shorts.includes(short)) return false;
  return new RegExp(String.raw`(?:^|[\s,|/(])-${escaped(short)}[^\s,=|/()[\]]`).test(spellingPart(entry));
}

/** Marks options whose value the head glues to the short flag (see the module comment). */
function markGluedShorts(options: readonly CliOption[], entries: readonly Entry[]): void {
  for (const option of options) {
    if (!option.takes_value || option.long !== null || option.short === null || option.short === '#' || option.value_optional === true) continue;
    const short = option.short;
    if (entries.some((entry) => entry.kind === 'option' && writesShortGlued(entry, short))) option.attached = true;
  }
}

/** `-lang  str  target Go version`: a single-dash flag with a Go type column takes a value. */
function applyGoTypeColumn(options: readonly CliOption[], entries: readonly Entry[], claim: Claimer): void {
  for (const entry of entries) {
    const head = entry.option;
    if (entry.kind !== 'option' || head === null || head.valueName !== null || head.longs.some((long) => long.dashes === '--')) continue;
    const word = GO_TYPE_COLUMN.exec(head.rest)?.[1];
    if (word === undefined) continue;
    const long = head.longs[0]?.name ?? null;
    const short = head.shorts[0] ?? null;
    const option = options.find((candidate) => !candidate.takes_value && (long !== null ? candidate.long === long && candidate.prefix === '-' : candidate.long === null && candidate.short === short));
    if (option === undefined) continue;
    claimTakesValue(claim, option, { type: typeFromValueName(word) ?? 'string', valueName: word, dropDefault: 'boolean' });
    // (the description's spaces are collapsed by now: the word and one space)
    if (option.description?.startsWith(`${word} `) === true) claim(option, 'description', option.description.slice(word.length + 1).trimStart() || null);
  }
}

/** Sets `attached` and Go type-column value-taking on the built options, in place (see the module comment). */
export function applyValueForms(options: readonly CliOption[], entries: readonly Entry[], claim: Claimer): void {
  applyGoTypeColumn(options, entries, claim);
  markGluedShorts(options, entries);
}
