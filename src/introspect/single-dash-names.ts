/**
 * Helps whose options are single-dash names of several letters (xpdf / poppler: `-layout`, `-raw`,
 * `-htmlmeta`, `-bbox-layout`): a head that the option-head reader split into a letter and a glued
 * lower-case placeholder because the description repeats the word (ruby's `-Cdirectory  cd to
 * directory`; poppler's `-bbox  : output bounding box for each word`) is one more name of that kind
 * when three or more other entries of the list are such names and the head shows nothing else.
 */
import type { Entry } from './help-scan.ts';

/** At least this many other single-dash names of several letters make the help's style. */
const MIN_NAMES = 3;

export function applySingleDashNames(entries: readonly Entry[]): void {
  const names = entries.filter((entry) => entry.kind === 'option' && entry.option !== null && entry.option.shorts.length === 0 && entry.option.longs.length === 1 && entry.option.longs[0]?.dashes === '-' && (entry.option.longs[0]?.name.length ?? 0) > 1);
  if (names.length < MIN_NAMES) return;
  for (const entry of entries) {
    const option = entry.option;
    if (entry.kind !== 'option' || option === null || option.shorts.length !== 1 || option.longs.length > 0 || option.valueName === null || option.choices !== null) continue;
    const glued = `-${option.shorts[0] ?? ''}${option.valueName}`;
    // only the whole head: `-bbox` then a gap, a colon or the end (`-b box`, `-b <box>` show a value)
    if (!new RegExp(String.raw`^${glued.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?::|\s|$)`).test(entry.head) || !/^[a-z]{2,20}$/.test(option.valueName)) continue;
    entry.option = { ...option, shorts: [], longs: [{ dashes: '-', name: glued.slice(1) }], valueName: null, valueOptional: false, repeatable: false };
  }
}
