/**
 * RubyGems commands (over Ruby's OptionParser) end their help with the switches in effect:
 *
 *     Defaults:
 *       --local --no-details
 *
 * Each `--x` names a flag that is on by default, each `--no-x` one that is off. Only a section made
 * of nothing but flag spellings counts, and only flags (options without a value) take a default.
 */
import type { Claimer } from './reader/claims.ts';
import type { CliOption } from './spec.ts';

const DEFAULTS_TITLE = /^\s*Defaults:\s*$/;
const FLAG_WORD = /^--[A-Za-z0-9][\w-]*$/;
/** Lines read under the title at most: the section is one or two lines of switches. */
const MAX_SECTION_LINES = 5;

/** The flag spellings listed under a `Defaults:` title, or null when there is no such section or it holds anything else. */
function defaultSpellings(lines: readonly string[]): string[] | null {
  const title = lines.findIndex((line) => DEFAULTS_TITLE.test(line));
  if (title < 0) return null;
  const words: string[] = [];
  for (const line of lines.slice(title + 1, title + 1 + MAX_SECTION_LINES)) {
    if (line.trim().length === 0) break;
    const lineWords = line.trim().split(/\s+/);
    if (!lineWords.every((word) => FLAG_WORD.test(word))) return null;
    words.push(...lineWords);
  }
  return words.length > 0 ? words : null;
}

/** Claims the defaults a `Defaults:` section states for the flags it names. */
export function applyDefaultsSection(options: CliOption[], lines: readonly string[], claim: Claimer): void {
  const spellings = defaultSpellings(lines);
  if (spellings === null) return;
  for (const spelling of spellings) {
    const name = spelling.slice(2);
    const on = options.find((option) => option.long === name && !option.takes_value);
    if (on !== undefined) {
      claim(on, 'default', true);
      continue;
    }
    const off = name.startsWith('no-') ? options.find((option) => option.long === name.slice(3) && !option.takes_value && option.negation === spelling) : undefined;
    if (off !== undefined) claim(off, 'default', false);
  }
}
