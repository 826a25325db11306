/**
 * The positional prose reader: what the help's prose says about the positionals the usage forms and
 * entries gave — each a spelling of "this name is several" (`variadic`), "this name may be left out"
 * (`required: false`) or "these are one name" (numbered runs). Field claims through the reader's
 * claimer (`help:generic.positional-prose`); the two list readers (`splitProseNamedPositionals`,
 * `collapseNumberedPositionals`) return or splice the list, turned into item-level claims by the core.
 * Regexes are built from names the help itself gave (escaped or restricted to word characters) and
 * bounded; linear in lines × positionals.
 *
 * - GNU diff `FILES are 'FILE1 FILE2' or …`, pg_format `file.sql can be … multiple files`, minify's
 *   `Input:` section opening with a plural: several (`readPositionalShape`);
 * - a title `Optional arguments:` listing the name, or a name spelled `optional foo`: optional;
 * - zip `[zipfile list]` with `If zipfile and list are omitted`: two arguments;
 * - `filename filename2 filenameN`: one variadic `filename`;
 * - `If no FILE is given`, `By default, the source is …`, an entry saying `defaults to`: optional
 *   (`readPositionalsLetOut`).
 */
import type { CliPositional } from './spec.ts';
import type { PositionalClaimer } from './reader/claims.ts';

/** Lower case, no spaces, no plural `s`: `file names` and `filename`, `the sources` and `source` compare alike. */
function nounKey(noun: string): string {
  return noun.toLowerCase().replace(/[\s_-]+/g, '').replace(/s$/, '');
}

/** The shape the prose gives right after the entries: several (diff, pg_format, minify), optional (a titled list, a marker). */
export function readPositionalShape(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  markMultiWordPositionals(positionals, lines, claim);
  markPluralPositionals(positionals, lines, claim);
  markOptionalListedPositionals(positionals, lines, claim);
  withoutOptionalMarker(positionals, claim);
}

/** What the prose lets out, after the numbered runs collapse: `If no FILE is given`, a stated default. */
export function readPositionalsLetOut(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  markPositionalsProseLetOut(positionals, lines, claim);
  markPositionalsDefaultedInProse(positionals, lines, claim);
  markPositionalsDefaultedInEntry(positionals, lines, claim);
}

/**
 * GNU diff: `Usage: diff [OPTION]... FILES` and, below, `FILES are 'FILE1 FILE2' or 'DIR1 DIR2'.`:
 * a sentence defining the name by quoted alternatives of several words says it stands for several
 * arguments (in place).
 */
function markMultiWordPositionals(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  for (const positional of positionals) {
    if (positional.variadic || !/^[A-Z][A-Z0-9_-]{0,30}$/.test(positional.name)) continue;
    const definition = new RegExp(String.raw`\b${positional.name} (?:are|is) ('[^'\s]{1,40}(?: [^'\s]{1,40})+'(?: or '[^']{1,80}')*)`);
    if (lines.some((line) => definition.test(line))) claim(positional, 'variadic', true);
  }
}

/**
 * zip `[zipfile list]` with `If zipfile and list are omitted, …` below: a bracket of two bare words
 * reads as one name (pip `[requirement specifier]`) unless the prose names each word on its own,
 * joined by `and` / `or`; then they are two arguments, and a word naming a collection (`list`, a
 * plural) repeats. Returns the positionals, split where so.
 */
export function splitProseNamedPositionals(positionals: readonly CliPositional[], lines: readonly string[]): CliPositional[] {
  return positionals.flatMap((positional) => {
    const words = /^([a-z][a-z0-9_-]{1,30}) ([a-z][a-z0-9_-]{1,30})$/.exec(positional.name);
    if (words === null) return [positional];
    const [first, second] = [words[1] ?? '', words[2] ?? ''];
    const named = new RegExp(String.raw`\b${first} (?:and|or) ${second}\b`);
    if (!lines.some((line) => named.test(line))) return [positional];
    const collection = /^(?:[a-z]+list|list|[a-z]+[^suis_-]s)$/.test(second) || positional.variadic;
    return [
      { ...positional, name: first, variadic: false },
      { ...positional, name: second, variadic: collection },
    ];
  });
}

