/**
 * rich-click with `append_metavars_help` (and no metavar column) prints no placeholder in the head
 * and appends click's metavar to the help text instead: `--outdir  -o  Output directory [TEXT]`,
 * `--compress  -x  Archive compression type [tar.gz|tar.bz2|zip|none]` (a choice metavar, often
 * wrapped onto a line of its own), before any `[env var: …]`, `[default: …]` or `[required]`.
 * Where no option of the help shows a placeholder in its head and at least one description ends in a
 * click type name (`[TEXT]`, `[INTEGER]`, `[INTEGER RANGE]`), such a trailing bracket is the value's
 * placeholder: it moves into the head, where the rules for click's own layout read it
 * (`--compress [a|b]` gives the choices), and leaves the description, so it is never read as a default.
 *
 * Every regular expression here is anchored and bounded (help text comes from untrusted components).
 */
import type { Entry } from './help-scan.ts';

/** The metavars click prints for its own parameter types. */
const CLICK_TYPE = /^(?:TEXT|INTEGER|FLOAT|BOOLEAN|PATH|FILENAME|FILE|DIRECTORY|UUID|DATETIME)(?: RANGE)?$/;
/** A choice metavar: two or more values joined by `|`. */
const CHOICE_METAVAR = /^[^\s|[\]]{1,60}(?:\|[^\s|[\]]{1,60}){1,40}$/;
/** A trailing bracket, then only click's other annotations (`[default: x]`, `[required]`) to the end of the line. */
const TRAILING_BRACKET = /(^|\s)\[([^[\]]{1,600})\]((?:\s{1,4}\[[^[\]]{0,200}\]){0,4})\s*$/;

interface Appended {
  /** The description line holding the bracket (-1: the head line's rest). */
  line: number;
  metavar: string;
  /** The line with the bracket taken out. */
  rest: string;
}

function isMetavar(text: string): boolean {
  return CLICK_TYPE.test(text) || CHOICE_METAVAR.test(text);
}

/** The metavar closing the entry's text: on its last line that is not blank. */
function appendedMetavar(entry: Entry): Appended | null {
  const head = entry.option;
  if (head === null) return null;
  const lines = [head.rest, ...entry.description];
  let last = lines.length - 1;
  while (last >= 0 && (lines[last] ?? '').trim().length === 0) last -= 1;
  if (last < 0) return null;
  const text = lines[last] ?? '';
  const match = TRAILING_BRACKET.exec(text);
  const metavar = match?.[2];
  if (match === null || metavar === undefined || !isMetavar(metavar)) return null;
  const rest = `${text.slice(0, match.index)}${match[1] ?? ''}${(match[3] ?? '').trim()}`.trimEnd();
  return { line: last - 1, metavar, rest };
}

export function applyAppendedMetavars(entries: readonly Entry[]): void {
  const options = entries.filter((entry) => entry.kind === 'option' && entry.option !== null);
  if (options.some((entry) => entry.option !== null && (entry.option.valueName !== null || entry.option.choices !== null))) return;
  const appended = new Map<Entry, Appended>();
  for (const entry of options) {
    const found = appendedMetavar(entry);
    if (found !== null) appended.set(entry, found);
  }
  if (![...appended.values()].some((found) => CLICK_TYPE.test(found.metavar))) return;
  for (const [entry, found] of appended) {
    const head = entry.option;
    if (head === null) continue;
    const choices = CLICK_TYPE.test(found.metavar) ? null : found.metavar.split('|');
    if (found.line < 0) {
      entry.option = { ...head, valueName: choices === null ? found.metavar : null, choices, rest: found.rest };
    } else {
      entry.option = { ...head, valueName: choices === null ? found.metavar : null, choices };
      entry.description = entry.description.map((line, index) => (index === found.line ? found.rest : line));
    }
  }
}
