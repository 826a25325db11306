/**
 * dos2unix defines an option's argument on a line of its own under the option, named like the
 * option: ` -c, --convmode        conversion mode` / `   convmode            ascii, 7bit, iso, mac,
 * default to ascii`. The option takes a value named so; the line lists its values and may close with
 * its default. (Lines naming other words, `file ...  files to analyze`, describe positionals.)
 */
import type { OptionHead } from './option-head.ts';

const ITEM = String.raw`[a-z0-9][\w.-]{0,30}`;
const VALUES_WITH_DEFAULT = new RegExp(String.raw`^(${ITEM}(?:,\s*${ITEM}){1,30})(?:,?\s*(?:defaults? (?:to|is)|\(?default:?)\s+(${ITEM})\)?)?\.?$`, 'i');

export interface ValueDefinition {
  head: OptionHead;
  /** The description lines without the definition line's name column. */
  lines: string[];
  choices: string[] | null;
  defaultText: string | null;
}

export function readValueDefinitionLine(head: OptionHead, lines: readonly string[]): ValueDefinition | null {
  const long = head.longs[0]?.name;
  const first = lines[0];
  if (long === undefined || first === undefined || head.valueName !== null || head.choices !== null) return null;
  const defined = /^(\S+)\s{2,}(\S.*)$/.exec(first);
  if (defined === null || defined[1] !== long) return null;
  const text = defined[2] ?? '';
  const values = VALUES_WITH_DEFAULT.exec(text);
  const choices = values === null ? null : (values[1] ?? '').split(/,\s*/);
  const defaultText = values?.[2] ?? null;
  return {
    head: { ...head, valueName: long },
    lines: [text, ...lines.slice(1)],
    choices,
    defaultText: defaultText !== null && choices?.includes(defaultText) === true ? defaultText : null,
  };
}
