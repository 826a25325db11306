/**
 * Value-taking stated outside the option list, for helps written by hand (meow, Node's
 * `util.parseArgs`, which print no help of their own): the author wrote a placeholder for some
 * options (`-c, --config [file]`) and none for others that take a value just as well
 * (`--reporter   Select reporter (default: symbols), can be repeated (3)`). Two places of such a
 * help still say so:
 *
 * - a footnote: the description ends in a marker `(3)` and a line of the help below reads
 *   `(3) Built-in reporters: symbols (default), compact, json`: a list of values; its items are the
 *   choices unless the title calls them built-in ones (others may be added);
 * - an example that invokes the program giving the option a value: `xo --print-config=index.js`
 *   (attached, always a value), `freeze main.go [-o code.svg]` (one bracket group holds the option
 *   and a literal value), or `knip --reporter compact` when the program takes no positionals
 *   (the word after the option can be nothing else but a listed command).
 *
 * Either one contradicting the option list shows the list's placeholders are incomplete: the
 * caller then reads the help as hand-written (stated defaults and descriptions count).
 */
import { spellingsGivenExampleValues } from './option-examples.ts';
import type { CliOption } from './spec.ts';
import type { Claimer } from './reader/claims.ts';
import { claimTakesValue } from './reader/option-claims.ts';

/** `(1) Issue types: files, dependencies, unlisted`. */
const FOOTNOTE_LINE = /^\s*\((\d{1,2})\)\s+([^:]{1,60}):\s+(\S.{0,900})$/;
/** A footnote marker closing the description: `… can be comma-separated or repeated (1)`. */
const FOOTNOTE_MARKER = /\s\((\d{1,2})\)\.?$/;
const FOOTNOTE_ITEM = /^[A-Za-z0-9][\w.-]{0,40}$/;
/** A title naming the values shipped with the program: others may be given (a path, a plugin). */
const OPEN_TITLE = /\bbuilt-?in\b/i;
const MAX_EXAMPLES = 100;

interface Footnote {
  items: string[];
  open: boolean;
}

/** The help's footnotes that are lists of values, by number. */
function footnotesOf(lines: readonly string[]): Map<string, Footnote> {
  const footnotes = new Map<string, Footnote>();
  for (const line of lines) {
    const match = FOOTNOTE_LINE.exec(line);
    if (match === null) continue;
    // `symbols (default), compact`: the marker is no part of the item
    const items = (match[3] ?? '').trim().replace(/\.$/, '').split(/\s*,\s*/).map((item) => item.replace(/\s+\(default\)$/i, ''));
    if (items.length < 2 || !items.every((item) => FOOTNOTE_ITEM.test(item))) continue;
    footnotes.set(match[1] ?? '', { items, open: OPEN_TITLE.test(match[2] ?? '') });
  }
  return footnotes;
}


function isSwitch(option: CliOption): boolean {
  return option.negation !== null || (option.long ?? '').startsWith('no-') || typeof option.default === 'boolean';
}

/**
 * The words of the lines that invoke `program` (`$ knip --reporter compact`), at most MAX_EXAMPLES;
 * a shell pipeline's last command counts too (`$ cat log | pino-pretty -L info`).
 */
function examplesOf(lines: readonly string[], program: string): string[][] {
  const examples: string[][] = [];
  for (const line of lines) {
    const words = lastPipelineCommand(line.trim().replace(/^[$%>]\s+/, '')).split(/\s+/);
    if (words[0] === program && words.length > 1) examples.push(words.slice(1));
    if (examples.length >= MAX_EXAMPLES) break;
  }
  return examples;
}

/** `cat log | pino-pretty -t`: the command after a pipeline's last ` | ` (the whole line when it has none). */
function lastPipelineCommand(line: string): string {
  const bar = line.lastIndexOf(' | ');
  return bar === -1 ? line : line.slice(bar + 3).trim();
}

