/**
 * BusyBox's way of listing one-letter flags. Its usage line gathers every flag without a value in
 * one cluster (`ls [-1AaCxdLHRFplinshrSXvctu] [-w WIDTH] [FILE]...`), and its option list may then
 * describe a combination of them on one line (`-lc  List ctime`, `-tu  Sort by atime`) while leaving
 * a letter out (`-C`). Sibling flags described together are written glued by a comma
 * (`-4,-6  Force IP or IPv6 name resolution`), where aliases would be `-a, --all`.
 */
import type { Entry } from './help-scan.ts';
import type { CliOption } from './spec.ts';
import type { OptionClaims } from './reader/claims.ts';

/**
 * `[-1AaCxdL]` in a usage form: a bracketed cluster of one-letter flags (cowsay `[-l] [-n]`: one
 * flag alone in its bracket too, named nowhere else).
 */
const USAGE_CLUSTER = /\[-([A-Za-z0-9]{1,60})\]/g;
/** `-4,-6` opening an option line: one-letter spellings joined by a comma without a space. */
const SIBLING_SHORTS = /^-[A-Za-z0-9](?:,-[A-Za-z0-9])+(?=\s|$)/;
/** zip `[-options]`: a dash before the word for options is the options placeholder, no cluster of letters. */
const OPTIONS_WORD = /^(?:options?|opts|flags?|switches)$/i;
/** Letters never added from a cluster alone: help and version stay out of the spec. */
const UNLISTED_SKIPPED = new Set(['h', '?', 'V']);

/**
 * The flag letters the usage forms show in `[-abc]` clusters; Go's `[-gnu]`, argparse's `[-nv]`
 * naming a listed single-dash spelling (`-gnu`, `-nv, --no-version`) is that option, no cluster.
 */
function clusterLetters(usageForms: readonly string[], spellings: ReadonlySet<string>): Set<string> {
  const letters = new Set<string>();
  for (const form of usageForms) {
    for (const match of form.matchAll(USAGE_CLUSTER)) {
      const cluster = match[1] ?? '';
      if (!spellings.has(cluster) && !OPTIONS_WORD.test(cluster)) for (const letter of cluster) letters.add(letter);
    }
  }
  return letters;
}

function flagOption(letter: string, description: string | null): CliOption {
  return {
    long: null, short: letter, aliases: [], takes_value: false, value_name: null, type: 'boolean', default: null,
    choices: null, repeatable: false, required: false, negation: null, description,
  };
}

/** bsdtar `-z, -j, -J, --lzma` opening an option line: three or more flag spellings, no value. */
const SPELLING_RUN = /^(-[A-Za-z0-9](?:, -[A-Za-z0-9]){1,8})(?:, --([a-z][\w-]{0,30}))?(?=\s{2,}|$)/;

/**
 * bsdtar `-z, -j, -J, --lzma  Compress archive with gzip/bzip2/xz/lzma`: three or more flag spellings
 * over a description naming as many slash-joined alternatives are sibling flags, one per alternative,
 * not aliases (`-a, --all` pairs a short with its long; a run of three with a matching count is no pair).
 */
function splitCountedSpellings(entry: Entry, option: CliOption): CliOption[] | null {
  const run = SPELLING_RUN.exec(entry.head);
  if (run === null || option.takes_value) return null;
  const letters = (run[1] ?? '').split(', ').map((spelling) => spelling.slice(1));
  const long = run[2];
  const count = letters.length + (long === undefined ? 0 : 1);
  const alternatives = /(?:^|\s)([a-z0-9][\w.+-]*(?:\/[a-z0-9][\w.+-]*)+)(?=[\s.,;)]|$)/i.exec(option.description ?? '')?.[1]?.split('/') ?? [];
  if (count < 3 || alternatives.length !== count || letters[0] !== option.short) return null;
  const siblings = letters.slice(1).map((letter) => flagOption(letter, option.description));
  const longFlag = long === undefined ? [] : [{ ...flagOption('', option.description), short: null, long }];
  return [{ ...option, long: null, aliases: [] }, ...siblings, ...longFlag];
}

/**
 * `-4,-6  Force IP or IPv6 name resolution`: one option per spelling, each with the description.
 * Any other option comes back as it is.
 */
export function splitSiblingShorts(entry: Entry, option: CliOption): CliOption[] {
  const counted = splitCountedSpellings(entry, option);
  if (counted !== null) return counted;
  const siblings = SIBLING_SHORTS.exec(entry.head);
  if (siblings === null || option.takes_value || option.long !== null || option.short === null) return [option];
  const letters = siblings[0].split(',').map((spelling) => spelling.slice(1));
  if (letters[0] !== option.short) return [option];
  const rest = letters.slice(1);
  const own = { ...option, aliases: option.aliases.filter((alias) => !rest.includes(alias.slice(1))) };
  return [own, ...rest.map((letter) => flagOption(letter, option.description))];
}

/**
 * With a usage cluster `[-1AaCxd…]`: a single-dash spelling of several letters, all in the cluster
 * and taking no value (`-lc`), is a combination, not an option — its letters not listed on their
 * own become flags; so does every other letter of the cluster no entry lists (`-C`). In place.
 */
export function applyUsageFlagClusters(options: CliOption[], usageForms: readonly string[], entries: readonly Entry[], emit: OptionClaims): void {
  const listed = new Set<string>();
  for (const entry of entries) {
    if (entry.kind !== 'option' || entry.option === null) continue;
    for (const short of entry.option.shorts) listed.add(short);
    for (const long of entry.option.longs) if (long.dashes === '-' && long.name.length === 1) listed.add(long.name);
  }
  for (const option of options) {
    if (option.short !== null) listed.add(option.short);
    if (option.prefix === '-' && option.long?.length === 1) listed.add(option.long);
  }
  // Go `-gnu`, argparse `-nv, --no-version`: single-dash spellings of several letters
  const spellings = new Set<string>();
  for (const option of options) {
    if (option.prefix === '-' && option.long !== null) spellings.add(option.long);
    if (option.short !== null && option.short.length > 1) spellings.add(option.short);
  }
  // Pod::Usage `[-help]` names the listed `-help`, dropped from the options as help: still no cluster
  for (const entry of entries) for (const long of entry.option?.longs ?? []) if (long.dashes === '-' && long.name.length > 1) spellings.add(long.name);
  const letters = clusterLetters(usageForms, spellings);
  if (letters.size === 0) return;
  const isCombination = (option: CliOption): boolean =>
    option.prefix === '-' && option.short === null && !option.takes_value && option.long !== null && option.long.length > 1 && [...option.long].every((letter) => letters.has(letter));
  const combinations = options.filter(isCombination);
  if (combinations.length === 0 && ![...letters].some((letter) => !listed.has(letter) && !UNLISTED_SKIPPED.has(letter))) return;
  const kept = options.filter((option) => !isCombination(option));
  for (const letter of letters) {
    if (listed.has(letter) || UNLISTED_SKIPPED.has(letter) || kept.some((option) => option.short === letter)) continue;
    kept.push(emit.exists(flagOption(letter, null)));
  }
  options.splice(0, options.length, ...kept);
}
