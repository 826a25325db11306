/**
 * yargs without `$0` in its usage strings: commitlint sets `.usage('[input] reads from stdin if
 * --edit, --env, --from and --to are omitted')`, so the help has no usage form, only a line that
 * opens with the positional's placeholder and goes on to say what it does. In a help without any
 * usage form, such a line above the option list names the positional (`[x]` optional, `<x>`
 * required, `...` repeated).
 */
import type { Paragraph } from './help-scan.ts';
import type { UsagePositional } from './usage.ts';

const LEADING_PLACEHOLDER = /^(?:\[([a-z][\w-]{0,30})(\.{3})?\]|<([a-z][\w-]{0,30})(\.{3})?>)\s+[a-z][a-z]+\s/;

/** The positional a prose line above the entries opens with, or none. */
export function leadingPlaceholderPositionals(paragraphs: readonly Paragraph[]): UsagePositional[] {
  for (const paragraph of paragraphs) {
    if (paragraph.afterEntries) break;
    for (const line of paragraph.lines) {
      const match = LEADING_PLACEHOLDER.exec(line.trim());
      if (match === null) continue;
      const optional = match[1] !== undefined;
      return [{ name: (optional ? match[1] : match[3]) ?? '', required: !optional, variadic: (match[2] ?? match[4]) !== undefined }];
    }
  }
  return [];
}