/**
 * Pod::Usage (pg_format) `Usage: pg_format [options] file.sql` and, below, `file.sql can be a file,
 * multiple files or use - to read query from stdin.`: a sentence about the name saying it may be
 * several makes it variadic (in place).
 */
function markPluralPositionals(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  for (const positional of positionals) {
    if (positional.variadic) continue;
    const name = positional.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const sentence = new RegExp(String.raw`^\s*${name}\s+(?:can|may)\s+be\b[^.]{0,80}\b(?:multiple|several|one or more)\s+[a-z]+s\b`);
    if (lines.some((line) => sentence.test(line))) claim(positional, 'variadic', true);
    else if (titledSectionOpensPlural(lines, positional.name)) claim(positional, 'variadic', true);
    // autom4te `[FILES]` over `If some of the FILES are named 'FILE.m4f'`: prose counting out of the
    // plural name (GNU grep's one `PATTERNS` argument is never spoken of so)
    else if (/^[A-Z][A-Z0-9_]*[^SU_]S$/.test(positional.name) && new RegExp(String.raw`\b(?:some|each|any|all|none|one) of (?:the )?${name}\b`).test(lines.join(' '))) claim(positional, 'variadic', true);
  }
}

/** `Files or directories, leave blank to use stdin.`: a description opening with a plural noun (or two joined by `or`/`and`). */
// (stylelint `Files(s), glob(s), or nothing to use stdin.`: a noun counted with `(s)` too)
const PLURAL_OPENING = /^(?:[A-Z][a-z]{2,20}(?:s|\(s\)))(?:\s+(?:or|and)\s+[a-z]{3,20}(?:s|\(s\)))?(?:[,.;:]|\s+(?:to|of|or|and|that|which)\b)/;

/**
 * minify `Usage: minify [options] [input]` with a section `Input:` whose text reads `Files or
 * directories, leave blank to use stdin.`: the section titled with the positional's name says it
 * takes several.
 */
function titledSectionOpensPlural(lines: readonly string[], name: string): boolean {
  const title = lines.findIndex((line) => line.trim().toLowerCase() === `${name.toLowerCase()}:` && !/^\s/.test(line));
  const first = title < 0 ? '' : (lines[title + 1] ?? '');
  if (/^\s+\S/.test(first) && PLURAL_OPENING.test(first.trim())) return true;
  // stylelint (meow layout, titles indented by two) `  Input: Files(s), glob(s), or nothing to use stdin.`:
  // the text on the title's own line
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const inline = new RegExp(String.raw`^ {0,2}${escaped}:\s+(\S.*)$`, 'i');
  return lines.some((line) => PLURAL_OPENING.test(inline.exec(line)?.[1] ?? ''));
}

const OPTIONAL_TITLE = /^\s*optional (?:parameters|arguments|positionals)\s*:?\s*$/i;
/** A title flush left that ends the list: one to four words, no gap. */
const NEXT_TITLE = /^[A-Za-z*][^\s:]*(?: [^\s:]+){0,3}:?\s*$/;
/** Lines read under the title at most. */
const MAX_LINES = 40;