function spellingsOf(option: CliOption): string[] {
  return [option.long !== null ? `${option.prefix ?? '--'}${option.long}` : null, option.short !== null ? `-${option.short}` : null, ...option.aliases].filter(
    (spelling): spelling is string => spelling !== null,
  );
}

/** freeze `[-o code.svg]`: an option and one more word closed in one bracket group; the word can only be its value. */
const BRACKETED_OPTION_VALUE = /\[(-{1,2}[A-Za-z][\w.-]{0,40}) ([^\s[\]|<>{}-][^\s[\]|<>{}]{0,80})\]/g;

function bracketGivesValue(examples: readonly string[][], spellings: readonly string[]): boolean {
  return examples.some((words) => [...words.join(' ').matchAll(BRACKETED_OPTION_VALUE)].some((group) => spellings.includes(group[1] ?? '') && !/^[A-Z][A-Z_]*$/.test(group[2] ?? '')));
}

function exampleGivesValue(examples: readonly string[][], spellings: readonly string[], positionalsTaken: boolean, commands: ReadonlySet<string>): boolean {
  if (bracketGivesValue(examples, spellings)) return true;
  return examples.some((words) =>
    words.some((word, index) => {
      const attached = /^(-{1,2}[^=\s]+)=\S/.exec(word);
      if (attached !== null) return spellings.includes(attached[1] ?? '');
      const next = words[index + 1];
      // `tool --debug serve`: a listed command is no value; a usage form `prog [ --list | --schemes ]` is
      // no example either: `|`, `]` are its syntax, not a value
      return !positionalsTaken && spellings.includes(word) && next !== undefined && !next.startsWith('-') && !commands.has(next) && !/^[[\]|(){}]/.test(next);
    }),
  );
}

/**
 * pkg `pkg [options] <input>` over `$ pkg -t node14-win-arm64 index.js`: an example holding more bare
 * words than any usage form takes positionals has the surplus filled by options' values. When the
 * surplus equals the number of options followed by a bare word, each of them takes that word (a
 * switch before the positional would leave one word over). Examples whose quoting splits a word are
 * not counted.
 */
