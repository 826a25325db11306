/**
 * TypeScript's `tsc --help` style: every option stands flush left with no value placeholder
 * (`--outDir`, then its description, then `type: boolean`, `one of: …`, `default: …` lines), so
 * the head never says whether a value is taken. This pass reads what such a help does say:
 *
 * - a `type: x` line: `boolean` is a flag, any other type takes a value;
 * - an option with no such line in a run of entries where others have one (tsc prints no
 *   `type: string`: `--outDir` between `--jsx` and `--removeComments`) takes a value;
 * - an option an example line of the help gives a value (`tsc -p ./path/to/tsconfig.json`)
 *   takes one; in this style examples are the only place a value is shown.
 *
 * Only a help with at least two flush-left `type:` lines is read this way.
 */
import type { Entry } from './help-scan.ts';
import type { CliOption, CliValueType } from './spec.ts';
import type { Claimer } from './reader/claims.ts';
import { claimTakesValue } from './reader/option-claims.ts';

const TYPE_LINE = /^type:\s*(\w[\w ,|[\]]{0,40})$/i;
/** The lines tsc prints under a description; any of them says the option's shape is known. */
const ANNOTATION_LINE = /^(type|one of|one or more|default):/i;
const MIN_TYPED_ENTRIES = 2;

function isFlushLeftOption(entry: Entry): boolean {
  const head = entry.option;
  return entry.kind === 'option' && head !== null && entry.indent === 0 && head.rest === '' && head.valueName === null && head.choices === null;
}

function typeWordOf(entry: Entry): string | null {
  for (const line of entry.description) {
    const match = TYPE_LINE.exec(line);
    if (match) return (match[1] ?? '').trim().toLowerCase();
  }
  return null;
}

/** The spellings of an entry's option as written on a command line (`--project`, `-p`). */
function spellingsOf(entry: Entry): string[] {
  const head = entry.option;
  if (head === null) return [];
  return [...head.longs.map((long) => `${long.dashes}${long.name}`), ...head.shorts.map((short) => `-${short}`), ...head.aliases];
}

const MAX_EXAMPLES = 100;

/** The words of the lines that invoke `program` (`tsc -p ./path/to/tsconfig.json`), at most MAX_EXAMPLES. */
function examplesOf(lines: readonly string[], program: string | null): string[][] {
  if (program === null) return [];
  const examples: string[][] = [];
  for (const line of lines) {
    const words = line.trim().replace(/^[$%>]\s+/, '').split(/\s+/);
    if (words[0] === program && words.length > 1) examples.push(words);
    if (examples.length >= MAX_EXAMPLES) break;
  }
  return examples;
}

/** True when an example writes one of the spellings followed by a value. */
function exampleGivesValue(examples: readonly string[][], spellings: readonly string[]): boolean {
  return examples.some((words) => words.some((word, index) => spellings.includes(word) && index + 1 < words.length && !(words[index + 1] ?? '-').startsWith('-')));
}

function optionOf(entry: Entry, options: readonly CliOption[]): CliOption | undefined {
  const long = entry.option?.longs[0]?.name ?? null;
  const short = entry.option?.shorts[0] ?? null;
  return options.find((option) => (long !== null ? option.long === long : option.long === null && option.short === short));
}


/** Applies the tsc-style rules above to the options parsed from `entries` (in place). */
export function applyFlushLeftTypes(entries: readonly Entry[], options: readonly CliOption[], lines: readonly string[], program: string | null, claim: Claimer): void {
  // a flag's default (`false`) and negation do not carry over to a value
  const takeValue = (option: CliOption, type: CliValueType): void => claimTakesValue(claim, option, { type, dropDefault: 'any', dropNegation: true });
  const flushLeft = entries.filter(isFlushLeftOption);
  const typedBlocks = new Set(flushLeft.filter((entry) => typeWordOf(entry) !== null).map((entry) => entry.block));
  if (flushLeft.filter((entry) => typeWordOf(entry) !== null).length < MIN_TYPED_ENTRIES) return;
  const examples = examplesOf(lines, program);
  for (const entry of flushLeft) {
    const option = optionOf(entry, options);
    if (option === undefined) continue;
    const typeWord = typeWordOf(entry);
    // a bare help's stated default (`default: 0`) made it value-taking already: its `type: number` line still names the type
    if (option.takes_value) {
      if (typeWord === 'number' && option.type === 'integer') claim(option, 'type', 'number');
      continue;
    }
    if (typeWord !== null) {
      if (typeWord !== 'boolean') takeValue(option, typeWord === 'number' ? 'number' : 'string');
      continue;
    }
    if (entry.description.some((line) => ANNOTATION_LINE.test(line))) continue;
    const inTypedBlock = typedBlocks.has(entry.block);
    if (inTypedBlock || exampleGivesValue(examples, spellingsOf(entry))) takeValue(option, 'string');
  }
}
