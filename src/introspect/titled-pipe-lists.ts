/**
 * csvq (urfave) closes its help with a `Parameters:` section of titled value lists: a line of
 * capitalized words naming a parameter (`Import Format`, `JSON Escape Type`), and under it, deeper,
 * its values joined by ` | ` (`CSV | TSV | FIXED`). A list goes to the value-taking option without
 * choices that the title names: every word of its long name in the title (`import-format`, `line-break`,
 * `json-escape`; a plural title counts, `Encodings`), the one naming the most words; else the one whose
 * last word the title names and whose stated default is among the values (`Export Character Encodings`
 * → `--write-encoding … (default: "UTF8")`, not `--encoding … (default: "AUTO")`). A stated default
 * the list leaves out rules the option out: the list is of another parameter.
 */
import type { CliOption } from './spec.ts';
import type { Claimer } from './reader/claims.ts';
import { claimChoices } from './reader/option-claims.ts';

/** `   Import Character Encodings`: capitalized words alone on an indented line. */
const TITLE_LINE = /^(\s+)([A-Z][A-Za-z]{1,30}(?: [A-Z][A-Za-z]{1,30}){0,4})\s*$/;
/** `      CSV | TSV | FIXED`, `Local | UTC`: two or more values joined by ` | `, alone on the line. */
const PIPE_LINE = /^(\s+)([\w.-]{1,40}(?: \| [\w.-]{1,40})+)\s*$/;

function wordsOf(name: string): string[] {
  return name.toLowerCase().split(/[-_]+/).filter((word) => word.length > 0);
}

function titleHas(title: readonly string[], word: string): boolean {
  return title.includes(word) || title.includes(`${word}s`);
}

function targetOf(options: readonly CliOption[], title: readonly string[], values: readonly string[]): CliOption | null {
  const candidates = options.filter(
    (option) =>
      option.takes_value &&
      option.choices === null &&
      option.long !== null &&
      (option.default === null || values.includes(String(option.default))) &&
      titleHas(title, wordsOf(option.long ?? '').at(-1) ?? ''),
  );
  const whole = candidates.filter((option) => wordsOf(option.long ?? '').every((word) => titleHas(title, word)));
  if (whole.length > 0) {
    const most = Math.max(...whole.map((option) => wordsOf(option.long ?? '').length));
    const best = whole.filter((option) => wordsOf(option.long ?? '').length === most);
    return best.length === 1 ? (best[0] ?? null) : null;
  }
  const stated = candidates.filter((option) => option.default !== null);
  return stated.length === 1 ? (stated[0] ?? null) : null;
}

export function applyTitledPipeLists(options: readonly CliOption[], lines: readonly string[], claim: Claimer): void {
  for (let index = 0; index + 1 < lines.length; index += 1) {
    const title = TITLE_LINE.exec(lines[index] ?? '');
    const list = title === null ? null : PIPE_LINE.exec(lines[index + 1] ?? '');
    if (title === null || list === null || (list[1] ?? '').length <= (title[1] ?? '').length) continue;
    const values = (list[2] ?? '').split(' | ');
    const target = targetOf(options, (title[2] ?? '').toLowerCase().split(' '), values);
    if (target === null) continue;
    claimChoices(claim, target, values);
  }
}
