/**
 * getopt helps written by hand run the description on after one space (`-v show version`), so a
 * head of a flag and two lower-case words reads like jq's `--arg name value`. The usage form says
 * which it is: `jo [-a] … [-d keydelim] … [-v]` writes the flag bare in a bracket of its own where
 * it takes no value, so the two words begin its description.
 */
import type { Entry } from './help-scan.ts';

/** `[-v]`, `[--verbose]`: a bracket holding one flag and nothing else. */
const BARE_FLAG_GROUP = /\[(--?[A-Za-z0-9][\w-]{0,40})\]/g;

/** The flags the usage forms show bare, each in a bracket of its own. */
export function usageBareFlags(usageForms: readonly string[]): Set<string> {
  const flags = new Set<string>();
  for (const form of usageForms) for (const group of form.matchAll(BARE_FLAG_GROUP)) flags.add(group[1] ?? '');
  return flags;
}

/**
 * The entry with its two jq-style placeholder words given back to the description when the usage
 * shows its only spelling bare; otherwise the entry as it is.
 */
export function withUsageBareFlag(entry: Entry, bare: ReadonlySet<string>): Entry {
  const head = entry.option;
  if (head === null || head.valueCount !== 2 || !/^[a-z][\w-]*$/.test(head.valueName ?? '')) return entry;
  const spellings = [...head.shorts.map((short) => `-${short}`), ...head.longs.map((long) => `${long.dashes}${long.name}`)];
  const spelling = spellings[0];
  if (spellings.length !== 1 || spelling === undefined || !bare.has(spelling)) return entry;
  const words = entry.head.trim().slice(spelling.length).trim();
  if (!entry.head.trim().startsWith(`${spelling} `)) return entry;
  const rest = [words, head.rest].filter((part) => part.length > 0).join(' ');
  return { ...entry, option: { ...head, valueName: null, valueCount: 0, valueOptional: false, rest } };
}