function markOptionalListedPositionals(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
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

function withoutOptionalMarker(positionals: CliPositional[], claim: PositionalClaimer): void {
  for (const positional of positionals) {
    const rest = positional.required ? null : OPTIONAL_MARKER.exec(positional.name)?.[1];
    if (rest !== undefined && rest !== null && !positionals.some((other) => other.name === rest)) claim(positional, 'name', rest);
  }
}

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


/**
 * `If no file names are given`, `With no FILE`, `When no files are specified`: the prose says none need
 * be given (a conjunction after the noun, `If no filenames or "-" is specified`, is no word of it).
 */
const NONE_GIVEN = /\b(?:if|when|with) no ([A-Za-z][A-Za-z_-]{1,20}(?: (?!(?:or|and|nor)\b)[a-z]{2,12})?)(?: (?:is|are) (?:given|specified|provided))?(?=[\s,.;]|$)/gi;

function markPositionalsProseLetOut(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  const text = lines.join(' ');
  const nouns = new Set([...text.matchAll(NONE_GIVEN)].map((match) => nounKey(match[1] ?? '')));
  // lrzip `<file...>` with `If no filenames or "-" is specified`: a file's name stands for the file
  for (const noun of [...nouns]) if (/^\w+names?$/.test(noun) && noun.endsWith('name')) nouns.add(noun.slice(0, -'name'.length));
  for (const positional of positionals) {
    if (positional.required && positional.variadic && nouns.has(nounKey(positional.name))) claim(positional, 'required', false);
  }
}


/**
 * buf `buf format <source> [flags]` with `By default, the source is the current directory`: prose
 * stating what the argument is when left out (`By default, the X is …`, `The X defaults to …`) says it
 * may be left out, whatever brackets the usage gives it. Read on prose lines only (an option's entry,
 * `-d DIR  the dir defaults to …`, states its own value).
 */
const DEFAULT_STATED = /\bby default,? the ([A-Za-z][\w-]{1,30}) (?:is|are)\b|\bthe ([A-Za-z][\w-]{1,30}) defaults to\b/gi;

function markPositionalsDefaultedInProse(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  const prose = lines.filter((line) => !/^\s*-/.test(line)).join(' ');
  const nouns = new Set([...prose.matchAll(DEFAULT_STATED)].map((match) => nounKey(match[1] ?? match[2] ?? '')));
  for (const positional of positionals) if (positional.required && nouns.has(nounKey(positional.name))) claim(positional, 'required', false);
}

/**
 * npm-check `Usage $ npm-check <path> <options>` over a `Path` entry reading `Where to check. Defaults
 * to current directory.`: an argument's own entry (its name heading a line, alone or before a column
 * gap) whose description states a default may be left out. The description is the rest of the head
 * line and the lines indented under it (blank lines inside included).
 */
const ENTRY_DEFAULT = /\bdefaults? (?:to|is)\b|[([]default[:=]|\bdefault: |\b(?:if|when) omitted\b|\bthe default [\w ]{0,30}\bis\b/i;
/** Lines of an entry's description read at most (Pod's entries run over paragraphs: plackup `.psgi`). */
const MAX_DESCRIPTION_LINES = 8;

function markPositionalsDefaultedInEntry(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  const wanted = new Map(positionals.filter((positional) => positional.required).map((positional) => [nounKey(positional.name), positional]));
  if (wanted.size === 0) return;
  lines.forEach((line, index) => {
    const head = /^(\s{0,8})[<[]?(\.?[A-Za-z][\w-]{0,30})[>\]]?(?:\s{2,}(\S.*)|\s*)$/.exec(line);
    const positional = head === null ? undefined : wanted.get(nounKey(head[2] ?? ''));
    if (head === null || positional === undefined) return;
    const indent = (head[1] ?? '').length;
    const description = [head[3] ?? ''];
    for (const next of lines.slice(index + 1, index + 1 + MAX_DESCRIPTION_LINES)) {
      const nextIndent = /^\s*/.exec(next)?.[0].length ?? 0;
      // (a blank line inside the entry goes on while the text under it stays indented deeper: Pod's paragraphs)
      if (next.trim().length === 0) continue;
      if (nextIndent <= indent || /^\s*-/.test(next)) break;
      description.push(next.trim());
    }
    if (ENTRY_DEFAULT.test(description.join(' '))) claim(positional, 'required', false);
  });
}
