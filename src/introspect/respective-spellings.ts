/**
 * pigz `--fast, --best   Compression levels 1 and 9 respectively`: two long spellings whose
 * description gives each its own meaning (`respectively`) are two flags, not one flag and an alias.
 */
import type { Entry } from './help-scan.ts';
import type { CliOption } from './spec.ts';

/**
 * zbarimg `--xml, --noxml  enable/disable XML output format`: a description opening with two opposite
 * verbs joined by a slash gives the two spellings one each, as `respectively` does.
 */
const PAIRED_VERBS = /^(?:enable\/disable|disable\/enable)\s/i;

/** hashdeep `-M and -X act like -m and -x, but …`: a short spelling joined to the first by `and`, then the description. */
const AND_JOINED_SHORT = /^and\s+-([A-Za-z0-9])\s+(\S[\s\S]*)$/;

export function splitRespectiveSpellings(entry: Entry, option: CliOption): CliOption[] {
  const head = entry.option;
  // (hashdeep `-M and -X act like …`: two flags described together, one sentence for both)
  const joined = head !== null && !option.takes_value && option.long === null && option.short !== null && option.aliases.length === 0 ? AND_JOINED_SHORT.exec(option.description ?? '') : null;
  if (joined !== null) {
    const own: CliOption = { ...option, description: joined[2] ?? null };
    return [own, { ...own, short: joined[1] ?? null }];
  }
  if (head === null || option.takes_value || head.shorts.length > 0 || head.longs.length !== 1 || head.aliases.length !== 1 || !(/\brespectively\b/i.test(option.description ?? '') || PAIRED_VERBS.test(option.description ?? ''))) return [option];
  const second = /^--([A-Za-z0-9][\w-]*)$/.exec(head.aliases[0] ?? '')?.[1];
  if (second === undefined) return [option];
  const own: CliOption = { ...option, aliases: [] };
  return [own, { ...own, long: second, negation: null, default: null }];
}

/**
 * Go's `flag` package gives a flag one name only, so a Go help listing several single-dash names in
 * one head lists several flags sharing a description: mkcert `-cert-file FILE, -key-file FILE,
 * -p12-file FILE   Customize the output paths.`
 */
export function splitGoFlagSpellings(option: CliOption, goHelp: boolean): CliOption[] {
  if (!goHelp || option.prefix !== '-' || option.long === null || option.aliases.length === 0) return [option];
  const names = option.aliases.map((alias) => /^-([A-Za-z][\w-]+)$/.exec(alias)?.[1]);
  if (names.some((name) => name === undefined)) return [option];
  const own: CliOption = { ...option, aliases: [] };
  return [own, ...names.map((name) => ({ ...own, long: name ?? '' }))];
}
