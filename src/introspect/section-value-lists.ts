/**
 * The section value-list reader: an option's values listed outside its entry, in the help's other
 * sections — each a spelling of "here are the values of that option". Field claims (`claimChoices`)
 * through the claimer of each rule: `epilog-value-list` (GNU epilogs: `MODE determines…:` over a
 * definition list; `The MODE argument of --cached can be: always, never, or default.`; clipanion's
 * bulleted paragraphs), `titled-value-list` (inotifywait `Events:` over a definition list),
 * `titled-pipe-list` (csvq `Import Format` over `CSV | TSV | FIXED`), `flag-value-list` (click `The
 * '--builtin-schema' flag supports the following schema names:`). Regexes are bounded; names built
 * into a regex are restricted to word characters.
 */
import type { Paragraph } from './help-scan.ts';
import { definitionListChoices } from './listed-choices.ts';
import type { CliOption } from './spec.ts';
import type { Claimer } from './reader/claims.ts';
import { claimChoices } from './reader/option-claims.ts';

/** Runs the rules in order, each with its claimer (`claims(rule)`). */
export function readSectionValueLists(options: CliOption[], paragraphs: readonly Paragraph[], lines: readonly string[], claims: (rule: string) => Claimer): void {
  applyEpilogValueLists(options, paragraphs, claims('epilog-value-list'));
  applyTitledValueLists(options, paragraphs, lines, claims('titled-value-list'));
  applyTitledPipeLists(options, lines, claims('titled-pipe-list'));
  applyFlagValueLists(options, paragraphs, claims('flag-value-list'));
}

/** The value name without brackets, `=` or ellipsis (`[=MODE]` → `MODE`). */
function bareValueName(option: CliOption): string {
  return (option.value_name ?? '').replace(/[<>[\]{}=.]/g, '');
}

/**
 * GNU epilogs: `MODE determines behavior…:` or `…via the --backup option…  Here are the values:`
 * followed by a definition list give the choices of the options whose value name (MODE) or
 * spelling (`--backup`) the introduction names.
 */
/**
 * clipanion's details list one value a paragraph: `- \`skip-build\` will not run…` (wrapped), blank,
 * `- \`update-lockfile\` will skip…`: the first line of each paragraph in a row that opens with an item.
 */
function bulletParagraphChoices(paragraphs: readonly Paragraph[]): string[] | null {
  const firstLines: string[] = [];
  for (const paragraph of paragraphs.slice(0, 30)) {
    const first = paragraph.lines[0] ?? '';
    if (!/^- /.test(first)) break;
    firstLines.push(first);
  }
  return firstLines.length >= 2 ? definitionListChoices([':', ...firstLines]) : null;
}

const EPILOG_ITEM = String.raw`[a-z0-9][\w.-]{0,30}`;
/** GNU stat: `The MODE argument of --cached can be: always, never, or default.`: one sentence naming the option, then its values. */
const EPILOG_SENTENCE_LIST = new RegExp(
  String.raw`(?:^|[.!]\s+)([^.:]{0,120}?):\s+(${EPILOG_ITEM}(?:(?:,\s*or|,|\s+or)\s+${EPILOG_ITEM}){1,30})\.(?=\s|$)`,
);

function applyEpilogSentenceList(options: CliOption[], paragraph: Paragraph, claim: Claimer): void {
  const sentence = EPILOG_SENTENCE_LIST.exec(paragraph.lines.join(' '));
  if (sentence === null) return;
  const intro = sentence[1] ?? '';
  const open = options.filter((option) => option.takes_value && option.choices === null);
  const byName = open.filter((option) => option.long !== null && new RegExp(`(?:^|\\s)--${option.long.replace(/[^\w-]/g, '')}(?=[\\s,=]|$)`).test(intro));
  const byValue = open.filter((option) => {
    const name = bareValueName(option);
    return /^[A-Z][A-Z_]{1,20}$/.test(name) && new RegExp(`\\b${name}\\b`).test(intro);
  });
  // potrace `Backends are: svg, pdf, …` for `-b, --backend <name>`: the sentence's subject is the long name in the plural
  const byPlural = open.filter((option) => option.long !== null && /^[a-z]{3,20}$/.test(option.long) && new RegExp(`^${option.long}e?s are$`, 'i').test(intro.trim()));
  const targets = byName.length > 0 ? byName.slice(0, 1) : byValue.length > 0 ? byValue : byPlural.slice(0, 1);
  const choices = (sentence[2] ?? '').split(/\s*(?:,\s*or|,|\s+or)\s+/);
  for (const option of targets) {
    claimChoices(claim, option, choices);
  }
}

function applyEpilogValueLists(options: CliOption[], paragraphs: readonly Paragraph[], claim: Claimer): void {
  paragraphs.forEach((paragraph, index) => {
    if (!paragraph.afterEntries) return;
    applyEpilogSentenceList(options, paragraph, claim);
    const colon = paragraph.lines.findIndex((line) => /:$/.test(line));
    if (colon === -1) return;
    const ownList = definitionListChoices(paragraph.lines.slice(colon), paragraph.indents.slice(colon));
    const next = paragraphs[index + 1];
    const choices = ownList ?? (colon === paragraph.lines.length - 1 && next !== undefined ? (definitionListChoices([':', ...next.lines], [0, ...next.indents]) ?? bulletParagraphChoices(paragraphs.slice(index + 1))) : null);
    if (choices === null) return;
    const intro = paragraph.lines.slice(0, colon + 1).join(' ');
    const open = options.filter((option) => option.takes_value && option.choices === null);
    let targets = open.filter((option) => {
      const name = bareValueName(option);
      return /^[A-Z][A-Z_]{1,20}$/.test(name) && new RegExp(`\\b${name}\\b`).test(intro);
    });
    // the intro names the option: `--mode `, or clipanion's `` `--mode=<mode>` ``
    if (targets.length === 0) targets = open.filter((option) => option.long !== null && new RegExp(`--${option.long.replace(/[^\w-]/g, '')}(?=[ =\`])`).test(intro)).slice(0, 1);
    for (const option of targets) claimChoices(claim, option, choices);
  });
}

/**
 * inotifywait closes its help with a section titled by the plural of an option's name, a definition
 * list of that option's values under it: `-e|--event <event1>` … `Events:` then `\taccess\t\tfile or
 * directory contents were read`, `\tmodify\t…`. A paragraph of definition lines right under a title
 * of one word that is the plural of exactly one value-taking option's name (or of its value name,
 * digits aside) gives that option its choices, unless it leaves out the option's stated default.
 */

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

function applyTitledValueLists(options: readonly CliOption[], paragraphs: readonly Paragraph[], lines: readonly string[], claim: Claimer): void {
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

function applyTitledPipeLists(options: readonly CliOption[], lines: readonly string[], claim: Claimer): void {
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

/**
 * click (check-jsonschema) explains some options in the help's prose: `The '--builtin-schema' flag
 * supports the following schema names:` over indented lines of a comma-separated list. The named
 * option, when it shows a placeholder of its own and states no choices, takes one of those values.
 * An option without a placeholder (`--disable-formats {*|FORMAT,FORMAT,...}`, a list of formats) is
 * left alone: the listed values are items of its value, not the value.
 */

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

function applyFlagValueLists(options: CliOption[], paragraphs: readonly Paragraph[], claim: Claimer): void {
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
