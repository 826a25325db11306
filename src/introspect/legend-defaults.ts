/**
 * Hand-written helps that say once, in a legend, how they mark a default: rdfind `options are
 * (default choice within parentheses)`, then
 *
 *     -checksum           md5 |(sha1)| sha256      checksum type
 *     -makesymlinks      true |(false)             replace duplicate files with symbolic links
 *     -minsize N        (N=1)                      ignores files with size less than N bytes
 *
 * Under such a legend, a `|` list of values opening an option's text with exactly one item in
 * parentheses lists the values the option takes and marks the one in effect (the option takes one
 * of them, though no placeholder is printed); `(N=1)` after the placeholder `N` states its default.
 * Without the legend neither notation says which item is the default, so nothing is read.
 *
 * Every regular expression here is anchored and bounded (help text comes from untrusted components).
 */
import type { Entry } from './help-scan.ts';
import type { CliOption } from './spec.ts';
import { coerceDefault, typeFromDefault } from './value-type.ts';

/** `(default choice within parentheses)`, `defaults are shown in parentheses`. */
const LEGEND = /\bdefaults?\b(?:\s+[a-z]{1,12}){0,3}\s+(?:are\s+)?(?:shown\s+|given\s+|marked\s+)?(?:with)?in\s+parenthes[ie]s\b/i;
/**
 * A `|` list of two to twelve values opening the text, one set off in parentheses: `md5 |(sha1)| sha256`,
 * `(true)| false`; the first word after the last item with no `|` before it starts the description
 * (`true |(false) follow symlinks`).
 */
const MARKED_LIST = /^((?:\(?[\w.+-]{1,30}\)?\s*\|\s*){1,11}\(?[\w.+-]{1,30}\)?)(?=\s|$)/;
/** `(N=1)` opening the text: the placeholder's name, then its default. */
const NAMED_DEFAULT = /^\(([A-Za-z][\w-]{0,20})=([^\s()]{1,40})\)(?=\s|$)/;

/** The items of a marked list and the one set off in parentheses, or null unless exactly one is. */
function markedList(text: string): { items: string[]; marked: string } | null {
  const list = MARKED_LIST.exec(text)?.[1];
  if (list === undefined) return null;
  const raw = list.split('|').map((item) => item.trim());
  const marked = raw.filter((item) => item.startsWith('(') && item.endsWith(')'));
  // a bracket left open or closed alone (`(a | b)`) is no mark of one item
  if (marked.length !== 1 || raw.some((item) => /[()]/.test(item) && !(item.startsWith('(') && item.endsWith(')')))) return null;
  const items = raw.map((item) => item.replace(/^\((.*)\)$/, '$1'));
  return { items, marked: (marked[0] ?? '').slice(1, -1) };
}

/**
 * Reads the defaults (and, for a marked list, the values) the legend's notation states, on the
 * options the rules left without a default.
 */
export function applyLegendDefaults(options: readonly CliOption[], entries: readonly Entry[], lines: readonly string[]): void {
  if (!lines.some((line) => LEGEND.test(line))) return;
  for (const entry of entries) {
    if (entry.kind !== 'option' || entry.option === null) continue;
    const long = entry.option.longs[0]?.name;
    const short = entry.option.shorts[0];
    const option = options.find((candidate) => (long !== undefined ? candidate.long === long : candidate.short === short));
    if (option === undefined || option.default !== null) continue;
    const text = entry.option.rest.trim();
    const named = NAMED_DEFAULT.exec(text);
    if (named !== null && option.takes_value && option.value_name === named[1]) {
      const value = named[2] ?? '';
      if (option.type === 'string') option.type = typeFromDefault(value, false) ?? 'string';
      option.default = coerceDefault(value, option.type);
      continue;
    }
    const list = markedList(text);
    if (list === null || (option.takes_value && option.choices !== null)) continue;
    option.takes_value = true;
    option.type = 'string';
    option.choices = list.items;
    option.default = list.marked;
    option.negation = null;
  }
}
