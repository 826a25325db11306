/**
 * The pieces of a value list written in prose that description facts (annotations.ts) and the
 * option-list passes (listed-choices.ts) both read: one list item, the words that make a list a set
 * of examples, and clap's starred default in a parenthesized list.
 */

/** One value of a list written in prose: `auto`, `from-zero`, `iec-i`, `packageManager`, `512224`. */
export const LIST_ITEM = String.raw`[a-z0-9][\w.-]{0,30}`;

/** Words before a list saying its items are members of something larger or examples of it. */
export const EXAMPLE_CUE = /\b(?:known|built-?in|existing|such as|e\.g|for example|for instance|including|like)\b/i;
/** sqruff `(e.g., bigquery, clickhouse, ansi)`, `(such as a, b, c)`: a list opened by an example cue names examples. */
export const EXAMPLE_OPENING = /^\s*(?:e\.\s?g\.?|eg\.|for example|for instance|such as|including|like)[\s,:]/i;

/**
 * clap (bat) marks the default of a parenthesized list with asterisks: `(*auto*, never, always)`,
 * `(always, *never*)`. Exactly one starred item among two or more; the list is the choices.
 */
export function starredList(description: string): { choices: string[]; starred: string } | null {
  const list = new RegExp(String.raw`\((\*?${LIST_ITEM}\*?(?:,\s*\*?${LIST_ITEM}\*?){1,30})\)`).exec(description);
  if (list === null) return null;
  const items = (list[1] ?? '').split(/,\s*/);
  const starred = items.filter((item) => /^\*[^*]+\*$/.test(item));
  if (starred.length !== 1 || items.some((item) => /^\*[^*]*$|^[^*]+\*$/.test(item))) return null;
  return { choices: items.map((item) => item.replace(/^\*|\*$/g, '')), starred: (starred[0] ?? '').slice(1, -1) };
}
