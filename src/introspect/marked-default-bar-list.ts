/**
 * Layouts that put the values where a placeholder would be, in the description of a head that shows
 * none. (rdfind's `md5 |(sha1)| sha256` column, the values opening the description with the default in
 * parentheses, is read with the head: option-head.ts, MARKED_DEFAULT_BAR_COLUMN.)
 */
import type { Claimer } from './reader/claims.ts';
import type { CliOption } from './spec.ts';

/**
 * nopt's layout (js-beautify `--type   [js|css|html] ["js"]`): the values in brackets joined by `|`
 * open the description of a head showing no placeholder, maybe followed by the default quoted in
 * brackets. Not a bracket glued to more of the value (`[a|b][,c]`: a pattern).
 */
const BRACKETED_OPENING = new RegExp(String.raw`^\[([a-z0-9][\w.-]{0,30}(?:\|[a-z0-9][\w.-]{0,30}){1,20})\](?:\s+\["([\w.-]{1,30})"\])?(?=\s|$)`);

export function bracketedOpeningList(description: string): { choices: string[]; default: string | null; rest: string } | null {
  const text = description.trim();
  const match = BRACKETED_OPENING.exec(text);
  if (match === null) return null;
  const choices = (match[1] ?? '').split('|');
  const stated = match[2];
  if (new Set(choices).size !== choices.length || (stated !== undefined && !choices.includes(stated))) return null;
  return { choices, default: stated ?? null, rest: text.slice(match[0].length).trim() };
}

/**
 * Dart's args layout (sass `--source-map-urls   How to link … files.` over `[relative (default),
 * absolute]`): the allowed values in brackets, joined by commas, one marked `(default)`, closing the
 * description of a head showing no placeholder (dart prints none for an option with allowed values).
 */
const CLOSING_MARKED_LIST = /(?:^|[.:!?]\s+)\[([a-z0-9][\w.-]{0,30}(?: \(default\))?(?:, [a-z0-9][\w.-]{0,30}(?: \(default\))?){1,20})\]$/;

export function closingMarkedList(description: string): { choices: string[]; default: string; rest: string } | null {
  const text = description.trim();
  const match = CLOSING_MARKED_LIST.exec(text);
  if (match === null) return null;
  const items = (match[1] ?? '').split(', ');
  const marked = items.filter((item) => item.endsWith(' (default)'));
  if (marked.length !== 1) return null;
  const choices = items.map((item) => item.replace(/ \(default\)$/, ''));
  if (new Set(choices).size !== choices.length) return null;
  return { choices, default: (marked[0] ?? '').replace(/ \(default\)$/, ''), rest: text.slice(0, match.index + (/^[.:!?]/.test(match[0]) ? 1 : 0)).trim() };
}

/** Makes each switch whose description holds such a list take one of its values. */
export function applyMarkedDefaultBarLists(options: CliOption[], claim: Claimer): void {
  for (const option of options) {
    if (option.takes_value || option.description === null) continue;
    // (a negatable dart flag, `--[no-]x`, is a switch whatever its description says)
    const list = bracketedOpeningList(option.description) ?? (option.negation === null ? closingMarkedList(option.description) : null);
    if (list === null) continue;
    claim(option, 'takes_value', true);
    claim(option, 'default', list.default, 'string');
    claim(option, 'choices', list.choices);
    claim(option, 'description', list.rest);
  }
}
