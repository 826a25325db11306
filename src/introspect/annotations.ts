/**
 * Facts that help texts state inside an option's description: defaults, choices, required,
 * repeatable and type tags, in the spellings of the common help styles.
 */
import { namesAnyKindOfValue } from './option-head.ts';
import type { CliValueType } from './spec.ts';

export interface DescriptionFacts {
  /** The description with trailing annotation groups (`[default: x]`, `(default x)`, `[required]`…) removed. */
  description: string;
  defaultText: string | null;
  defaultQuoted: boolean;
  choices: string[] | null;
  required: boolean;
  repeatable: boolean;
  typeHint: CliValueType | null;
  /**
   * `Enabled by default.` / `Disabled by default.`: the state of a switch, `'true'` or `'false'`.
   * Only an option whose value is `true|false` (or a boolean) can take it as its default; for a
   * flag it says nothing (the flag may be the one that turns the state around).
   */
  stateDefault: 'true' | 'false' | null;
  /** The choices come from a framework's tag (`[choices: "number", "integer"]`): a closed list it checks. */
  choicesTagged?: boolean;
}

/** One value of a list written in prose: `auto`, `from-zero`, `iec-i`, `packageManager`, `512224`. */
const LIST_ITEM = String.raw`[a-z0-9][\w.-]{0,30}`;

const TYPE_TAGS: Record<string, CliValueType> = { string: 'string', number: 'number', boolean: 'boolean', count: 'integer' };

