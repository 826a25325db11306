/**
 * Hand-written C helps spell a list of arguments by numbering its placeholder: pbzip2 `<filename>
 * <filename2> <filenameN>`, `file1 file2 ... fileN`. Placeholders of one stem, numbered up and closed
 * by an `N` (or `n`), are one argument that repeats, not three required ones. The help says in prose
 * when none need be given (pbzip2 `If no file names are given, pbzip2 compresses … from standard
 * input`, GNU `With no FILE, … read standard input`): the argument is optional then.
 */
import type { CliPositional } from './spec.ts';
import type { PositionalClaimer } from './reader/claims.ts';

/** `filename2` → `filename`, `file1` → `file`, `fileN` → `file`; null for a name without a number. */
function numberedStem(name: string, last: boolean): string | null {
  const match = (last ? /^([A-Za-z][\w-]{0,30}?)[-_]?[Nn]$/ : /^([A-Za-z][\w-]{0,30}?)[-_]?\d{0,2}$/).exec(name);
  return match?.[1] ?? null;
}

/**
 * apprise `[APPRISE_URL [APPRISE_URL2 [APPRISE_URL3]]]`, `[UID1 [UID2 [UID3]]]`: three or more optional
 * placeholders of one stem numbered up one by one (the first bare or `1`) spell "one or more" without
 * the closing `N`. Two (`FILE1 FILE2`: diff, comm) or required ones are fixed slots, not a list.
 */
function optionalNumberedRun(run: readonly CliPositional[], stem: string): boolean {
  if (run.length < 3 || run.some((positional) => positional.required || positional.variadic)) return false;
  return run.every((positional, index) => {
    const number = positional.name.slice(stem.length).replace(/^[-_]/, '');
    return index === 0 ? number === '' || number === '1' : number === String(index + 1);
  });
}

/** Collapses runs like `filename filename2 filenameN` into one variadic `filename`. */
export function collapseNumberedPositionals(positionals: CliPositional[]): void {
  for (let start = 0; start < positionals.length; start += 1) {
    const first = positionals[start];
    if (first === undefined) continue;
    const stem = numberedStem(first.name, false);
    if (stem === null) continue;
    let end = start + 1;
    while (end < positionals.length && numberedStem(positionals[end]?.name ?? '', false) === stem && /\d$/.test(positionals[end]?.name ?? '')) end += 1;
    const closing = positionals[end];
    if (end === start + 1 || closing === undefined || numberedStem(closing.name, true) !== stem) {
      if (optionalNumberedRun(positionals.slice(start, end), stem)) positionals.splice(start, end - start, { ...first, name: stem, variadic: true });
      continue;
    }
    // (named by the stem the series numbers: pyinotify `[path1] [path2] [pathn]` is one `path`, as `file1 [ file2 ] [ ... ]` is one `file`)
    positionals.splice(start, end - start + 1, { ...first, name: stem, variadic: true });
  }
}

/** Lower case, no spaces, no plural `s`: `file names` and `filename` compare alike. */
function nounKey(noun: string): string {
  return noun.toLowerCase().replace(/[\s_-]+/g, '').replace(/s$/, '');
}

/**
 * `If no file names are given`, `With no FILE`, `When no files are specified`: the prose says none need
 * be given (a conjunction after the noun, `If no filenames or "-" is specified`, is no word of it).
 */
const NONE_GIVEN = /\b(?:if|when|with) no ([A-Za-z][A-Za-z_-]{1,20}(?: (?!(?:or|and|nor)\b)[a-z]{2,12})?)(?: (?:is|are) (?:given|specified|provided))?(?=[\s,.;]|$)/gi;

export function markPositionalsProseLetOut(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  const text = lines.join(' ');
  const nouns = new Set([...text.matchAll(NONE_GIVEN)].map((match) => nounKey(match[1] ?? '')));
  // lrzip `<file...>` with `If no filenames or "-" is specified`: a file's name stands for the file
  for (const noun of [...nouns]) if (/^\w+names?$/.test(noun) && noun.endsWith('name')) nouns.add(noun.slice(0, -'name'.length));
  for (const positional of positionals) {
    if (positional.required && positional.variadic && nouns.has(nounKey(positional.name))) claim(positional, 'required', false);
  }
}

