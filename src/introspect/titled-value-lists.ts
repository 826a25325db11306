/**
 * inotifywait closes its help with a section titled by the plural of an option's name, a definition
 * list of that option's values under it: `-e|--event <event1>` … `Events:` then `\taccess\t\tfile or
 * directory contents were read`, `\tmodify\t…`. A paragraph of definition lines right under a title
 * of one word that is the plural of exactly one value-taking option's name (or of its value name,
 * digits aside) gives that option its choices, unless it leaves out the option's stated default.
 */
import type { Paragraph } from './help-scan.ts';
import { definitionListChoices } from './listed-choices.ts';
import type { CliOption } from './spec.ts';
import type { Claimer } from './reader/claims.ts';
import { claimChoices } from './reader/option-claims.ts';

/** `Events:` alone on its line: a title of one word. */
const ONE_WORD_TITLE = /^([A-Za-z][a-z]{2,30}):$/;

/** The one-word title on the last non-blank line above the paragraph's first line, or null. */
function titleAbove(paragraph: Paragraph, lines: readonly string[], lineAt: ReadonlyMap<string, number>): string | null {
  const first = paragraph.lines[0];
  const at = first === undefined ? undefined : lineAt.get(first);
  if (at === undefined) return null;
  for (let index = at - 1; index >= 0; index -= 1) {
    const trimmed = (lines[index] ?? '').trim();
    if (trimmed.length === 0) continue;
    return ONE_WORD_TITLE.exec(trimmed)?.[1]?.toLowerCase() ?? null;
  }
  return null;
}

/** The words an option is called by: its long name and its value name without brackets or digits. */
function namesOf(option: CliOption): string[] {
  const value = (option.value_name ?? '').replace(/[<>[\]{}=.]|\d+$/g, '').replace(/\d+$/, '').toLowerCase();
  return [option.long?.toLowerCase() ?? '', value].filter((name) => name.length > 1);
}

export function applyTitledValueLists(options: readonly CliOption[], paragraphs: readonly Paragraph[], lines: readonly string[], claim: Claimer): void {
  // each trimmed line's first index, built once (a help may hold thousands of paragraphs)
  const lineAt = new Map<string, number>();
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    if (!lineAt.has(trimmed)) lineAt.set(trimmed, index);
  });
  for (const paragraph of paragraphs) {
    if (!paragraph.afterEntries) continue;
    const title = titleAbove(paragraph, lines, lineAt);
    if (title === null || !title.endsWith('s')) continue;
    const targets = options.filter((option) => option.takes_value && option.choices === null && namesOf(option).some((name) => `${name}s` === title));
    if (targets.length !== 1) continue;
    const choices = definitionListChoices([':', ...paragraph.lines], [0, ...paragraph.indents]);
    const target = targets[0];
    // gotestsum `--format string … (default "short")` over `Formats:` without `short`: a list leaving out the default is incomplete
    if (choices === null || target === undefined || (target.default !== null && !choices.includes(String(target.default)))) continue;
    claimChoices(claim, target, choices);
  }
}
