/**
 * rdfind's layout: `-checksum   md5 |(sha1)| sha256   checksum type`, `-ignoreempty (true)| false
 * ignore empty files`, under `options are (default choice within parentheses)`. The description
 * opens with the values joined by `|`, exactly one of them in parentheses: that one is the default,
 * and the option takes one of them, though the head shows no placeholder. Only a list with one marked
 * item counts: a bare `a|b` opening a description is too often prose or a pattern.
 */
import type { CliOption } from './spec.ts';

const ITEM = String.raw`(?:\([a-z0-9][\w.-]{0,30}\)|[a-z0-9][\w.-]{0,30})`;
const OPENING_LIST = new RegExp(String.raw`^(${ITEM}(?:\s?\|\s?${ITEM}){1,20})(?=\s|$)`);

/** The values and the parenthesized default opening a description, and the rest of it, or null. */
export function markedDefaultBarList(description: string): { choices: string[]; default: string; rest: string } | null {
  const text = description.trim();
  const match = OPENING_LIST.exec(text);
  if (match === null) return null;
  const items = (match[1] ?? '').split(/\s?\|\s?/);
  const marked = items.filter((item) => item.startsWith('('));
  if (marked.length !== 1) return null;
  const choices = items.map((item) => item.replace(/^\((.*)\)$/, '$1'));
  if (new Set(choices).size !== choices.length) return null;
  return { choices, default: (marked[0] ?? '').slice(1, -1), rest: text.slice(match[0].length).trim() };
}

/** Makes each switch whose description opens with such a list take one of its values. */
export function applyMarkedDefaultBarLists(options: CliOption[]): void {
  for (const option of options) {
    if (option.takes_value || option.description === null) continue;
    const list = markedDefaultBarList(option.description);
    if (list === null) continue;
    option.takes_value = true;
    option.type = 'string';
    option.choices = list.choices;
    option.default = list.default;
    option.description = list.rest;
  }
}
