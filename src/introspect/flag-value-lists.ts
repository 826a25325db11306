/**
 * click (check-jsonschema) explains some options in the help's prose: `The '--builtin-schema' flag
 * supports the following schema names:` over indented lines of a comma-separated list. The named
 * option, when it shows a placeholder of its own and states no choices, takes one of those values.
 * An option without a placeholder (`--disable-formats {*|FORMAT,FORMAT,...}`, a list of formats) is
 * left alone: the listed values are items of its value, not the value.
 */
import type { Paragraph } from './help-scan.ts';
import type { CliOption } from './spec.ts';
import type { Claimer } from './reader/claims.ts';
import { claimChoices } from './reader/option-claims.ts';

const INTRODUCTION = /^The ['"`]?--([A-Za-z0-9][\w-]{0,60})['"`]? (?:flag|option) (?:supports|accepts|takes) the following [\w\s-]{1,40}:$/;
const ITEM = /^[A-Za-z0-9][\w.-]{0,60}$/;
const MAX_ITEMS = 200;

/** The comma-separated items on the lines under `index`, deeper than it; null unless all are plain values. */
function listUnder(paragraph: Paragraph, index: number): string[] | null {
  const indent = paragraph.indents[index] ?? 0;
  const lines: string[] = [];
  for (let next = index + 1; next < paragraph.lines.length && (paragraph.indents[next] ?? 0) > indent; next += 1) lines.push(paragraph.lines[next] ?? '');
  const items = lines.join(' ').split(/,\s*/).map((item) => item.trim()).filter((item) => item.length > 0);
  if (items.length < 2 || items.length > MAX_ITEMS || !items.every((item) => ITEM.test(item))) return null;
  return [...new Set(items)];
}

export function applyFlagValueLists(options: CliOption[], paragraphs: readonly Paragraph[], claim: Claimer): void {
  for (const paragraph of paragraphs) {
    paragraph.lines.forEach((line, index) => {
      const named = INTRODUCTION.exec(line.trim())?.[1];
      if (named === undefined) return;
      const option = options.find((candidate) => candidate.long === named && candidate.prefix !== '-');
      if (option === undefined || !option.takes_value || option.value_name === null || option.choices !== null) return;
      const items = listUnder(paragraph, index);
      if (items === null) return;
      claimChoices(claim, option, items);
    });
  }
}
