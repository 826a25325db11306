/**
 * opusenc aligns descriptions in one column and lets a long head push its value name into it,
 * one space short of the gap: ` --framesize n      Set maximum…` / ` --raw-endianness n 1 for big
 * endian, 0 for little`. A head without a value whose description starts with a lower-case word
 * that other options of the help show as their value name, followed by one space that ends exactly
 * at the column where the other options' descriptions start, names its value with that word (tree:
 * `--filelimit # Do not descend…`, where the usage writes `[--filelimit #]`, counts too). A word
 * no other line shows counts when single spaces alone set it off (pngquant `--quality min-max don't…`):
 * a gap before it would make it the description's first word.
 */
import type { Entry } from './help-scan.ts';

/** The most common description column of the option entries (ties: the first seen). */
function commonColumn(entries: readonly Entry[]): number | null {
  const counts = new Map<number, number>();
  for (const entry of entries) {
    if (entry.kind === 'option' && entry.descriptionColumn !== null) counts.set(entry.descriptionColumn, (counts.get(entry.descriptionColumn) ?? 0) + 1);
  }
  let best: number | null = null;
  for (const [column, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = column;
  return best;
}

/** tree `[--filelimit #]`: the word a usage form writes right after the option's spelling. */
function usageValueOf(spelling: string, forms: readonly string[]): string | undefined {
  const escaped = spelling.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const form of forms) {
    const value = new RegExp(String.raw`(?:^|[\s[])${escaped}\s+([^\s\]|-][^\s\]|]{0,20})`).exec(form)?.[1];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Whether two heads share their first long (else short) spelling. */
function sameSpelling(one: NonNullable<Entry['option']>, other: NonNullable<Entry['option']>): boolean {
  const long = one.longs[0]?.name;
  return long !== undefined ? long === other.longs[0]?.name : one.shorts[0] !== undefined && one.shorts[0] === other.shorts[0];
}

/**
 * node `cli` (jshint) pads heads to a fixed width and glues a longer head's value name to the
 * description: `--exclude-path STRINGPass in a custom …`. An upper-case value name other options
 * show, right before a capitalized word and reaching the common column or past it, is the value's name.
 */
function gluedValueName(entry: Entry, rest: string, names: ReadonlySet<string>, column: number): string | null {
  const word = /^([A-Z][A-Z0-9_]{1,20}?)(?=[A-Z][a-z])/.exec(rest)?.[1];
  if (word === undefined || !names.has(word)) return null;
  const restAt = entry.head.indexOf(rest);
  return restAt > 0 && entry.indent + restAt + word.length >= column ? word : null;
}

export function applyOverflowingValueNames(entries: readonly Entry[], usageForms: readonly string[] = []): void {
  const options = entries.filter((entry) => entry.kind === 'option' && entry.option !== null);
  const valueNames = new Set(options.map((entry) => entry.option?.valueName ?? '').filter((name) => /^[a-z][\w-]{0,10}$/.test(name)));
  const upperValueNames = new Set(options.map((entry) => entry.option?.valueName ?? '').filter((name) => /^[A-Z][A-Z0-9_]{1,20}$/.test(name)));
  const column = commonColumn(options);
  if (column === null) return;
  for (const entry of options) {
    const head = entry.option;
    if (head === null || head.valueName !== null || head.choices !== null) continue;
    const glued = gluedValueName(entry, head.rest, upperValueNames, column);
    if (glued !== null) {
      entry.option = { ...head, valueName: glued, rest: head.rest.slice(glued.length) };
      continue;
    }
    // (cog `-D name=val Define a global…`: a `key=value` pair names the value too)
    // (gojq `--slurpfile name file set the JSON…` under `--arg name value  set…`: two words (two values) end there too)
    // (exiv2 `-S .suf Use suffix .suf for source files`: a file suffix, as pigz's `--suffix .sss`)
    const overflow = /^([a-z][\w-]{0,30}(?:=[a-z][\w-]{0,30})?|#|\.[a-z]{1,8})(?: ([a-z][\w-]{0,30}))? (\S.*)$/.exec(head.rest);
    const word = overflow?.[1];
    const second = overflow?.[2];
    const spelling = head.longs[0] !== undefined ? `${head.longs[0].dashes}${head.longs[0].name}` : `-${head.shorts[0] ?? ''}`;
    if (word === undefined) continue;
    const restAt = entry.head.indexOf(head.rest);
    // Go `flag` (aptly) `-with-udebs: download .udeb packages`: a colon closing the spelling ends the head,
    // so the word after it opens the description however far it reaches
    if (restAt > 0 && /:\s*$/.test(entry.head.slice(0, restAt))) continue;
    // pngquant `--quality min-max don't save…`: the whole line set off by single spaces, the word after
    // the spelling ending one space short of the column: a value name though no other option shows it
    const setOffByOneSpace = restAt > 0 && !/\s{2,}$/.test(entry.head.slice(0, restAt));
    // libjpeg `-copy comments Copy only…` among `-copy none     Copy no…` lines: the same spelling shows a word of its own on other lines
    const spelledWithWords = options.some((other) => other !== entry && other.option?.valueName !== undefined && /^[a-z][\w-]{0,30}$/.test(other.option.valueName ?? '') && sameSpelling(other.option, head));
    if (!(valueNames.has(word) || usageValueOf(spelling, usageForms) === word || setOffByOneSpace || spelledWithWords)) continue;
    const restStart = entry.indent + restAt;
    const valueWidth = second === undefined ? word.length : word.length + 1 + second.length;
    if (restStart + valueWidth + 1 !== column) {
      if (second === undefined || restStart + word.length + 1 !== column) continue;
      entry.option = { ...head, valueName: word, rest: `${second} ${overflow?.[3] ?? ''}` };
      continue;
    }
    entry.option = second === undefined ? { ...head, valueName: word, rest: overflow?.[3] ?? '' } : { ...head, valueName: word, valueCount: 2, rest: overflow?.[3] ?? '' };
  }
}
