/**
 * yargs karma declares no types: its author writes each value's placeholder at the start of the
 * description (`--port   <integer> Port where the server is running.`), and the framework prints no
 * placeholder of its own. As in meow's helps, those hand-written placeholders say nothing about the
 * options that show none (`--reporters   List of reporters …`): their descriptions are read
 * (description-values.ts) as in a help that shows no placeholder at all.
 */
import type { Entry } from './help-scan.ts';
import { OPENING_PLACEHOLDER, splitHead } from './option-head.ts';

/**
 * True when some option entry's description opens with a placeholder and no entry shows one in its
 * head (the spellings column).
 */
export function placeholdersOpenDescriptions(entries: readonly Entry[]): boolean {
  let opening = false;
  for (const entry of entries) {
    if (entry.kind !== 'option' || entry.option === null) continue;
    const { head, rest } = splitHead(entry.head);
    // a placeholder in the spellings column is the framework's (or the author's own layout): not this form
    if (/[<[{=]|\s[A-Z][A-Z0-9_]{1,20}(?:\s|$)/.test(head.replace(/^\s*-{1,2}[\w-]+(?:,\s*-{1,2}[\w-]+)*/, ''))) return false;
    if (OPENING_PLACEHOLDER.test(rest)) opening = true;
  }
  return opening;
}