function spellingsGivenSurplusWords(examples: readonly string[][], maxPositionals: number): Set<string> {
  const valued = new Set<string>();
  for (const example of examples) {
    // cpio `cpio -p destination-directory < name-list`: a redirection's file is no argument
    const redirection = example.findIndex((word) => /^\[?\d?[<>]/.test(word));
    const words = redirection === -1 ? example : example.slice(0, redirection);
    if (words.some((word) => /^["']/.test(word) && !/^(["']).*\1$/.test(word))) continue;
    const bare = (word: string | undefined): boolean => word !== undefined && !word.startsWith('-') && !/^[[\]|(){}<>]/.test(word);
    const surplus = words.filter((word) => bare(word)).length - maxPositionals;
    const followed = words.filter((word, index) => /^-{1,2}[A-Za-z][\w-]*$/.test(word) && bare(words[index + 1]));
    if (surplus > 0 && surplus === followed.length) for (const spelling of followed) valued.add(spelling);
  }
  return valued;
}

/**
 * http-server `-c  Cache time (max-age) in seconds [3600], e.g. -c10 for 10 seconds. To disable
 * caching, use -c-1.`, `--proxy-options  Pass options to proxy … e.g.: --proxy-options.secure false`:
 * the option's own description spells it with a value glued to its short letter (a number: `-vvv`
 * is a count), a dotted key after its long name or a value attached by `=`; a flag is never shown so.
 */
function descriptionGivesOwnValue(option: CliOption): boolean {
  const description = option.description ?? '';
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // (each pattern spells the option: a description that never does is skipped without building one)
  if (option.short !== null && description.includes(`-${option.short}`) && new RegExp(String.raw`(?:^|[\s(])-${escape(option.short)}-?\d+(?=[\s,.;)]|$)`).test(description)) return true;
  // (microbundle `Passing a string will override the scopeName. eg --css-modules="_[hash]"`: attached with `=`)
  if (option.long === null || !description.toLowerCase().includes(`--${option.long.toLowerCase()}`)) return false;
  if (new RegExp(String.raw`(?:^|\s)--${escape(option.long)}(?:\.[A-Za-z][\w-]* \S|=\S)`).test(description)) return true;
  // karma `List of browsers to start (eg. --browsers Chrome,ChromeCanary,Firefox)`: after an example
  // marker, the long spelling and a word that is no option
  return new RegExp(String.raw`\b(?:e\.?g\.?|for example|examples?:|ex:),?\s+--${escape(option.long)} (?:"[^"]+"|'[^']+'|[^\s"'-][^\s)]*)`, 'i').test(description);
}

/**
 * csvtojson `csvtojson <file> --checkType=false --trim=false` under `--trim: … Default: true`: an example
 * giving an option whose stated default is a boolean an attached `true` / `false` shows the program's
 * booleans are values (`--trim` alone could not say false). True when one does.
 */
function examplesGiveBooleanValues(examples: readonly string[][], options: readonly CliOption[]): boolean {
  return examples.some((words) =>
    words.some((word) => {
      const attached = /^(-{1,2}[^=\s]+)=(?:true|false)$/.exec(word);
      return attached !== null && options.some((option) => typeof option.default === 'boolean' && option.negation === null && spellingsOf(option).includes(attached[1] ?? ''));
    }),
  );
}

/** Every option stating a boolean default, no negation spelled, takes `true` / `false` (in place). */
function takeBooleanValues(options: CliOption[], claim: Claimer): boolean {
  let changed = false;
  for (const option of options) {
    if (option.takes_value || typeof option.default !== 'boolean' || option.negation !== null || (option.long ?? '').startsWith('no-')) continue;
    claimTakesValue(claim, option, { type: 'boolean' });
    changed = true;
  }
  return changed;
}

/**
 * Marks the options that a footnote list or an example gives a value as value-taking (in place);
 * footnote lists become choices. Returns true when any option listed without a placeholder was
 * changed: the option list's placeholders were written by hand.
 */
export function applyHandWrittenValues(
  options: CliOption[],
  lines: readonly string[],
  program: string | null,
  positionalsTaken: boolean,
  commands: ReadonlySet<string> = new Set(),
  maxPositionals: number | null,
  claim: Claimer,
): boolean {
  // a flag's `false` default does not carry over to a value
  const takeValue = (option: CliOption): void => claimTakesValue(claim, option, { dropDefault: 'boolean' });
  const footnotes = footnotesOf(lines);
  const examples = program === null ? [] : examplesOf(lines, program);
  const exampleValued = spellingsGivenExampleValues(lines);
  const valued = maxPositionals === null ? new Set<string>() : spellingsGivenSurplusWords(examples, maxPositionals);
  let contradicted = examplesGiveBooleanValues(examples, options) && takeBooleanValues(options, claim);
  for (const option of options) {
    const marker = FOOTNOTE_MARKER.exec(option.description ?? '');
    const footnote = marker === null ? undefined : footnotes.get(marker[1] ?? '');
    if (footnote !== undefined && !isSwitch(option)) {
      if (!option.takes_value) contradicted = true;
      if (!option.takes_value) takeValue(option);
      if (!footnote.open && option.choices === null) claim(option, 'choices', footnote.items);
      continue;
    }
    if (!option.takes_value && !isSwitch(option) && descriptionGivesOwnValue(option)) {
      takeValue(option);
      contradicted = true;
      continue;
    }
    // meow `Flag examples` lines: `--manifest ./src/manifest.json` gives the option a value
    if (!option.takes_value && !isSwitch(option) && spellingsOf(option).some((spelling) => exampleValued.has(spelling))) {
      takeValue(option);
      contradicted = true;
      continue;
    }
    if (option.takes_value || isSwitch(option) || examples.length === 0) continue;
    if (exampleGivesValue(examples, spellingsOf(option), positionalsTaken, commands) || spellingsOf(option).some((spelling) => valued.has(spelling))) {
      takeValue(option);
      contradicted = true;
    }
  }
  return contradicted;
}
