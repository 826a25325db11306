/**
 * Some hand-written helps list their options by name alone, without dashes, under an `Options`
 * title (electron-packager, parsed by yargs-parser):
 *
 *   Options
 *
 *   all                equivalent to --platform=all --arch=all
 *   app-copyright      human-readable copyright line for the app
 *   darwin-dark-mode-support
 *                      forces support for Mojave/10.14 dark mode in the packaged app
 *
 * while their prose spells the same names with dashes (`--platform=all`, `--no-prune`). When no
 * entry of the list has a dash and at least two of its names are spelled `--name` elsewhere in the
 * help, `withDashedBareOptionNames` gives every entry its `--` (two spaces of its gap go where it
 * has them to spare, so the description column stays), and the option passes read them as any other list.
 */

/** `Options` or `Options:` alone on a line: the title of the list. */
const OPTIONS_TITLE = /^\s*options:?\s*$/i;
/** A bare name, then a gap of at least two spaces and its description, or the name alone. */
const BARE_ENTRY = /^( *)([a-z][a-z0-9]*(?:[-.][a-z0-9]+){0,6})(?:( {2,})(\S.*))?$/;
/** A title that closes the options list. */
const CLOSING_TITLE = /^\s*(?:usage|examples?|commands|arguments|environment|see also)\b[^.]{0,40}:?\s*$/i;
/** At least this many of the listed names spelled with dashes elsewhere in the help. */
const MIN_DASHED_MENTIONS = 2;
const MAX_CHECKED = 100;

interface BareEntry {
  index: number;
  name: string;
}

/** The entries of the first list under an `Options` title, or null when some entry there has a dash. */
function bareEntries(lines: readonly string[]): BareEntry[] | null {
  const title = lines.findIndex((line) => OPTIONS_TITLE.test(line));
  if (title === -1) return null;
  const entries: BareEntry[] = [];
  let entryIndent: number | null = null;
  for (let index = title + 1; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (CLOSING_TITLE.test(line)) break;
    if (/^\s*--?[A-Za-z]/.test(line) && (entryIndent === null || /^ */.exec(line)?.[0].length === entryIndent)) return null;
    const entry = BARE_ENTRY.exec(line);
    if (entry === null) continue;
    const indent = (entry[1] ?? '').length;
    if (entryIndent !== null && indent !== entryIndent) continue;
    // a name alone has its description on the next line, deeper
    const next = lines[index + 1] ?? '';
    if (entry[4] === undefined && (/^ */.exec(next)?.[0].length ?? 0) <= indent + 4) continue;
    entryIndent = indent;
    entries.push({ index, name: entry[2] ?? '' });
  }
  return entries;
}

/** Lines with `--` before each bare option name, when the help spells its names so elsewhere; otherwise unchanged. */
export function withDashedBareOptionNames(lines: readonly string[]): string[] {
  const entries = bareEntries(lines);
  if (entries === null || entries.length < 2) return [...lines];
  const text = lines.join('\n');
  // (at most MAX_CHECKED names are looked up, each a scan of the whole help)
  let dashed = 0;
  for (const entry of entries.slice(0, MAX_CHECKED)) {
    if (new RegExp(String.raw`(?:^|[\s\`'"(])--${entry.name.replace(/\./g, '\\.')}(?![\w-])`, 'm').test(text)) dashed += 1;
    if (dashed >= MIN_DASHED_MENTIONS) break;
  }
  if (dashed < MIN_DASHED_MENTIONS) return [...lines];
  const result = [...lines];
  for (const entry of entries) {
    const match = BARE_ENTRY.exec(result[entry.index] ?? '');
    if (match === null) continue;
    const [indent, name, gap, description] = [match[1] ?? '', match[2] ?? '', match[3], match[4]];
    result[entry.index] = gap === undefined || description === undefined ? `${indent}--${name}` : `${indent}--${name}${gap.length >= 4 ? gap.slice(2) : '  '}${description}`;
  }
  return result;
}
