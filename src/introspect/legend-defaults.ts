/**
 * Hand-written helps that say once, in a legend, how they mark a default: rdfind `options are
 * (default choice within parentheses)`, then
 *
 *     -checksum           md5 |(sha1)| sha256      checksum type
 *     -makesymlinks      true |(false)             replace duplicate files with symbolic links
 *     -minsize N        (N=1)                      ignores files with size less than N bytes
 *
 * Under such a legend, `(N=1)` after the placeholder `N` states its default; without the legend it
 * could be anything, so nothing is read. (The `|` list with one item in parentheses is read with the
 * option's head, legend or not: option-head.ts, MARKED_DEFAULT_BAR_COLUMN.)
 *
 * Every regular expression here is anchored and bounded (help text comes from untrusted components).
 */
import type { Entry } from './help-scan.ts';
import type { Claimer } from './reader/claims.ts';
import type { CliOption } from './spec.ts';
import { coerceDefault, typeFromDefault } from './value-type.ts';

/** `(default choice within parentheses)`, `defaults are shown in parentheses`. */
const LEGEND = /\bdefaults?\b(?:\s+[a-z]{1,12}){0,3}\s+(?:are\s+)?(?:shown\s+|given\s+|marked\s+)?(?:with)?in\s+parenthes[ie]s\b/i;
/** `(N=1)` opening the text: the placeholder's name, then its default. */
const NAMED_DEFAULT = /^\(([A-Za-z][\w-]{0,20})=([^\s()]{1,40})\)(?=\s|$)/;

/**
 * Reads the defaults the legend's notation states, on the options the rules left without a default.
 */
export function applyLegendDefaults(options: readonly CliOption[], entries: readonly Entry[], lines: readonly string[], claim: Claimer): void {
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
      const type = option.type === 'string' ? (typeFromDefault(value, false) ?? 'string') : option.type;
      claim(option, 'default', coerceDefault(value, type), type);
    }
  }
}
