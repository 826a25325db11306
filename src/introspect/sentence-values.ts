/**
 * Pod::Usage (pod2text) explains each value of an option in a sentence of its own, opening with the
 * value quoted: `Set the error handling style. "die" says to throw an exception … "stderr" says to
 * report errors … "pod" says to include … "none" ignores POD errors entirely.` Three or more quoted
 * words that each open a sentence are the option's values.
 */

/** A quoted word opening a sentence, then the sentence going on in lower case. */
const OPENING_QUOTED = /(?:^|[.!;]\s+)"([a-z0-9][\w.-]{0,30})"\s+[a-z]/g;
const MAX_ITEMS = 30;

/** The quoted words opening the description's sentences, when there are three or more; else null. */
export function sentenceOpeningChoices(description: string): string[] | null {
  const items: string[] = [];
  for (const match of description.matchAll(OPENING_QUOTED)) {
    const item = match[1] ?? '';
    if (!items.includes(item)) items.push(item);
    if (items.length > MAX_ITEMS) return null;
  }
  return items.length >= 3 ? items : null;
}
