/**
 * Hand-written helps may sort their positionals under titles saying which must be given
 * (electron-packager):
 *
 *   Usage: electron-packager <sourcedir> <appname> [options...]
 *
 *   Required parameters
 *
 *   sourcedir          the base directory of the application source
 *
 *   Optional parameters
 *
 *   appname            the name of the app, if it needs to be different from the "productName" …
 *
 * A positional listed by its bare name under an `Optional parameters` (or `arguments`) title may be
 * left out, whatever brackets the usage writes it in. (argparse's `optional arguments:` lists dashed
 * options only, so it names no positional here.)
 */
import type { CliPositional } from './spec.ts';
import type { PositionalClaimer } from './reader/claims.ts';

const OPTIONAL_TITLE = /^\s*optional (?:parameters|arguments|positionals)\s*:?\s*$/i;
/** A title flush left that ends the list: one to four words, no gap. */
const NEXT_TITLE = /^[A-Za-z*][^\s:]*(?: [^\s:]+){0,3}:?\s*$/;
/** Lines read under the title at most. */
const MAX_LINES = 40;

export function markOptionalListedPositionals(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  const title = lines.findIndex((line) => OPTIONAL_TITLE.test(line));
  if (title === -1) return;
  const names = new Set<string>();
  for (const line of lines.slice(title + 1, title + 1 + MAX_LINES)) {
    if (NEXT_TITLE.test(line) && !/^\s/.test(line)) break;
    const entry = /^\s{0,8}([A-Za-z][\w.-]{0,40})\s{2,}\S/.exec(line);
    if (entry !== null) names.add(entry[1] ?? '');
  }
  for (const positional of positionals) if (names.has(positional.name)) claim(positional, 'required', false);
}

/**
 * pup `[selectors] [optional display function]`: a bracketed name of several words opening with
 * `optional` says again what the brackets say; the argument is the rest (`display function`). A name
 * of one word (`[optional]`) is kept.
 */
const OPTIONAL_MARKER = /^optional ([a-z][\w-]{0,30}(?: [a-z][\w-]{0,30}){0,3})$/i;

export function withoutOptionalMarker(positionals: CliPositional[], claim: PositionalClaimer): void {
  for (const positional of positionals) {
    const rest = positional.required ? null : OPTIONAL_MARKER.exec(positional.name)?.[1];
    if (rest !== undefined && rest !== null && !positionals.some((other) => other.name === rest)) claim(positional, 'name', rest);
  }
}