function unquote(text: string): { value: string; quoted: boolean } {
  const trimmed = text.trim();
  if (trimmed.length >= 2) {
    const first = trimmed[0];
    const last = trimmed[trimmed.length - 1];
    if ((first === '"' || first === "'" || first === '`') && last === first) {
      return { value: trimmed.slice(1, -1).replace(/\\(["\\])/g, '$1'), quoted: true };
    }
  }
  return { value: trimmed, quoted: false };
}

/** yargs `[choices: "", "text", "json"]`: a quoted empty item is a choice (the option given empty); a bare empty part is none. */
function splitChoices(text: string): string[] {
  return text
    .split(/,|\|/)
    // yargs wraps a long `[choices: …]` tag inside a quoted value (`"name-asc` / `", "name-desc"]`):
    // the line break joined as a space is no part of the value; a quoted empty value (`""`) counts
    .map((part) => unquote(part))
    .map((part) => (part.quoted ? { ...part, value: part.value.trim() } : part))
    .filter((part) => (part.value.length > 0 || part.quoted) && part.value.length <= 100)
    .map((part) => part.value);
}

/** Bracket or parenthesis groups in the text, without nesting; bounded scan. */
function groups(text: string): { open: string; body: string; start: number; end: number }[] {
  const found: { open: string; body: string; start: number; end: number }[] = [];
  const pattern = /[[(]([^[\]()]{0,400})[\])]/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const open = match[0][0] ?? '';
    const close = match[0][match[0].length - 1];
    if ((open === '[' && close === ']') || (open === '(' && close === ')')) {
      found.push({ open, body: match[1] ?? '', start: match.index, end: match.index + match[0].length });
    }
  }
  return found;
}

// …not a pipe list opening with such a word (pflag `[default|alphanumeric|none]`)
const ANNOTATION_START = /^\s*(default|possible values|choices|required|env(ironment)? var|aliases?|deprecated|string|number|boolean|array|count)\b(?!\|)/i;
const RANGE_BODY = /^[\d.\s<=>x+-]+$/;

function isAnnotationGroup(open: string, body: string): boolean {
  if (RANGE_BODY.test(body) && body.includes('x')) return true;
  if (open === '(') return /^\s*(default|choices|required)\b/i.test(body);
  return ANNOTATION_START.test(body);
}

/** The value of a `[default: …]` whose own brackets and parentheses nest (one word, no spaces), or null. */
function bracketedDefault(description: string): string | null {
  const start = /\[default:\s*/i.exec(description);
  if (start === null) return null;
  let depth = 1;
  const from = start.index + start[0].length;
  for (let position = from; position < description.length && position < from + 400; position += 1) {
    const character = description[position];
    if (character === '[') depth += 1;
    if (character === ']') depth -= 1;
    if (depth === 0) {
      const value = description.slice(from, position);
      return value.length > 0 && !/\s/.test(value) ? value : null;
    }
  }
  return null;
}

const REPEATABLE_PHRASES =
  /\b(may|can) be (repeated|given (several|multiple|more than once) times?|specified (several|multiple) times|used (several|multiple) times|given more than once|specified more than once)|\brepeatable\b|\brepeat(ed)? (for|to give) (several|multiple)|\b(?:pass(?:ed)?|specif(?:y|ied)|set|suppl(?:y|ied)|giv(?:e|en)|used?|repeated|provided?|or)\s+multiple times\b/i;

/** Sets the default from a quoted-or-bare value, saying whether it was quoted. */
function setDefault(facts: DescriptionFacts, raw: string): void {
  const unquoted = unquote(raw);
  facts.defaultText = unquoted.value;
  facts.defaultQuoted = unquoted.quoted;
}

/**
 * Reads the bracket and parenthesis groups of the description: `[default: x]`, `(default x)`,
 * commander's `(choices: "a", "b", default: "a")`, `[possible values: a, b]`, `[required]` and
 * yargs' type tags `[string]`, `[array]`, `[count]`. The first default and choices found win.
 */
function readAnnotationGroups(facts: DescriptionFacts): void {
  for (const group of groups(facts.description)) {
    const body = group.body.trim();
    for (const part of body.split(/;\s*/)) {
      const defaultMatch = /^default(?::\s*|=|\s+)([\s\S]*)$/i.exec(part.trim());
      // clap rav1e `[default:  0 for s0-s9, 1 for s10] [default: 1]`: a later one-word default outranks a first one in prose
      const proseBefore = facts.defaultText !== null && !facts.defaultQuoted && /\s/.test(facts.defaultText) && !/\s/.test((defaultMatch?.[1] ?? ' ').trim());
      if (defaultMatch && (facts.defaultText === null || proseBefore) && group.open === '[') setDefault(facts, defaultMatch[1] ?? '');
    }
    if (group.open === '(') readParenthesisGroup(facts, body);
    else readBracketGroup(facts, body);
  }
}

/** commander: (choices: "a", "b", default: "a"); GNU/Go/argparse: (default x), (default: x); `(required)`. */
function readParenthesisGroup(facts: DescriptionFacts, body: string): void {
  const choicesMatch = /^choices:\s*(.*?)(?:,\s*default:\s*(.*))?$/i.exec(body);
  if (choicesMatch) {
    if (facts.choices === null) facts.choicesTagged = true;
    facts.choices = facts.choices ?? splitChoices(choicesMatch[1] ?? '');
    if (choicesMatch[2] !== undefined && facts.defaultText === null) setDefault(facts, choicesMatch[2]);
  }
  // lz4 `(default : 1)`: a space may stand before the colon
  const defaultMatch = /^default(?:\s?:\s*(.*)|=(.*)|\s+("[^"]*"|'[^']*'|[^\s:]\S*))$/i.exec(body);
  // javascript-obfuscator `(Default: 0.8, Min: 0, Max: 1)`: another `Key:` of the group ends the value
  if (defaultMatch && facts.defaultText === null) setDefault(facts, (defaultMatch[1] ?? defaultMatch[2] ?? defaultMatch[3] ?? '').replace(/,\s+[A-Z][a-z]{1,20}:\s.*$/, ''));
  if (/^required$/i.test(body)) facts.required = true;
}

/** clap `[possible values: a, b]`, `[required]`, and yargs' type tags `[string]`, `[array]`, `[count]`. */
function readBracketGroup(facts: DescriptionFacts, body: string): void {
  const possible = /^(?:possible values|choices):\s*(.*)$/i.exec(body);
  if (possible && facts.choices === null) facts.choicesTagged = true;
  if (possible) facts.choices = facts.choices ?? splitChoices(possible[1] ?? '');
  if (/^required$/i.test(body)) facts.required = true;
  const tag = TYPE_TAGS[body.toLowerCase()];
  if (tag !== undefined) facts.typeHint = tag;
  if (/^array$/i.test(body)) facts.repeatable = true;
  if (/^count$/i.test(body)) facts.repeatable = true;
}

/**
 * `one of: a, b`, optionator's `either: a, b, or c`; tsc writes aliases with a slash:
 * `one of: es5, es6/es2015, esnext`.
 */
function oneOfChoices(text: string): string[] | null {
  // coverage (optparse): `Output format, either text (default), markdown, or total.`: the marker is no part of the list
  // (cwebp `one of: none, fast (default) or best`: nor before `or`)
  const description = text.replace(/ \(default\)(?=,|\s+or\b)/g, '');
  const oneOf = /\b(?:one of|either):?\s+([\w.-]+(?:\/[\w.-]+)*(?:\s*(?:,\s*or\b|,|\bor\b)\s*[\w.-]+(?:\/[\w.-]+)*){1,60})/i.exec(description);
  // mmdc `either md, svg, png, pdf or use \`-\` to output to stdout`: an `or` alternative that a
  // clause goes on from is no value, and leaves the list open
  if (oneOf && /\bor\s+[\w.-]+$/.test(oneOf[1] ?? '') && /^\s+[`'"\w]/.test(description.slice(oneOf.index + oneOf[0].length))) return null;
  // a sentence's final period is no part of the last value (`…, markdown, or total.`)
  if (oneOf) return (oneOf[1] ?? '').replace(/\.$/, '').split(/\s*(?:,\s*or\b|,|\bor\b)\s*/).flatMap((choice) => choice.split('/')).filter((choice) => choice.length > 0);
  return null;
}

/**
 * Quoted values in prose. kong: `Backend handler: 'postgresql', 'sqlite', 'mysql'`: quoted items
 * after a colon; cac: `Bundle format, "cjs", "iife", "esm"`: three or more after a comma, or two
 * joined by `or` (`Signal to kill child process, "SIGTERM" or "SIGKILL"`); or after `as` / `either`.
 */
/**
 * argparse pip-licenses prints its values on a line of their own under the description: `order by
 * column` then `"name", "license", "author", "url"`: three or more double-quoted items in a row,
 * after a word (not `e.g.`, `such as`, `like`), separated by commas or spaces, closing the sentence.
 * A slip in the quoting (`"classifier, "mixed"`) does not end the run.
 */
const QUOTED_RUN = new RegExp(String.raw`(?<!\b(?:e\.g\.|such as|like|example:?|i\.e\.))(?:^|\s)("${LIST_ITEM}"?(?:,?\s+"${LIST_ITEM}"?){2,30})(?=\s*(?:[.;(]|$))`);

function quotedRunChoices(description: string): string[] | null {
  const run = QUOTED_RUN.exec(description);
  if (run === null) return null;
  return (run[1] ?? '').split(/,?\s+/).map((item) => item.replace(/^"|"$/g, ''));
}

function quotedProseChoices(text: string): string[] | null {
  const run = quotedRunChoices(text);
  if (run !== null) return run;
  // BSD nc `Proxy protocol: "4", "5" (SOCKS) or "connect"`: a note in parentheses after an item is no part of the list
  const description = text.replace(/(["'])\s+\([^()"']{1,60}\)(?=,|\s+or\s)/g, '$1');
  const quotedAfterColon =
    /:\s+((["'])[^"']{1,40}\2(?:(?:,\s*or|,|\s+or)\s+(["'])[^"']{1,40}\3){1,30})(?=\s*(?:[.;(]|$))/.exec(description) ??
    // …not from the middle of a quoted list (cobra `Can be 'bash', 'zsh' or 'fish'.`)
    /(?<!["']),\s+((["'])[^"']{1,40}\2(?:(?:,\s*or|,|\s+or)\s+(["'])[^"']{1,40}\3){2,30})(?=\s*(?:[.;(]|$))/.exec(description) ??
    /(?<!["']),\s+((["'])[^"']{1,40}\2\s+or\s+(["'])[^"']{1,40}\3)(?=\s*(?:[.;(]|$))/.exec(description) ??
    // Go benchstat: `format output as "text" or "csv" (default "text")`; cobra `Can be 'bash', 'zsh' or 'fish'.`;
    // commander (jscpd) `can be "strict", "mild" and "weak"`
    /\b(?:as|either|be|one of)\s+((["'])[^"']{1,40}\2(?:(?:,\s*(?:or|and)|,|\s+(?:or|and))\s+(["'])[^"']{1,40}\3){1,30})(?=\s*(?:[.;(]|$))/.exec(description);
  const quoted = quotedAfterColon === null ? [] : [...(quotedAfterColon[1] ?? '').matchAll(/(["'])([^"']{1,40})\1/g)].map((match) => match[2] ?? '');
  // cac `Bundle target, "es20XX" or "esnext"`: an item ending in placeholder capitals is a pattern, the list is open
  if (quoted.length > 0 && !quoted.some((item) => /[a-z0-9][A-Z]{2,}$/.test(item))) return quoted;
  return null;
}

/**
 * GNU prose alternatives: `Create 'context' or 'unified' rejects.`, `How to handle read-only input
 * files: 'ignore' that they are read-only, 'warn' (default), or 'fail'.`: quoted words, each maybe
 * followed by a few words of its own, joined by commas and a last `or`, within one sentence.
 */
function quotedAlternativeChoices(description: string): string[] | null {
  // GNU date `FMT='date', 'seconds', or 'ns'`: the list may follow the value name's `=`
  const item = String.raw`'[a-z0-9][\w.-]{0,30}'`;
  // vite `use 'bundle' to …, or 'runner' (experimental) to …, or 'native' …`: every `, or` goes on
  const alternatives =
    new RegExp(String.raw`(?:^|[\s:(=])(${item}(?:[^'.;:]{0,60}?,\s+${item}){0,30}(?:[^'.;:]{0,60}?,?\s+or\s+${item}){1,30})(?=[\s.,;)]|$)`).exec(description) ??
    // argp cflow `valid names are 'gnu' (default), 'posix', and 'dot'`: after `valid NOUNs are`, `and` ends the list too
    new RegExp(String.raw`\bvalid [a-z]+ (?:are|is):?\s+(${item}(?:[^'.;:]{0,60}?,\s+${item}){0,30}(?:[^'.;:]{0,60}?,?\s+(?:or|and)\s+${item}))(?=[\s.,;)]|$)`, 'i').exec(description);
  if (alternatives === null) return null;
  return [...(alternatives[1] ?? '').matchAll(/'([^']+)'/g)].map((match) => match[1] ?? '');
}

/**
 * cobra (stern) `'auto': colorize if tty attached, 'always': always colorize, 'never': never
 * colorize.`: two or more quoted values, each defined after its own colon.
 */
function quotedDefinitionChoices(description: string): string[] | null {
  const items = [...description.matchAll(/(?:^|[\s,.;(])(["'])([a-z0-9][\w.-]{0,30})\1:\s/g)].map((match) => match[2] ?? '');
  return items.length >= 2 ? [...new Set(items)] : null;
}

/**
 * cobra (stern) `Tail containers with state in running, waiting, terminated, or all. … (default
 * [all])`: a list of three or more ending its sentence that holds the stated default (pflag
 * prints a slice default in brackets) names the values.
 */
function listHoldingDefaultChoices(description: string, defaultText: string | null): string[] | null {
  // pflag's one-item slice default `(default [all])` is read as no default (a list), but names an item here
  const stated = defaultText?.replace(/^\[(.*)\]$/, '$1') ?? /\(default:?\s+\[([\w.-]{1,30})\]\)/.exec(description)?.[1];
  if (stated === undefined) return null;
  const list = new RegExp(String.raw`(?:^|[\s:])(${LIST_ITEM}(?:,\s+${LIST_ITEM}){1,30},?\s+(?:or|and)\s+${LIST_ITEM})(?=\.(?:\s|$))`, 'g');
  for (const match of description.matchAll(list)) {
    const introduction = /[^.]*$/.exec(description.slice(0, match.index))?.[0] ?? '';
    if (/\b(e\.g|i\.e|example|such as|like|including)\b/i.test(introduction)) continue;
    const items = (match[1] ?? '').split(/,?\s+(?:or|and)\s+|,\s+/);
    if (items.length >= 3 && items.includes(stated)) return items;
  }
  return null;
}

/**
 * cac (unocss) `Switch wind3 or wind4 preset as default. … (default: wind4)`: two values joined by
 * `or`, one of them the stated default, are the values (not kinds of value: `file or stdin`).
 */
function pairHoldingDefaultChoices(description: string, defaultText: string | null): string[] | null {
  if (defaultText === null) return null;
  for (const match of description.matchAll(new RegExp(String.raw`(?:^|\s)(${LIST_ITEM}) or (${LIST_ITEM})(?=[\s.,;)]|$)`, 'g'))) {
    const pair = [match[1] ?? '', (match[2] ?? '').replace(/\.$/, '')];
    const introduction = /[^.]*$/.exec(description.slice(0, match.index))?.[0] ?? '';
    if (EXAMPLE_CUE.test(introduction) || namesAnyKindOfValue(pair) || pair[0] === pair[1]) continue;
    if (pair.includes(defaultText)) return pair;
  }
  return null;
}

const PIPED_ITEM = String.raw`(?:'[a-z0-9][\w.-]{0,30}'|"[a-z0-9][\w.-]{0,30}"|true|false|null)`;
/** sade (publint) `Level of messages to log ('suggestion' | 'warning' | 'error')`: quoted values joined by pipes in parentheses. */
const QUOTED_PIPE_PAREN = new RegExp(String.raw`\((${PIPED_ITEM}(?:\s*\|\s*${PIPED_ITEM}){1,30})\)`);

/** The values of a `('a' | 'b' | false)` list (two or more of them quoted), or null. */
export function quotedPipeChoices(description: string): string[] | null {
  const match = QUOTED_PIPE_PAREN.exec(description);
  const items = match === null ? [] : (match[1] ?? '').split(/\s*\|\s*/);
  if (items.filter((item) => /^["']/.test(item)).length < 2) return null;
  return items.map((item) => item.replace(/^["']|["']$/g, ''));
}

/**
 * sade (svelte-check) `` `error` will output only errors while `warning` will output warnings and
 * errors. (default warning)``: two or more backquoted values, each the subject of what it does,
 * one of them the stated default.
 */
function backquotedClauseChoices(description: string, defaultText: string | null): string[] | null {
  if (defaultText === null) return null;
  const items = [...description.matchAll(/`([a-z0-9][\w.-]{0,30})` (?:will|means|shows|prints|outputs|reports)\b/g)].map((match) => match[1] ?? '');
  return items.length >= 2 && items.includes(defaultText) ? [...new Set(items)] : null;
}

/**
 * Go flag `Targets format [http, json] (default "http")`, Ruby OptionParser asciidoctor `[INFO, WARN,
 * ERROR, FATAL] (default: FATAL)`: a bracketed list holding the stated default (in any case).
 */
const BRACKETED_LIST_ITEM = String.raw`[A-Za-z0-9][\w.-]{0,30}`;

function bracketedListChoices(description: string, defaultText: string | null): string[] | null {
  if (defaultText === null) return null;
  const bracketed = new RegExp(String.raw`\[(${BRACKETED_LIST_ITEM}(?:,\s*${BRACKETED_LIST_ITEM}){1,30})\]`).exec(description);
  const items = bracketed === null ? [] : (bracketed[1] ?? '').split(/,\s*/);
  return items.includes(defaultText) ? items : null;
}

/** yargs prose: `(SIGTERM/SIGKILL, defaults to SIGTERM)`: slash-separated values, one of them the default. */
function slashedDefaultChoices(description: string): string[] | null {
  const slashed = /\(([\w.-]{1,30}(?:\/[\w.-]{1,30}){1,30}),\s+defaults?(?:\s+to|:)?\s+([\w.-]{1,30})\)/i.exec(description);
  const items = slashed === null ? [] : (slashed[1] ?? '').split('/');
  if (items.includes(slashed?.[2] ?? '')) return items;
  return null;
}

/** opusenc `(2.5, 5, 10, 20, 40, 60, default: 20)`: a parenthesized list closed by its default, one of the items. */
function parenListWithDefault(description: string): string[] | null {
  const listed = new RegExp(String.raw`\((${LIST_ITEM}(?:,\s*${LIST_ITEM}){1,30}),\s*default:?\s+(${LIST_ITEM})\)`, 'i').exec(description);
  const items = listed === null ? [] : (listed[1] ?? '').split(/,\s*/);
  return items.includes(listed?.[2] ?? '') ? items : null;
}

/** GNU: `WHEN is 'always', 'never', or 'auto'`. */
function placeholderIsQuotedListChoices(description: string): string[] | null {
  const quotedList = /\b[A-Z][A-Z_]{1,20} is ('[^']{1,40}'(?:(?:,\s*or|,|\s+or)\s+'[^']{1,40}'){1,30})/.exec(description);
  if (quotedList) return [...(quotedList[1] ?? '').matchAll(/'([^']{1,40})'/g)].map((match) => match[1] ?? '');
  return null;
}

/** GNU uniq: `METHOD={none(default),prepend,separate}`: the choices, and the one marked as the default. */
function readBracedChoices(facts: DescriptionFacts): void {
  const braced = /\b[A-Z][A-Z_]{1,20}=\{([^{}]{1,400})\}/.exec(facts.description);
  if (braced) {
    const items = (braced[1] ?? '').split(',').map((item) => item.trim());
    facts.choices = items.map((item) => item.replace(/\(default\)$/, ''));
    const marked = items.find((item) => item.endsWith('(default)'));
    if (marked !== undefined && facts.defaultText === null) facts.defaultText = marked.replace(/\(default\)$/, '');
  }
}

const GLOSSED_ITEM = String.raw`[A-Za-z0-9][\w.-]{0,30} \([^()]{1,30}\)`;
/** optparse qrcode `Choices are L (7%), M (15%, default), Q (25%), and H (30%).`: every item glossed in parentheses. */
const GLOSSED_NAMED_VALUES = new RegExp(
  String.raw`(?:^|[.!?]\s+|\b(?:valid|possible|allowed|accepted|supported)\s+)(?:choices|values)\s+are\s*:?\s+(${GLOSSED_ITEM}(?:(?:,\s*(?:and|or)|,|\s+(?:and|or))\s+${GLOSSED_ITEM}){1,30})(?=\s*(?:[.;]|$))`,
  'i',
);

/**
 * Values named as such, each with a gloss in parentheses (`L (7%), M (15%, default)`): the glosses
 * are no part of the values, and the one whose gloss says `default` is the default.
 */
function readGlossedNamedValues(facts: DescriptionFacts): void {
  const match = GLOSSED_NAMED_VALUES.exec(facts.description);
  if (match === null || facts.choices !== null) return;
  const items = [...(match[1] ?? '').matchAll(/([A-Za-z0-9][\w.-]{0,30}) \(([^()]{1,30})\)/g)];
  facts.choices = items.map((item) => item[1] ?? '');
  const marked = items.filter((item) => /(?:^|,\s*)default$/i.test(item[2] ?? ''));
  if (facts.defaultText === null && marked.length === 1) facts.defaultText = marked[0]?.[1] ?? null;
}

/** Choices written in prose rather than in an annotation group; the first spelling that matches wins. */
function readProseChoices(facts: DescriptionFacts): void {
  const { description } = facts;
  readGlossedNamedValues(facts);
  facts.choices ??= oneOfChoices(description);
  facts.choices ??= quotedProseChoices(description);
  facts.choices ??= slashedDefaultChoices(description);
  facts.choices ??= parenListWithDefault(description);
  facts.choices ??= placeholderIsQuotedListChoices(description);
  facts.choices ??= quotedAlternativeChoices(description);
  facts.choices ??= bracketedListChoices(description, facts.defaultText);
  facts.choices ??= quotedDefinitionChoices(description);
  facts.choices ??= quotedPipeChoices(description);
  facts.choices ??= backquotedClauseChoices(description, facts.defaultText);
  facts.choices ??= listHoldingDefaultChoices(description, facts.defaultText);
  facts.choices ??= pairHoldingDefaultChoices(description, facts.defaultText);
  if (facts.choices === null) readBracedChoices(facts);
}

/**
 * A default named inside a list of values. GNU numfmt `MODE can be: abort (default), fail`, shasum
 * `1 (default), 224, 256`: the marked item; clap long help `<WHERE> can be:` then
 * `null: Redirect output to /dev/null (the default).`: the defined item (a listed value, so quoted
 * even when it is a word like `null`).
 */
function readListedDefault(facts: DescriptionFacts): void {
  const { description } = facts;
  if (facts.defaultText === null) {
    // GNU patch quotes the items: `'ignore' that they are read-only, 'warn' (default), or 'fail'`
    // …and rake `OUT can be stderr (default) or stdout.` (the first of two, after the value name)
    const marked =
      new RegExp(String.raw`(?:^|[:,]\s*|\b(?:either|one of|are)\s+)(['"]?)(${LIST_ITEM})\1 \(default\)(?=\s*(?:,|$)|\s+or\s)`).exec(description) ??
      new RegExp(String.raw`\b[A-Z][A-Z_]{1,20}\s+(?:is|can be|must be)\s+()(${LIST_ITEM}) \(default\)(?=\s+or\s+${LIST_ITEM}\.?(?:\s|$))`).exec(description) ??
      // nbstripout `Specify mode between [jupyter (default) | zeppelin]`: an item of a bracketed `|` list
      new RegExp(String.raw`\[(?:${LIST_ITEM}\s*\|\s*){0,10}()(${LIST_ITEM}) \(default\)(?=\s*[|\]])`).exec(description);
    // optparse markdown `Use output format 'xhtml' (default) or 'html'.`: a quoted item may follow any word
    const quotedMarked = marked ?? new RegExp(String.raw`(?:^|\s)(['"])(${LIST_ITEM})\1 \(default\)(?=\s*(?:,|$)|\s+or\s)`).exec(description);
    if (quotedMarked) {
      facts.defaultText = quotedMarked[2] ?? null;
      facts.defaultQuoted = (quotedMarked[1] ?? '') !== '';
    }
  }
  if (facts.defaultText === null) {
    // shfmt `0 for tabs (default), >0 for number of spaces`: the value whose meaning is marked
    const meaning = new RegExp(String.raw`(?:^|,\s*)(${LIST_ITEM}) for [^,()]{1,60} \(default\)`).exec(description);
    if (meaning) facts.defaultText = meaning[1] ?? null;
  }
  if (facts.defaultText === null) {
    // iucode_tool `0 or auto (default); 1 or fast (…)`: the alias marked in a clause of aliased values
    const aliasDefault = new RegExp(String.raw`(?:^|[:;]\s+)${LIST_ITEM} or (${LIST_ITEM}) \(default\);`).exec(description);
    if (aliasDefault) {
      facts.defaultText = aliasDefault[1] ?? null;
      facts.defaultQuoted = true;
    }
  }
  if (facts.defaultText === null) {
    // fdupes `(BY='time'; default)`: a value named by assignment, then `; default` in its parentheses
    const assignedDefault = new RegExp(String.raw`\([A-Z][A-Z0-9_]{0,20}=(['"])(${LIST_ITEM})\1;\s*default\)`).exec(description);
    if (assignedDefault) {
      facts.defaultText = assignedDefault[2] ?? null;
      facts.defaultQuoted = true;
    }
  }
  if (facts.defaultText === null) {
    const starred = starredList(description);
    if (starred !== null) {
      facts.defaultText = starred.starred;
      facts.defaultQuoted = true;
    }
  }
  if (facts.defaultText === null) {
    // GNU date `FMT='date' for date only (the default), 'hours', …`: a quoted item whose few words end in `(the default)`
    const described = /(?:^|[\s:(=])'([a-z0-9][\w.-]{0,30})'[^'.;:()]{0,60}\(the default\)/.exec(description);
    if (described) {
      facts.defaultText = described[1] ?? null;
      facts.defaultQuoted = true;
    }
  }
  if (facts.defaultText === null) {
    const definition = new RegExp(String.raw`(?:^|[:.]\s+)(${LIST_ITEM}):\s+[^:()]{1,200}\(the default\)`).exec(description);
    if (definition) {
      facts.defaultText = definition[1] ?? null;
      facts.defaultQuoted = true;
    }
  }
}

/**
 * clap (bat) marks the default of a parenthesized list with asterisks: `(*auto*, never, always)`,
 * `(always, *never*)`. Exactly one starred item among two or more; the list is the choices.
 */
export function starredList(description: string): { choices: string[]; starred: string } | null {
  const list = new RegExp(String.raw`\((\*?${LIST_ITEM}\*?(?:,\s*\*?${LIST_ITEM}\*?){1,30})\)`).exec(description);
  if (list === null) return null;
  const items = (list[1] ?? '').split(/,\s*/);
  const starred = items.filter((item) => /^\*[^*]+\*$/.test(item));
  if (starred.length !== 1 || items.some((item) => /^\*[^*]*$|^[^*]+\*$/.test(item))) return null;
  return { choices: items.map((item) => item.replace(/^\*|\*$/g, '')), starred: (starred[0] ?? '').slice(1, -1) };
}

/** A default stated in a sentence: `defaults to x`, `default: x`, `the default is 1`, `(default 5)`. */
/**
 * Getopt::Long helps (licensecheck): `(default value: 5000 (roughly 60 lines))`, `(default value:
 * '\n ' (NEWLINE SPACE))`: one value, maybe followed by a parenthesized gloss on it, closing the
 * parenthesis (`(default value: common source files)` is prose and matches nothing).
 */
const DEFAULT_VALUE_CLAUSE = /\(default value:\s+("[^"]{0,200}"|'[^']{0,200}'|[^\s()'"]{1,200})(?:\s+\([^()]{0,200}\))?\)/i;

function readProseDefault(facts: DescriptionFacts): void {
  const { description } = facts;
  const plain =
    // not a conditional one (`defaults to "checked-hash" if SOURCE_DATE_EPOCH is set`), nor alternatives (`index or name`)
    /\bdefault(?:s to|:)\s+("[^"]{0,200}"|'[^']{0,200}'|[^\s,;)\]]{1,200})(?=[\s,;)\]]|$)(?!,?\s+\(?(?:if|when|unless|or)\b)/i.exec(description) ??
    // GNU prose: `the default is 1`, `Default is -1 which…`, `(default 5)`, `The default value is
    // 10.`, `number of jobs; default 4`, codespell `The default mask is 34.` (one noun naming the
    // value); numbers and quoted text only
    /(?:\bdefault(?: [a-z]{2,20})? is|\(default|[;,]\s+default|\b(?:instead of|than) the default)\s+("[^"]{0,200}"|'[^']{0,200}'|[+-]?\d+(?:\.\d+)?)(?!\w|\.\w)/i.exec(description) ??
    // commander (jscpd) `(Default is 100kb)`, `(Default is ./report/)`: one word closing the parenthesis
    /\(default is ([^\s(),]{1,200})\)/i.exec(description) ??
    // docopt grip: `Default is the public API: https://api.github.com` (a value after the colon ends the sentence)
    /\bdefault(?: value)? is [^.:]{1,60}:\s+([^\s,;]{1,200}?)\.?$/i.exec(description) ??
    // pg_format `Default is uppercase: 2. Values: 0=>unchanged, …`: a number after the colon ends the sentence
    /\bdefault(?: value)? is [^.:]{1,60}:\s+([+-]?\d+(?:\.\d+)?)\.(?=\s)/i.exec(description) ??
    // optparse coverage: `Sort by column: name, … or cover. Default is name.`: one word, a sentence of its own
    // (click python-dotenv `Default mode is always.`: a noun naming the value between)
    /(?:^|[.!]\s+)Default(?: [a-z]{2,20})? is ([a-z][\w.-]{0,60})\.(?=\s|$)/.exec(description) ??
    // esbuild: `(browser | node | neutral, default browser)`: the last item of a parenthesis
    /,\s+default\s+([a-z0-9][\w.-]{0,60})\)/i.exec(description) ??
    // argp cflow `(default -, meaning stdout)`: a value, then a gloss on what it means
    /\(default ([^\s,()]{1,60}), meaning\b/i.exec(description) ??
    DEFAULT_VALUE_CLAUSE.exec(description) ??
    // cwebp `quality factor (0:small..100:big), default=75`: `default=` closing a clause
    /(?:^|[,;(]\s*)default=([+-]?\d+(?:\.\d+)?|[a-z][\w.-]{0,30})(?=[\s,;)]|$)/i.exec(description) ??
    // picocli `--[no-]force  … The default is `--no-force`, meaning…`: a backquoted flag spelling
    /\bdefault is\s+(`--?[A-Za-z][\w-]{0,60}`)/i.exec(description);
  // click wraps a long `[default: /(\.direnv|\.ipy` / `nb_checkpoints|…)/]` over lines: a bracket
  // going on for more words after the value means the value was cut, and a cut value is no
  // default (`[Default: 0 (automatic)]` is whole; `[default: 10 seconds]` was read above)
  const cut = plain !== null && description[plain.index - 1] === '[' && /^\s+[^\s(\]]/.test(description.slice(plain.index + plain[0].length));
  // clap `[default: min(240, 1.5x keyint)]`: a value whose parenthesis closes past the value is an expression cut at its comma
  const unclosed = plain !== null && ((plain[1] ?? '').match(/\(/g) ?? []).length > ((plain[1] ?? '').match(/\)/g) ?? []).length;
  // mmdc `Default: input + ".svg"`: a value an operator goes on from is an expression the program computes
  const expression = plain !== null && /^\s+[+*]\s/.test(description.slice(plain.index + plain[0].length));
  // bandit `defaults to executing all tests`, uvicorn `Defaults to OpenSSL's safe defaults.`: a bare
  // word that a phrase goes on from (no punctuation after it) is the start of prose; a number keeps
  // its unit (`defaults to 5 seconds`)
  const phrase =
    plain !== null &&
    /^default(?:s to|:)/i.test(plain[0]) &&
    !/^["']/.test(plain[1] ?? '') &&
    !/^[+-]?\d/.test(plain[1] ?? '') &&
    !/[.!]$/.test(plain[1] ?? '') &&
    /^\s+[A-Za-z]/.test(description.slice(plain.index + plain[0].length)) &&
    !namesFileByNoun(plain[1] ?? '', description.slice(plain.index + plain[0].length));
  if (plain && !cut && !unclosed && !expression && !phrase && !isListDefault(description, plain) && !isPerCaseDefault(description, plain)) setDefault(facts, (plain[1] ?? '').replace(/\.$/, ''));
}

/**
 * python-dotenv `Location of the .env file, defaults to .env file in current working directory.`: a
 * file name (a dot in it) followed by the noun `file` / `directory` is the value, the phrase only
 * says what it is.
 */
function namesFileByNoun(value: string, after: string): boolean {
  return /^\.?[\w-]*\.[\w.-]+$/.test(value) && /^\s+(?:file|directory|folder|dir)\b/i.test(after);
}

/**
 * Defaults that hold only in some cases: iperf `(default 1 Mbit/sec for UDP, unlimited for TCP)`
 * (the value, maybe a unit, then `for` a case and a comma before the next case), and any default
 * in a description that states one under a condition (click `Defaults to JPEG unless WebP is
 * selected. WebP defaults to 100`): the other defaults there are per case too.
 */
function isPerCaseDefault(description: string, plain: RegExpExecArray): boolean {
  if (/^(?:\s+[^\s,;()]{1,20}){0,2}\s+for\s+[^,;()]{1,40},/.test(description.slice(plain.index + plain[0].length))) return true;
  return /\bdefaults?(?:\s+to|:|\s+is)\s+[^\s,;()]{1,60},?\s+(?:if|when|unless)\b/i.test(description);
}

/**
 * argparse (pygount) `default: .?*, _svn, __pycache__`: a bare value followed by more
 * comma-separated items to the end of the sentence is the first item of a list default, and a
 * list is no default.
 */
function isListDefault(description: string, plain: RegExpExecArray): boolean {
  if (/^["']/.test(plain[1] ?? '')) return false;
  return /^(?:,\s*[^\s,;]{1,200}){1,60}\s*(?:[.;](?=\s)|[.;]?$)/.test(description.slice(plain.index + plain[0].length));
}

/**
 * clap long help: `This is false by default.`, ``This is `false` by default, meaning…``; a value
 * must be quoted, a number or a boolean (`None are mapped by default` is prose). A backquoted
 * value is code, not a quoted string.
 */
function readByDefaultPhrase(facts: DescriptionFacts): void {
  // etcdctl `ASCEND or DESCEND (ASCEND by default)`: a parenthesis holding only a value and `by default`
  const parenthesized = /\(([A-Za-z0-9][\w.-]{0,30}) by default\)/.exec(facts.description);
  // …a state (`(disabled by default)`, `(none by default)`) is no value
  if (parenthesized !== null && !/^(?:[a-z]+ed|none|empty|unset|nothing)$/i.test(parenthesized[1] ?? '')) {
    facts.defaultText = parenthesized[1] ?? null;
    return;
  }
  const byDefault = /\b(?:is|are)\s+(`[^`\s]{1,60}`|"[^"\s]{1,60}"|'[^'\s]{1,60}'|true|false|[+-]?\d+(?:\.\d+)?)\s+by default\b/i.exec(facts.description);
  if (byDefault) {
    const unquoted = unquote(byDefault[1] ?? '');
    facts.defaultText = unquoted.value;
    facts.defaultQuoted = unquoted.quoted && !/^`/.test(byDefault[1] ?? '');
  }
}

/**
 * argparse (ghp-import) `help='… push to. [%(default)s]'`: `The name of the remote to push to.
 * [origin]`: one bare value in brackets after the last sentence's period is its default (type
 * tags like `[string]` were read as groups before; `[a|b]` lists are none).
 */
function readTrailingBracketDefault(facts: DescriptionFacts): void {
  const trailing = /[.!?]\s+\[([^[\]\s|,:]{1,100})\]$/.exec(facts.description);
  if (trailing === null || ANNOTATION_START.test(trailing[1] ?? '') || facts.typeHint !== null) return;
  setDefault(facts, trailing[1] ?? '');
}

/** `Enabled by default.` / `Disabled by default.`: the state of a switch (see `DescriptionFacts.stateDefault`). */
function switchStateDefault(description: string): 'true' | 'false' | null {
  const state = /(?:^|[.!?;:]\s+|\b(?:is|are)\s+)(enabled|disabled) by default\b/i.exec(description);
  return state === null ? null : /^enabled$/i.test(state[1] ?? '') ? 'true' : 'false';
}

/** Strips trailing annotation groups (and a trailing period after them): their facts are read already. */
function stripTrailingAnnotations(text: string): string {
  let description = text;
  for (let guard = 0; guard < 10; guard += 1) {
    const trailing = /\s*([[(])([^[\]()]{0,400})([\])])\.?\s*$/.exec(description);
    if (!trailing) break;
    const open = trailing[1] ?? '';
    if (!isAnnotationGroup(open, trailing[2] ?? '')) break;
    description = description.slice(0, trailing.index).trimEnd();
  }
  return description;
}

/**
 * Reads the facts a description states, in passes ordered by how explicit the spelling is:
 * annotation groups first, then prose lists and prose defaults, each pass only filling what the
 * ones before left unknown.
 */
export function extractDescriptionFacts(text: string): DescriptionFacts {
  const description = text.trim();
  const facts: DescriptionFacts = {
    description,
    defaultText: null,
    defaultQuoted: false,
    choices: null,
    required: false,
    repeatable: REPEATABLE_PHRASES.test(description),
    typeHint: null,
    stateDefault: null,
  };
  readAnnotationGroups(facts);
  // click `[default: (\.pyi?|\.ipynb)$]`: a value with brackets or parentheses of its own, up to the matching `]`
  if (facts.defaultText === null) facts.defaultText = bracketedDefault(description);
  readProseChoices(facts);
  readListedDefault(facts);
  if (facts.defaultText === null) readProseDefault(facts);
  if (facts.defaultText === null) readByDefaultPhrase(facts);
  if (facts.defaultText === null) readTrailingBracketDefault(facts);
  facts.stateDefault = switchStateDefault(description);
  facts.description = stripTrailingAnnotations(description);
  return facts;
}

const LIST = String.raw`(${LIST_ITEM}(?:(?:,\s*or|,|\s+or)\s+${LIST_ITEM}){1,30})(?=\s*(?:[.;)(]|$))`;
/** picocli: `Valid values: xml, sarif, plain for XMLLogger, SarifLogger, and DefaultLogger respectively`. */
const LIST_FOR = String.raw`(${LIST_ITEM}(?:(?:,\s*or|,|\s+or)\s+${LIST_ITEM}){1,30})(?=\s*(?:[.;)(]|$)|\s+for\s)`;
const LIST_AFTER_NOUN = new RegExp(String.raw`\b(?:modes?|values?|types?|styles?|formats?|levels?|kinds?|methods?)\s*(?:is|are|can be)?:\s+` + LIST_FOR);

/**
 * Choices written as a plain list after a colon: `coverage mode: set, count, atomic`, `optional
 * modes: all, normal, no.`, or GNU's `show time as WORD instead of modification time: atime,
 * access, use, ctime or status` (the value name earlier in the sentence). Only for options that
 * take a value and state no choices otherwise.
 */
/** `word: a, b, c` ending the sentence (or before a parenthesis). */
// …or after a parenthesis (optparse gprof2dot `(can be specified multiple times): self-time, …`)
const AFTER_COLON_LIST = new RegExp(String.raw`([\w)]):\s+` + LIST);
const COMMA_JOINED_AFTER_COLON = new RegExp(String.raw`\w:\s+(${LIST_ITEM}(?:,${LIST_ITEM}){2,30})(?=\.?\s*(?:[;(]|$)|\.\s)`);
const CONSTANT = String.raw`[A-Z][A-Z0-9_]{1,30}`;
/** `Order of results; ASCEND or DESCEND (ASCEND by default)`: upper-case constants listed after a semicolon, ending the sentence. */
const CONSTANTS_AFTER_SEMICOLON = new RegExp(String.raw`;\s+(${CONSTANT}(?:(?:,\s*or|,|\s+or)\s+${CONSTANT}){1,30})(?=\s*(?:[.;(]|$))`);
/** `Linearizable(l) or Serializable(s)`: words each glued to a parenthesized code, and nothing else. */
const NAMED_CODES = /^[A-Za-z][\w-]{0,30}\([a-z0-9]{1,10}\)(?:(?:,\s*or|,|\s+or)\s+[A-Za-z][\w-]{0,30}\([a-z0-9]{1,10}\)){1,20}\.?$/;
/** Three or more values opening the description, ending at a period or parenthesis. */
const LEADING_LIST = new RegExp(String.raw`^(${LIST_ITEM}(?:(?:,\s*or|,|\s+or)\s+${LIST_ITEM}){2,30})(?=\s*(?:[.;(]|$))`);
/** A description that is only `a | b | c`, after a type tag (vite/cac: `[string] info | warn`). */
const PIPE_LIST = new RegExp(String.raw`^\s*(?:\[\w+\]\s*)?(${LIST_ITEM}(?:\s*\|\s*${LIST_ITEM}){1,30})\s*$`);
const PAREN_SLASH_LIST = new RegExp(String.raw`\((${LIST_ITEM}(?:\/${LIST_ITEM}){2,30})\)`);
const INLINE_PIPE_LIST = new RegExp(String.raw`(?:^|\s)(${LIST_ITEM}(?:\|${LIST_ITEM}){2,30})(?=[\s.,;)]|$)`);
/** `(merge, diff3, or zdiff3)`, urfave `(atom, rss, universal)`: a parenthesized list of three or more. */
const PAREN_LIST = new RegExp(String.raw`\((${LIST_ITEM}(?:,\s*${LIST_ITEM}){1,30}(?:,?\s+or\s+${LIST_ITEM})?)\)`);
/** esbuild `(iife | cjs | esm, no default…)`: a parenthesized `a | b` list, maybe followed by a comma. */
/** oclif apollo `(swift | typescript | json-modern (exposes raw json types))`: the last item may carry a parenthesized gloss. */
const PAREN_PIPE_LIST = new RegExp(String.raw`\((${LIST_ITEM}(?:\s*\|\s*${LIST_ITEM}){1,30})\s*(?:\([^()|]{1,80}\)\s*)?[,)]`);

/** Words before a list saying its items are members of something larger or examples of it. */
const EXAMPLE_CUE = /\b(?:known|built-?in|existing|such as|e\.g|for example|for instance|including|like)\b/i;

/** A parenthesized group (from `start`, its `(`, to `end`, just past its `)` or `,`) glued to a word, `.` or `:` around it. */
function isGluedGroup(text: string, start: number, end: number): boolean {
  const before = text[start - 1] ?? ' ';
  const closed = text[end - 1] === ')';
  const after = closed ? (text[end] ?? ' ') : ' ';
  return /[\w.]/.test(before) || /[\w:.]/.test(after) && !/^\.(?:\s|$)/.test(text.slice(end));
}

/** `(3x or latest)`: exactly two values joined by `or`, the whole parenthesis. */
const PAREN_OR_PAIR = new RegExp(String.raw`\((${LIST_ITEM}) or (${LIST_ITEM})\)`);
const PAREN_NAMED = String.raw`\((${LIST_ITEM})\)`;
const PAREN_NAMED_ALTERNATIVES = new RegExp(
  String.raw`${PAREN_NAMED}(?:,\s+[^(),.;]{1,40}${PAREN_NAMED}){1,30},?\s+or\s+[^(),.;]{1,40}${PAREN_NAMED}(?=\s*(?:[.;]|$))`,
);

const WHOLE_LIST = new RegExp(String.raw`^(${LIST_ITEM}(?:(?:,\s*or|,|\s+or)\s+${LIST_ITEM}){2,30})\.?$`);

/**
 * A description that is nothing but three or more values (perl shasum `-a, --algorithm   1 (default),
 * 224, 256`): the option takes one of them, though no placeholder says so.
 */
export function wholeListChoices(description: string): string[] | null {
  const match = WHOLE_LIST.exec(description.replace(/ \(default\)(?=\s*(?:,|$))/g, ''));
  return match === null || isOpenList(match[1] ?? '') ? null : splitList(match[1] ?? '');
}

/**
 * optparse qrcode `For svg and svg-path, use: circle, …` (the values for one case, not all of them)
 * and `You can use the following shortcuts to the built-in … classes: pil, png` (shortcuts beside the
 * full values the option takes): an introduction that makes the list after its colon partial.
 */
function isCaseOrShortcutIntroduction(introduction: string): boolean {
  return /^\s*(?:for|if|when)\b[^,:]{1,80},/i.test(introduction) || /\b(?:shortcuts?|built-?in)\b/i.test(introduction);
}

/**
 * fdupes `-o --order=BY  … by file modification time (BY='time'; default), status change time
 * (BY='ctime'), or filename (BY='name')`: the value name set to a quoted value, twice or more.
 */
function assignedValueChoices(description: string, name: string): string[] | null {
  if (!/^[A-Z][A-Z0-9_]{0,20}$/.test(name)) return null;
  const values = [...description.matchAll(new RegExp(String.raw`\b${name}=(['"])(${LIST_ITEM})\1`, 'g'))].map((item) => item[2] ?? '');
  return new Set(values).size >= 2 ? [...new Set(values)] : null;
}

const ALIASED_CLAUSE = String.raw`${LIST_ITEM} or ${LIST_ITEM}(?: \([^()]{1,200}\))?`;
/**
 * argp iucode_tool `selects the strategy: 0 or auto (default); 1 or fast (good for …); and 2 or exact
 * (slow, …)`: after a colon, clauses split by `;`, each a value and its alias joined by `or`.
 */
const ALIASED_CLAUSES = new RegExp(String.raw`:\s+(${ALIASED_CLAUSE}(?:;\s+(?:and\s+)?${ALIASED_CLAUSE}){1,20})(?=\s*(?:\.|$))`);

/** ffuf `formats: json, md, csv (or, 'all' for all formats)`: one more value offered in parentheses after the list. */
function parenthesizedAlternative(rest: string): string[] {
  const extra = new RegExp(String.raw`^\s*\(or,?\s+(['"]?)(${LIST_ITEM})\1\s+for\b[^()]{0,60}\)`).exec(rest);
  return extra === null ? [] : [extra[2] ?? ''];
}

/** A list ending in an ellipsis (`5, 2015, 2016 or 2017...`) names examples, not every value. */
function isOpenList(text: string): boolean {
  return /\.{2,}$/.test(text);
}

function splitList(text: string): string[] {
  return text.split(/\s*(?:,\s*or|,|\s+or)\s+/).map((choice) => choice.replace(/\.$/, '')).filter((choice) => choice.length > 0);
}

/** pflag (yq): `[auto|a|yaml|y|json] parse format for input.`: a bracketed pipe list opening the description. */
const LEADING_BRACKET_PIPE = new RegExp(String.raw`^\[(${LIST_ITEM}(?:\|${LIST_ITEM}){1,30})\]\s`);
/** pflag (task): `Sets output style: [interleaved|group|prefixed].`: a bracketed pipe list ending a sentence. */
const ENDING_BRACKET_PIPE = new RegExp(String.raw`(?:^|\s)\[(${LIST_ITEM}(?:\|${LIST_ITEM}){1,30})\](?:\.?\s*$|\.(?=\s))`);
const QUOTED_ITEM = String.raw`(?:"${LIST_ITEM}"|'${LIST_ITEM}')`;
/** cobra (crane): `Format in which to save images ("tarball", "legacy", or "oci")`: quoted items in parentheses. */
const QUOTED_PAREN_LIST = new RegExp(String.raw`\((${QUOTED_ITEM}(?:,\s*${QUOTED_ITEM}){0,30},?\s+or\s+${QUOTED_ITEM})\)`);
const ITEM_MAYBE_QUOTED = String.raw`(?:"${LIST_ITEM}"|'${LIST_ITEM}'|${LIST_ITEM})`;
const AND_OR_LIST = String.raw`(${ITEM_MAYBE_QUOTED}(?:(?:,\s*(?:and|or)|,|\s+(?:and|or))\s+${ITEM_MAYBE_QUOTED}){1,30})`;
/** Go flag (staticcheck): `(valid choices are 'stylish', 'text' and 'json')`: the valid values named as such. */
const VALID_VALUES_ARE = new RegExp(String.raw`(?:\b(?:valid|possible|allowed|accepted|supported)\s+|(?:^|[.!?]\s+)(?=[A-Z]))(?:choices|values|options)\s+(?:are|is)\s*:?\s+` + AND_OR_LIST + String.raw`(?=\s*(?:[.;)]|$))`, 'i');
/** urfave (sops): `currently json, yaml, dotenv and binary are supported.`: the description opens with the supported values. */
const SUPPORTED_LIST = new RegExp(String.raw`^(?:(?:currently|only)\s+)?` + AND_OR_LIST + String.raw`\s+are\s+(?:(?:currently|the only ones?)\s+)?(?:supported|accepted|allowed|valid)\b`, 'i');

/**
 * sade svelte-check `Possible values are \`js\` (includes TS), \`svelte\`, \`css\`.`: backquoted
 * items read as quoted ones, and a short note in parentheses after an item is no part of the list.
 */
function withoutItemNotes(text: string): string {
  return text.replace(/`([a-z0-9][\w.-]{0,30})`/g, "'$1'").replace(/(["'])\s+\([^()"']{1,30}\)(?=,|\s+(?:or|and)\s)/g, '$1');
}

/** The values a description names as such (`Possible values are a, b, c`, `Options are a, b.`), or null. */
export function namedValuesChoices(text: string): string[] | null {
  const validValues = VALID_VALUES_ARE.exec(withoutItemNotes(text));
  return validValues === null ? null : splitAndOrList(validValues[1] ?? '');
}

function splitAndOrList(text: string): string[] {
  // a sentence's final period is no part of the last item (`Options are human, machine.`)
  return text.replace(/\.$/, '').split(/\s*(?:,\s*(?:and|or)|,|\s+(?:and|or))\s+/).map((item) => item.replace(/^["']|["']$/g, ''));
}

/**
 * Choices written in an option's prose: `levels: a, b or c`, `MODE …: a, b`, `FILENUM is 1 or 2`,
 * `(merge, diff3, or zdiff3)`, or a description that is only `info | warn | error`. Only asked for
 * options with a value placeholder.
 */
export function listedChoices(text: string, valueName: string | null): string[] | null {
  // `abort (default), fail`: the marker is no part of the list; fd's `file (f), directory (d)`: nor
  // is a one-letter alias after an item
  const starred = starredList(text);
  if (starred !== null) return starred.choices;
  // pg_format `Values: 0=>unchanged, 1=>lowercase, 2=>uppercase.`: each value, an arrow, its meaning
  const arrows = [...text.matchAll(/(?:\bvalues?:\s+|,\s+)([a-z0-9][\w.-]{0,30})\s?=>\s?\w/gi)].map((item) => item[1] ?? '');
  if (arrows.length >= 2 && new Set(arrows).size === arrows.length) return arrows;
  const bracketPipe = LEADING_BRACKET_PIPE.exec(text) ?? ENDING_BRACKET_PIPE.exec(text);
  if (bracketPipe !== null) return (bracketPipe[1] ?? '').split('|');
  const quotedParen = QUOTED_PAREN_LIST.exec(text);
  if (quotedParen !== null) return splitAndOrList(quotedParen[1] ?? '');
  const validValues = VALID_VALUES_ARE.exec(withoutItemNotes(text)) ?? SUPPORTED_LIST.exec(text);
  if (validValues !== null) return splitAndOrList(validValues[1] ?? '');
  // rake `OUT can be stderr (default) or stdout.`: nor before an `or`
  const description = text.replace(/ \(default\)(?=\s*(?:,|$)|\s+or\s)/g, '').replace(/\b([a-z0-9][\w.-]{0,30}) \([a-z0-9]\)(?=,|\s+or\s|\s*$)/g, '$1');
  // gh: `Filter by state: {open|closed|all}`
  const braced = /\{([a-z0-9][\w.-]{0,30}(?:\|[a-z0-9][\w.-]{0,30}){1,30})\}/.exec(description);
  if (braced !== null) return (braced[1] ?? '').split('|');
  // oclif: `<options: CommonJS|ESM>`
  const oclif = /<options: ([^<>|\s]{1,40}(?:\|[^<>|\s]{1,40}){1,30})>/.exec(description);
  if (oclif !== null) return (oclif[1] ?? '').split('|');
  const name = valueName?.replace(/[<>[\]{}=]/g, '') ?? '';
  // GNU od: `RADIX is one of [doxn]`: a character class, each letter one value
  const characterClass = /^[A-Z][A-Z_]{1,20}$/.test(name) ? new RegExp(String.raw`\b${name} is one of \[([a-z0-9]{2,16})\]`).exec(description) : null;
  if (characterClass !== null) return [...new Set(characterClass[1] ?? '')];
  const assigned = assignedValueChoices(description, name);
  if (assigned !== null) return assigned;
  const aliased = ALIASED_CLAUSES.exec(description);
  if (aliased !== null) return [...(aliased[1] ?? '').matchAll(new RegExp(String.raw`(?:^|;\s+(?:and\s+)?)(${LIST_ITEM}) or (${LIST_ITEM})`, 'g'))].flatMap((clause) => [clause[1] ?? '', clause[2] ?? '']);
  let match = LIST_AFTER_NOUN.exec(description);
  if (match === null && /^[A-Z][A-Z_]{1,20}$/.test(name)) {
    // GNU patch `Valid WORDs are: literal, shell, …`: the value name in the plural counts too
    match = new RegExp(String.raw`\b${name}s?\b[^.:]{0,120}:\s+` + LIST).exec(description);
    if (match === null) {
      // join `FILENUM is 1 or 2, corresponding to…`; GNU touch states them on several lines:
      // `WORD is access, atime, or use: …` then `WORD is modify or mtime: …` (all of them count)
      const sentences = new RegExp(String.raw`\b${name}\s+(?:is|must be|can be)\s+(?:one of\s+)?(${LIST_ITEM}(?:(?:,\s*or|,|\s+or)\s+${LIST_ITEM}){1,30})(?=\s*(?:[.,;:)(]|$))`, 'g');
      const lists = [...description.matchAll(sentences)].flatMap((sentence) => splitList(sentence[1] ?? ''));
      if (lists.length > 0) return [...new Set(lists)];
    }
  }
  if (match !== null) return [...splitList(match[1] ?? ''), ...parenthesizedAlternative(description.slice(match.index + match[0].length))];
  // commander: `Amount to log: silent, error, warn.`, `sections only: dev, peer, or prod (comma-delimited)`
  // not a list of examples or of the defaults (`Replaces default unsafe packages: distribute, pip`), nor an open one (`2016 or 2017...`)
  const afterColon = AFTER_COLON_LIST.exec(description);
  const introduction = afterColon === null ? '' : (/[^.]*$/.exec(description.slice(0, afterColon.index + 1))?.[0] ?? '');
  if (afterColon !== null && !/\b(e\.g|i\.e|examples?|such as|like|including|defaults?)\b/i.test(introduction) && !isCaseOrShortcutIntroduction(introduction) && !isOpenList(afterColon[2] ?? '')) return splitList(afterColon[2] ?? '');
  // etcdctl `Sort target; CREATE, KEY, MODIFY, VALUE, or VERSION`: constants after a semicolon
  const constants = CONSTANTS_AFTER_SEMICOLON.exec(description);
  if (constants !== null) return splitList(constants[1] ?? '');
  // etcdctl `Linearizable(l) or Serializable(s)`: a description made only of named codes; the codes are the values
  if (NAMED_CODES.test(description)) return [...description.matchAll(/\(([a-z0-9]{1,10})\)/g)].map((code) => code[1] ?? '');
  // tree `Select sort: name,version,size,mtime,ctime.`: three or more values joined by bare commas after a colon
  const commaJoined = COMMA_JOINED_AFTER_COLON.exec(description);
  const commaIntroduction = commaJoined === null ? '' : (/[^.]*$/.exec(description.slice(0, commaJoined.index + 1))?.[0] ?? '');
  if (commaJoined !== null && !/\b(e\.g|i\.e|example|such as|like|including|defaults?)\b/i.test(commaIntroduction)) return (commaJoined[1] ?? '').replace(/\.$/, '').split(',');
  // `npm, yarn, pnpm (default: npm).`: a description that starts with three or more values
  const leading = LEADING_LIST.exec(description);
  if (leading !== null && !isOpenList(leading[1] ?? '')) return splitList(leading[1] ?? '');
  // commander reflows a list of numbered meanings: `Set the error level. 1: exits … 2: exits …`
  const numbered = [...description.matchAll(/(?:^|[.:;]\s+)(\d{1,4}): [a-z]/g)].map((item) => item[1] ?? '');
  if (numbered.length >= 2 && new Set(numbered).size === numbered.length) return numbered;
  // urfave `Parse go files inside dependency folder, 0 disabled, 1 only parse models, 2 only parse
  // operations, 3 parse all`: three or more levels counting up by one, each followed by its meaning
  const levels = [...description.matchAll(/(?:^|,\s+)(\d{1,3}) [a-z]/g)].map((item) => item[1] ?? '');
  if (levels.length >= 3 && levels.every((level, index) => index === 0 || Number(level) === Number(levels[index - 1]) + 1)) return levels;
  // opusenc `1 for big endian, 0 for little (default: 0)`: numbers, each followed by `for` and its meaning, open the description
  if (/^\d{1,3} for [a-z]/.test(description)) {
    const meanings = [...description.matchAll(/(?:^|,\s*(?:or\s+)?)(\d{1,3}) for [a-z]/g)].map((item) => item[1] ?? '');
    if (meanings.length >= 2 && new Set(meanings).size === meanings.length) return meanings;
  }
  // hyperfine: `Set output style type (default: auto). Set this to 'basic' to … Set it to 'full' to …`
  const settings = [...description.matchAll(/\bset (?:this|it) to (["'`])([a-z0-9][\w.-]{0,30})\1/gi)].map((setting) => setting[2] ?? '');
  if (settings.length >= 3) {
    const stated = /\(default:? ([a-z0-9][\w.-]{0,30})\)/i.exec(description)?.[1];
    return [...new Set([...(stated !== undefined ? [stated] : []), ...settings])];
  }
  const wholePipe = PIPE_LIST.exec(description);
  if (wholePipe !== null) return (wholePipe[1] ?? '').split(/\s*\|\s*/);
  // pflag `Cache mode off|minimal|writes|full (default off)`: three or more values joined by bare pipes, one word in the sentence
  const inlinePipe = INLINE_PIPE_LIST.exec(description);
  if (inlinePipe !== null) return (inlinePipe[1] ?? '').split('|');
  const parenthesized = PAREN_LIST.exec(description);
  // black `add the given magic to the list of known python-magics (capture, prun, …)`: members of a
  // list the option adds to, or examples (`such as`, `e.g.`), are no list of its values
  if (parenthesized !== null && EXAMPLE_CUE.test(/[^.]*$/.exec(description.slice(0, parenthesized.index))?.[0] ?? '')) return null;
  // flake8 `(default, pylint, quiet-filename) or a format string`: an alternative outside the list opens it
  if (parenthesized !== null && /^\s*or\b/.test(description.slice(parenthesized.index + parenthesized[0].length))) return null;
  if (parenthesized !== null) {
    // optipng `(256,512,1k,2k,4k,8k,16k,32k)`: bare commas join the items too
    const content = parenthesized[1] ?? '';
    const items = /\s/.test(content) ? splitList(content) : content.split(',');
    // two without `or` (`(x, y)`) are an example more often than the choices
    if (items.length >= 3 || /\sor\s/.test(parenthesized[1] ?? '')) return items;
  }
  // citty nuxi `release channel (3x or latest)`: two values joined by `or` in parentheses, when neither names a kind of value (`(file or directory)`)
  const pairedOr = PAREN_OR_PAIR.exec(description);
  if (pairedOr !== null && !isGluedGroup(description, pairedOr.index, pairedOr.index + pairedOr[0].length)) {
    const pair = [pairedOr[1] ?? '', pairedOr[2] ?? ''];
    if (!namesAnyKindOfValue(pair) && !EXAMPLE_CUE.test(/[^.]*$/.exec(description.slice(0, pairedOr.index))?.[0] ?? '')) return pair;
  }
  // commander svgo: `Output as Data URI string (base64), URI encoded (enc) or unencoded (unenc)`:
  // three or more alternatives, each naming its value in parentheses
  const named = PAREN_NAMED_ALTERNATIVES.exec(description);
  if (named !== null) return [...named[0].matchAll(/\(([^()]+)\)/g)].map((item) => item[1] ?? '');
  // commander madge: `layout engine to use (dot/neato/fdp/sfdp/twopi/circo)`: three or more joined by slashes
  const slashed = PAREN_SLASH_LIST.exec(description);
  if (slashed !== null) return (slashed[1] ?? '').split('/');
  const piped = PAREN_PIPE_LIST.exec(description);
  // vegeta `(ip|host):port`, knip `knip.(js|ts)`: a group glued to the text around it is part of a pattern
  if (piped !== null && isGluedGroup(description, piped.index, piped.index + piped[0].length)) return null;
  return piped === null ? null : (piped[1] ?? '').split(/\s*\|\s*/);
}

/**
 * urfave `Property Naming Strategy like snakecase,camelcase,pascalcase (default: "camelcase")`: a
 * list after `like` gives examples, unless the stated default is one of them — then it names the
 * values (a compact `a,b,c` list of three or more).
 */
export function exampleListChoices(description: string, defaultText: string | null): string[] | null {
  if (defaultText === null) return null;
  const match = new RegExp(String.raw`\blike\s+(${LIST_ITEM}(?:,${LIST_ITEM}){2,30})(?=\s*(?:[.;(]|$))`).exec(description);
  const items = match === null ? [] : (match[1] ?? '').split(',');
  return items.includes(defaultText) ? items : null;
}

/** `json   machine-readable`, or with a dash between (Go benchstat's `text - plain text`). */
const DEFINITION_LINE = /^([a-z0-9][\w.-]{0,30}(?:,\s*[a-z0-9][\w.-]{0,30}){0,5})(?:\s{2,}|\s+-\s+)\S/;

/**
 * A value list written as a definition list under a line ending in `:` — in an option's own
 * description (`output format:` then `json   machine-readable`…) or in a paragraph after the
 * options (GNU `Here are the values:` then `none, off   never make backups`). Every listed name
 * (comma-separated aliases too) is a choice. Null unless at least two items follow the colon.
 * `indents` (one per line) lets an item's description run on over deeper lines.
 */
export function definitionListChoices(lines: readonly string[], indents?: readonly number[]): string[] | null {
  const colon = lines.findIndex((line) => /:$/.test(line));
  if (colon === -1) return null;
  const choices: string[] = [];
  let itemIndent: number | undefined;
  for (const [offset, line] of lines.slice(colon + 1).entries()) {
    // with indents known, a line deeper than the items continues the item above
    const indent = indents?.[colon + 1 + offset];
    itemIndent ??= indent;
    if (indent !== undefined && itemIndent !== undefined && indent > itemIndent) continue;
    // clap long help: `Possible values:` then `- fast: Run swiftly`
    // …clipanion (yarn) backquotes them: `- \`skip-build\` will not run the build scripts`
    const match = DEFINITION_LINE.exec(line) ?? /^- ([a-z0-9][\w.-]{0,30})(?::|\s|$)/.exec(line) ?? /^- `([a-z0-9][\w.-]{0,30})`(?::|\s|$)/.exec(line);
    // an item of the list that is no plain name (GNU od `d[SIZE]   signed decimal`) leaves it open
    if (!match && choices.length > 0 && /^\S{1,40}\s{2,}\S/.test(line) && (indent === undefined || indent === itemIndent)) return null;
    if (!match) break;
    choices.push(...(match[1] ?? '').split(/,\s*/));
  }
  // an upper-case item (`pBRE`, `N`) is a placeholder: the list is not closed
  if (choices.some((choice) => /[A-Z]/.test(choice))) return null;
  return choices.length >= 2 ? [...new Set(choices)] : null;
}
