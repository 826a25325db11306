/**
 * Facts that help texts state inside an option's description: defaults, choices, required,
 * repeatable and type tags, in the spellings of the common help styles.
 */
import { namesAnyKindOfValue } from './option-head.ts';
import { describesPathValue } from './evidence-choices.ts';
import { EXAMPLE_CUE, LIST_ITEM, starredList } from './prose-list.ts';
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
  /** The rule that read the default (`default-bracket`, `default-paren`, `default-prose`, …): its claim's source. */
  defaultRule?: string;
  /** The rule that read the choices (`possible-values`, `choices-paren`, `choices-prose`, …). */
  choicesRule?: string;
}

/** Runs one reading step and names it as the rule of the default or choices it set. */
function step(facts: DescriptionFacts, rule: string | ((facts: DescriptionFacts) => string), run: () => void): void {
  const defaultText = facts.defaultText;
  const choices = facts.choices;
  run();
  const name = typeof rule === 'string' ? rule : rule(facts);
  if (facts.defaultText !== defaultText) facts.defaultRule = `default-${name}`;
  if (facts.choices !== choices && facts.choices !== null) facts.choicesRule = `choices-${name}`;
}


const TYPE_TAGS: Record<string, CliValueType> = { string: 'string', number: 'number', boolean: 'boolean', count: 'integer' };

/**
 * A text quoted at both ends whose quote closes and opens again around `or` / `and` is several
 * quoted values, not one (meow tsd `[Default: '/path/test-d/**\/*.test-d.ts' or '.tsx']`:
 * alternatives): it stays unquoted, so the space-holding text reads as prose.
 */
function closesBeforeEnd(inner: string, quote: string): boolean {
  return new RegExp(String.raw`(?<!\\)${quote}\s+(?:or|and)\s+${quote}`).test(inner);
}

function unquote(text: string): { value: string; quoted: boolean } {
  const trimmed = text.trim();
  if (trimmed.length >= 2) {
    const first = trimmed[0];
    const last = trimmed[trimmed.length - 1];
    if ((first === '"' || first === "'" || first === '`') && last === first && !closesBeforeEnd(trimmed.slice(1, -1), first)) {
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
  // commander attw `(choices: "a", "b", default: [])`: an empty array nested inside counts with the group
  const pattern = /[[(]((?:[^[\]()]|\[\]){0,400})[\])]/g;
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

/**
 * The value of a `[default: …]` whose own brackets and parentheses nest (one word, no spaces), or
 * null; argparse's `(default: [!"#$%&'()*+,-./\:;<=>?@[]^_`{|}~]{4,})` closing the description
 * too, when the value holds brackets of its own (plainer values are read with the prose defaults).
 */
function bracketedDefault(description: string): string | null {
  const start = /\[default:\s*/i.exec(description) ?? /\(default:\s*(?=\S*[[({])/i.exec(description);
  if (start === null) return null;
  const [open, close] = start[0].startsWith('[') ? ['[', ']'] : ['(', ')'];
  let depth = 1;
  const from = start.index + start[0].length;
  for (let position = from; position < description.length && position < from + 400; position += 1) {
    const character = description[position];
    if (character === open) depth += 1;
    if (character === close) depth -= 1;
    if (depth === 0) {
      const value = description.slice(from, position);
      const closesDescription = open === '[' || /^\.?\s*$/.test(description.slice(position + 1));
      return value.length > 0 && !/\s/.test(value) && closesDescription ? value : null;
    }
  }
  return null;
}

const REPEATABLE_PHRASES =
  /\b(may|can) be (repeated|given (several|multiple|more than once) times?|specified (several|multiple) times|used (several|multiple) times|given more than once|specified more than once)|\brepeatable\b|\brepeat(ed)? (for|to give) (several|multiple)|\b(?:pass(?:ed)?|specif(?:y|ied)|set|suppl(?:y|ied)|giv(?:e|en)|used?|repeated|provided?|or)\s+multiple times\b/i;

/**
 * argh naga `the shader stage, for example 'frag', 'vert', or 'compute'`, `e.g. 'glsl', 'wgsl', or
 * 'bin'`: a list right after an example marker names some values of an open set, never all of them.
 */
/** Whether a `{` is left open before the `index`th match (braces counted once over the text, from match to match). */
function openBraceBefore(text: string, matches: readonly RegExpExecArray[], index: number): boolean {
  let depth = 0;
  let from = 0;
  for (let at = 0; at <= index; at++) {
    const upTo = matches[at]?.index ?? from;
    for (let char = from; char < upTo; char++) {
      if (text[char] === '{') depth += 1;
      else if (text[char] === '}' && depth > 0) depth -= 1;
    }
    from = upTo;
  }
  return depth > 0;
}

/**
 * watchmedo `variables …: ${watch_src_path} - event source path … ${watch_object} - 'file' or
 * 'directory'`: a list right after a template variable's name gives that variable's values.
 */
function followsTemplateField(description: string, index: number): boolean {
  return /\$\{?[A-Za-z_]\w{0,40}\}?\s*(?:-|:|=|is)?\s*$/.test(description.slice(Math.max(0, index - 50), index));
}

function followsExampleMarker(description: string, index: number): boolean {
  // (`E.g.: "a", "b"`: a colon may follow the marker as a comma does)
  return /(?:\be\.g\.|\bfor (?:example|instance)|\bsuch as|\blike|\bexamples?:?)[,:]?\s*$/i.test(description.slice(Math.max(0, index - 40), index));
}

/** Markdown code spans of one value (`` `Restrict` ``, not an option's spelling) quoted as `'Restrict'`. */
function withCodeSpansQuoted(text: string): string {
  return text.replace(/`([^`'"\s-][^`'"\s]{0,39})`/g, "'$1'");
}

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
/**
 * eleventy `--serve   Run web server on --port (default 8080) and watch them too`: a parenthesis right
 * after another option's spelling annotates that option, not this one.
 */
function followsOptionSpelling(description: string, index: number): boolean {
  return /(?:^|\s)--?[A-Za-z][\w-]{0,40}\s*$/.test(description.slice(Math.max(0, index - 60), index));
}

function readAnnotationGroups(facts: DescriptionFacts): void {
  for (const group of groups(facts.description)) {
    const body = group.body.trim();
    // (…not pflag's `… when specifying --no-follow (default -1)` closing the line: the framework's own)
    if (group.open === '(' && followsOptionSpelling(facts.description, group.start) && !/^\.?\s*$/.test(facts.description.slice(group.end))) continue;
    for (const part of body.split(/;\s*/)) {
      const defaultMatch = /^default(?::\s*|=|\s+)([\s\S]*)$/i.exec(part.trim());
      // clap rav1e `[default:  0 for s0-s9, 1 for s10] [default: 1]`: a later one-word default outranks a first one in prose
      const proseBefore = facts.defaultText !== null && !facts.defaultQuoted && /\s/.test(facts.defaultText) && !/\s/.test((defaultMatch?.[1] ?? ' ').trim());
      if (defaultMatch && (facts.defaultText === null || proseBefore) && group.open === '[') step(facts, 'bracket', () => setDefault(facts, withoutArgoptType(defaultMatch[1] ?? '')));
    }
    if (group.open === '(') step(facts, 'paren', () => readParenthesisGroup(facts, body));
    else step(facts, (read) => (read.choicesTagged === true && /^possible values:/i.test(body) ? 'possible-values' : 'bracket'), () => readBracketGroup(facts, body));
  }
}

/**
 * argopt (docopt with types) writes a bracketed default with its type after a colon: `[default: 0:int]`,
 * `[default: 0.5:float]`. The type names the value's kind, never part of it.
 */
function withoutArgoptType(value: string): string {
  return value.replace(/^(\S{1,60}):(?:int|float|str|bool|file)$/, '$1');
}

/** commander: (choices: "a", "b", default: "a"); GNU/Go/argparse: (default x), (default: x); `(required)`. */
function readParenthesisGroup(facts: DescriptionFacts, body: string): void {
  const choicesMatch = /^choices:\s*(.*?)(?:,\s*default:\s*(.*))?$/i.exec(body);
  if (choicesMatch) {
    if (facts.choices === null) facts.choicesTagged = true;
    facts.choices = facts.choices ?? splitChoices(choicesMatch[1] ?? '');
    if (choicesMatch[2] !== undefined && facts.defaultText === null) setDefault(facts, choicesMatch[2]);
  }
  // lz4 `(default : 1)`: a space may stand before the colon (pflag `(default :0)`: a colon glued to the value is part of it)
  const defaultMatch = /^default(?::\s*(.*)|\s:\s+(.*)|=(.*)|\s+("[^"]*"|'[^']*'|[^\s:]\S*|:\S+))$/i.exec(body);
  // javascript-obfuscator `(Default: 0.8, Min: 0, Max: 1)`, memcached `(default: 1m, min: 1k, max: 1024m)`: another `Key:` of the group ends the value;
  // docopt pip-upgrade `(default: 0, disabled)`: a number glossed by one word is that number;
  // argparse xlsx2csv `(default: comma ',')`: a quoted value named by one word before it is that value
  if (defaultMatch && facts.defaultText === null) {
    setDefault(facts, (defaultMatch[1] ?? defaultMatch[2] ?? defaultMatch[3] ?? defaultMatch[4] ?? '').replace(/,\s+(?:[A-Z][a-z]{1,20}|min|max|minimum|maximum):\s.*$/, '').replace(/^([+-]?\d+(?:\.\d+)?),\s+[a-z]{2,20}$/, '$1').replace(/^[a-z]{2,20}\s+((["'])[^"'\s]{1,20}\2)$/, '$1'));
  }
  if (/^required$/i.test(body)) facts.required = true;
}

/**
 * yargs electron-builder `[choices: "onTag", "onTagOrDraft", "always", "never", undefined]`: yargs
 * quotes each string choice; a bare `undefined` or `null` among them is the JavaScript value (the
 * option left unset), no word to pass.
 */
function withoutBareJsValues(list: string): string {
  if (!/"/.test(list)) return list;
  return list.replace(/(?:^|,)\s*(?:undefined|null)\s*(?=,|$)/g, '').replace(/^\s*,\s*/, '');
}

/** clap `[possible values: a, b]`, `[required]`, and yargs' type tags `[string]`, `[array]`, `[count]`. */
function readBracketGroup(facts: DescriptionFacts, body: string): void {
  const possible = /^(?:possible values|choices):\s*(.*)$/i.exec(body);
  if (possible && facts.choices === null) facts.choicesTagged = true;
  if (possible) facts.choices = facts.choices ?? splitChoices(withoutBareJsValues(possible[1] ?? ''));
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
  // (electron-packager `all, or one or more of: ia32, x64, armv7l`: `one or more of` too, and a value opening the
  // description before `, or` is one more)
  const oneOf = /\b(?:one(?: or more)? of|either):?\s+([\w.-]+(?:\/[\w.-]+)*(?:\s*(?:,\s*or\b|,|\bor\b)\s*[\w.-]+(?:\/[\w.-]+)*){1,60})/i.exec(description);
  const opening = oneOf === null ? undefined : /^([a-z][\w.-]{0,30}),\s+or\s+$/.exec(description.slice(0, oneOf.index))?.[1];
  // mmdc `either md, svg, png, pdf or use \`-\` to output to stdout`: an `or` alternative that a
  // clause goes on from is no value, and leaves the list open
  if (oneOf && /\bor\s+[\w.-]+$/.test(oneOf[1] ?? '') && /^\s+[`'"\w]/.test(description.slice(oneOf.index + oneOf[0].length))) return null;
  // `use with either -useconf or -useconffile`: items spelled as options name other options, no values
  if (oneOf && /(?:^|[\s,/])-[A-Za-z]/.test(oneOf[1] ?? '')) return null;
  // a sentence's final period is no part of the last value (`…, markdown, or total.`)
  if (oneOf) return [...(opening === undefined ? [] : [opening]), ...(oneOf[1] ?? '').replace(/\.$/, '').split(/\s*(?:,\s*or\b|,|\bor\b)\s*/).flatMap((choice) => choice.split('/')).filter((choice) => choice.length > 0)];
  // mosquitto `can be one of tlsv1.3 tlsv1.2 or tlsv1.1.`: versioned names set off by spaces only,
  // `or` before the last (each holds a digit: no English words)
  const spaced = SPACED_ONE_OF.exec(description);
  if (spaced) return (spaced[1] ?? '').replace(/\.$/, '').split(/\s+(?:or\s+)?/);
  return null;
}

const SPACED_ONE_OF = /\bone of:?\s+((?:[a-z][\w-]*\d[\w.-]*\s+){1,20}or\s+[a-z][\w-]*\d[\w.-]*)(?=\s|$)/i;

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
  // (argh naga `May be \`Restrict\` (force all …), \`ReadZeroSkipWrite\` (… and don't write at all), or
  // \`Unchecked\``: a markdown code span quotes an item as well, and a note may hold an apostrophe)
  const description = withCodeSpansQuoted(text).replace(/(["'])\s+\((?:[^()"']|(?<=\w)'(?=\w)){1,80}\)(?=,|\s+or\s)/g, '$1');
  const quotedAfterColon =
    /:\s+((["'])[^"']{1,40}\2(?:(?:,\s*or|,|\s+or)\s+(["'])[^"']{1,40}\3){1,30})(?=\s*(?:[.;(]|$))/.exec(description) ??
    // …not from the middle of a quoted list (cobra `Can be 'bash', 'zsh' or 'fish'.`)
    /(?<!["']),\s+((["'])[^"']{1,40}\2(?:(?:,\s*or|,|\s+or)\s+(["'])[^"']{1,40}\3){2,30})(?=\s*(?:[.;(]|$))/.exec(description) ??
    /(?<!["']),\s+((["'])[^"']{1,40}\2\s+or\s+(["'])[^"']{1,40}\3)(?=\s*(?:[.;(]|$))/.exec(description) ??
    // Go benchstat: `format output as "text" or "csv" (default "text")`; cobra `Can be 'bash', 'zsh' or 'fish'.`;
    // commander (jscpd) `can be "strict", "mild" and "weak"`
    // (not `defaults to 'always' or can be 'auto' or 'never'`: the default is one of them too, read below)
    /\b(?:as|either|(?<!\bor (?:can|may) )be|one of)\s+((["'])[^"']{1,40}\2(?:(?:,\s*(?:or|and)|,|\s+(?:or|and))\s+(["'])[^"']{1,40}\3){1,30})(?=\s*(?:[.;(]|$))/.exec(description);
  if (quotedAfterColon !== null && followsExampleMarker(description, quotedAfterColon.index + quotedAfterColon[0].indexOf(quotedAfterColon[1] ?? ''))) return null;
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
const DOUBLE_QUOTED_ITEM = String.raw`"[a-z0-9][\w.-]{0,30}"`;

function quotedAlternativeChoices(description: string): string[] | null {
  // GNU date `FMT='date', 'seconds', or 'ns'`: the list may follow the value name's `=`
  const item = String.raw`'[a-z0-9][\w.-]{0,30}'`;
  // vite `use 'bundle' to …, or 'runner' (experimental) to …, or 'native' …`: every `, or` goes on;
  // argp nm `defaults to 'always' or can be 'auto' or 'never'`: so does `or can be`;
  // argparse xlsx2csv `'none' 'minimal' 'nonnumeric' or 'all'`: quoted items side by side need no comma
  const alternatives =
    new RegExp(String.raw`(?:^|[\s:(=])(${item}(?:(?:[^'.;:]{0,60}?,\s+|\s+)${item}){0,30}(?:[^'.;:]{0,60}?,?\s+or\s+(?:(?:can|may) be\s+)?${item}){1,30})(?=[\s.,;)]|$)`).exec(description) ??
    // argp cflow `valid names are 'gnu' (default), 'posix', and 'dot'`: after `valid NOUNs are`, `and` ends the list too
    new RegExp(String.raw`\bvalid [a-z]+ (?:are|is):?\s+(${item}(?:[^'.;:]{0,60}?,\s+${item}){0,30}(?:[^'.;:]{0,60}?,?\s+(?:or|and)\s+${item}))(?=[\s.,;)]|$)`, 'i').exec(description) ??
    // aptly's Go flag `("gpg", "gpg1", "gpg2" for external gpg or "internal" for Go internal implementation)`:
    // double-quoted alternatives so glossed count when they fill a parenthesized group from its opening to its close
    new RegExp(String.raw`\((${DOUBLE_QUOTED_ITEM}(?:[^'"().;:]{0,60}?,\s+${DOUBLE_QUOTED_ITEM}){0,30}[^'"().;:]{0,60}?,?\s+or\s+${DOUBLE_QUOTED_ITEM}[^'"().;:]{0,60})\)`).exec(description);
  const listStart = alternatives === null ? 0 : alternatives.index + alternatives[0].indexOf(alternatives[1] ?? '');
  if (alternatives === null || followsExampleMarker(description, listStart) || followsTemplateField(description, listStart)) return null;
  return [...(alternatives[1] ?? '').matchAll(/(['"])([^'"]+)\1/g)].map((match) => match[2] ?? '');
}

/**
 * command-line-usage (jsdoc2md) `Specify ether \`posix\` or \`win32\`.`: a short sentence, a verb and
 * at most one word more, whose object is code spans joined by `or`, names the values. A longer
 * lead-in says what the spans are (`Read configuration from \`pyproject.toml\` or \`setup.cfg\`.`,
 * `… stored in the \`storage\` or \`uniform\` storage classes`): no list of values.
 */
const CODE_SPAN_SENTENCE = /(?:^|[.!;]\s+)[A-Z][a-z]+(?:\s+[a-z]+)?\s+(`[a-z0-9][\w.-]{0,30}`(?:,\s+`[a-z0-9][\w.-]{0,30}`){0,30},?\s+or\s+`[a-z0-9][\w.-]{0,30}`)\.(?=\s|$)/;

function codeSpanSentenceChoices(description: string): string[] | null {
  const sentence = CODE_SPAN_SENTENCE.exec(description);
  return sentence === null ? null : [...(sentence[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
}

/**
 * cobra (stern) `'auto': colorize if tty attached, 'always': always colorize, 'never': never
 * colorize.`: two or more quoted values, each defined after its own colon.
 */
function quotedDefinitionChoices(description: string): string[] | null {
  // (csvtojson `"json" (default) -- convert csv to json. "csv" -- convert …`: a spaced dash defines too, after an optional gloss)
  const matches = [...description.matchAll(/(?:^|[\s,.;(])(["'])([a-z0-9][\w.-]{0,30})\1(?::\s|(?: \([a-z ]{1,20}\))? --? (?=[a-z]))/g)];
  // (autocannon `a JSON string like '{ "field 1": { "type": "text", "value": … } }'`: quoted names inside braces are an object's keys)
  const items = matches.filter((match, index) => !openBraceBefore(description, matches, index)).map((match) => match[2] ?? '');
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
function openingPairHoldingDefault(description: string, defaultText: string): string[] | null {
  const opening = new RegExp(String.raw`^(${LIST_ITEM}) or (${LIST_ITEM})\s*[;,]`).exec(description.trim());
  return opening === null ? null : pairHoldingDefaultChoices(opening[0], defaultText);
}

function pairHoldingDefaultChoices(description: string, defaultText: string | null): string[] | null {
  if (defaultText === null) return null;
  // (sade microbundle `Specify your target environment (node or web)  (default web)`: in parentheses too)
  for (const match of description.matchAll(new RegExp(String.raw`(?:^|[\s(])(${LIST_ITEM}) or (${LIST_ITEM})(?=[\s.,;)]|$)`, 'g'))) {
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

/** `[default: git]|first|share`: a bracketed default standing as the first item of a `|` list. */
const BRACKET_MARKED_PIPE_LIST = /\[default:\s?([\w.-]{1,30})\]((?:\|[\w-]{1,30}(?:\.[\w-]{1,30}){0,3}){1,30})(?![\w|])/i;

/**
 * argopt git-fame `Credit commit trailers: [default: git]|first|share`: the values joined by `|`, the
 * default written in its own bracket in place of its item. A help showing two of them joined by a
 * comma (`Use 'name,email' to show both`) takes a list of them in one value: no single choice.
 */
function bracketMarkedPipeChoices(description: string): string[] | null {
  const match = BRACKET_MARKED_PIPE_LIST.exec(description);
  if (match === null) return null;
  const items = [match[1] ?? '', ...(match[2] ?? '').split('|').slice(1)];
  const joined = items.some((one) => items.some((other) => other !== one && description.includes(`${one},${other}`)));
  return joined ? null : items;
}

const QUOTED_VALUE = String.raw`'[A-Za-z0-9][\w.-]{0,30}'`;
/** `the values '1', 'yes', 'true' and 'on'`: quoted values right after the word `values`, joined by commas and a last `and` / `or`. */
const VALUES_GROUP = new RegExp(String.raw`\bvalues (${QUOTED_VALUE}(?:,\s+${QUOTED_VALUE}){0,30},?\s+(?:and|or)\s+${QUOTED_VALUE})(?=[\s.,;)]|$)`, 'gi');

/**
 * rotate-backups `The values '1', 'yes', 'true' and 'on' enable system logging whereas the values '0',
 * 'no', 'false' and 'off' disable it.`: the values grouped by what they do; every group counts.
 */
function valuesGroupChoices(description: string): string[] | null {
  const groups = [...description.matchAll(VALUES_GROUP)].filter((group) => !followsExampleMarker(description, group.index));
  if (groups.length === 0) return null;
  return [...new Set(groups.flatMap((group) => [...(group[1] ?? '').matchAll(/'([^']+)'/g)].map((item) => item[1] ?? '')))];
}

/**
 * Python Fire autofaiss `Similarity function used for query: - "ip" for inner product - "l2" for
 * euclidian distance`: a docstring's bullet list (`- "ip" …` lines) reflowed into one line after a
 * colon, every item opening with a quoted value and the list closing the description.
 */
function dashBulletChoices(description: string): string[] | null {
  const list = /:\s+(-\s+["'`].{0,600})$/.exec(description.trim());
  if (list === null) return null;
  const items = (list[1] ?? '').split(/(?:^|\s)-\s+/).slice(1);
  const values = items
    .map((item) => /^(?:"([^"\s]{1,40})"|'([^'\s]{1,40})'|`([^`\s]{1,40})`)(?=\s|[:,]|$)/.exec(item))
    .map((match) => match?.[1] ?? match?.[2] ?? match?.[3])
    .filter((value): value is string => value !== undefined);
  return values.length >= 2 && values.length === items.length ? values : null;
}

/** Choices written in prose rather than in an annotation group; the first spelling that matches wins. */
function readProseChoices(facts: DescriptionFacts): void {
  const { description } = facts;
  readGlossedNamedValues(facts);
  facts.choices ??= bracketMarkedPipeChoices(description);
  facts.choices ??= valuesGroupChoices(description);
  facts.choices ??= dashBulletChoices(description);
  facts.choices ??= oneOfChoices(description);
  facts.choices ??= quotedProseChoices(description);
  facts.choices ??= slashedDefaultChoices(description);
  facts.choices ??= parenListWithDefault(description);
  facts.choices ??= placeholderIsQuotedListChoices(description);
  facts.choices ??= quotedAlternativeChoices(description);
  facts.choices ??= codeSpanSentenceChoices(description);
  facts.choices ??= bracketedListChoices(description, facts.defaultText);
  facts.choices ??= quotedDefinitionChoices(description);
  facts.choices ??= quotedPipeChoices(description);
  facts.choices ??= backquotedClauseChoices(description, facts.defaultText);
  facts.choices ??= listHoldingDefaultChoices(description, facts.defaultText);
  facts.choices ??= pairHoldingDefaultChoices(description, facts.defaultText);
  if (facts.choices === null) readBracedChoices(facts);
  if (facts.choices !== null && listsSuffixes(description, facts.choices)) facts.choices = null;
  // `file path to log to, "syslog" or "stdout"`: a value that is a path, the words listed are special ones besides it
  if (facts.choices !== null && describesPathValue(description)) facts.choices = null;
}

/**
 * wait-on `Use postfix 'ms', 's', 'm' or 'h' to change the unit.`: a list named as a postfix or
 * suffix is what may be glued onto a value (`500ms`), never the values themselves.
 */
function listsSuffixes(description: string, choices: readonly string[]): boolean {
  const first = choices[0];
  if (first === undefined) return false;
  return new RegExp(String.raw`\b(?:post|suf)fix(?:es)?(?: of)?:?\s+['"\`]?${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\b`, 'i').test(description);
}

/** The patterns of `readListedDefault`, built once (LIST_ITEM is a constant). */
const MARKED_ITEM = new RegExp(String.raw`(?:^|[:,]\s*|\b(?:either|one of|are)\s+|(?=or\s)(?<=\b${LIST_ITEM},?\s+)or\s+)(['"]?)(${LIST_ITEM})\1 \(default\)(?=\s*(?:,|$)|\s+or\s|\.(?:\s|$))`);
const MARKED_AFTER_VALUE_NAME = new RegExp(String.raw`\b[A-Z][A-Z_]{1,20}\s+(?:is|can be|must be)\s+()(${LIST_ITEM}) \(default\)(?=\s+or\s+${LIST_ITEM}\.?(?:\s|$))`);
const MARKED_BRACKET_ITEM = new RegExp(String.raw`\[(?:${LIST_ITEM}\s*\|\s*){0,10}()(${LIST_ITEM}) \(default\)(?=\s*[|\]])`);
const QUOTED_MARKED_ITEM = new RegExp(String.raw`(?:^|\s)(['"])(${LIST_ITEM})\1 \(default\)(?=\s*(?:,|$)|\s+(?:or|to)\s)`);
const MARKED_MEANING = new RegExp(String.raw`(?:^|,\s*)(${LIST_ITEM}) for [^,()]{1,60} \(default\)`);
const ASSIGNED_DEFAULT_ITEM = new RegExp(String.raw`(?:^|[.:]\s+)(?:${LIST_ITEM}=[^,=]{1,40},\s*)*(${LIST_ITEM})=default(?:,\s*${LIST_ITEM}=[^,=]{1,40})*(?=\s*$|[.;)]\s)`);
const ALIAS_MARKED_DEFAULT = new RegExp(String.raw`(?:^|[:;]\s+)${LIST_ITEM} or (${LIST_ITEM}) \(default\);`);
const ASSIGNED_NAME_DEFAULT = new RegExp(String.raw`\([A-Z][A-Z0-9_]{0,20}=(['"])(${LIST_ITEM})\1;\s*default\)`);
const DEFINITION_MARKED_DEFAULT = new RegExp(String.raw`(?:^|[:.]\s+)(${LIST_ITEM}) ?:\s+[^:()]{1,200}\(the default\)`);

/**
 * A default named inside a list of values. GNU numfmt `MODE can be: abort (default), fail`, shasum
 * `1 (default), 224, 256`: the marked item; clap long help `<WHERE> can be:` then
 * `null: Redirect output to /dev/null (the default).`: the defined item (a listed value, so quoted
 * even when it is a word like `null`).
 */
function readListedDefault(facts: DescriptionFacts): void {
  const { description } = facts;
  // every pattern below but the starred list spells `default` (a description without it skips them)
  const mentions = description.includes('default');
  if (facts.defaultText === null && mentions) {
    // GNU patch quotes the items: `'ignore' that they are read-only, 'warn' (default), or 'fail'`
    // …and rake `OUT can be stderr (default) or stdout.` (the first of two, after the value name);
    // jsdoc2md `Two options to render @param lists: list or table (default).`: the last after `or`, ending the sentence
    // (`(?=or\s)` runs the lookbehind only before an `or`: at every position it rescanned a whitespace run, ReDoS)
    const marked =
      MARKED_ITEM.exec(description) ??
      MARKED_AFTER_VALUE_NAME.exec(description) ??
      // nbstripout `Specify mode between [jupyter (default) | zeppelin]`: an item of a bracketed `|` list
      MARKED_BRACKET_ITEM.exec(description);
    // optparse markdown `Use output format 'xhtml' (default) or 'html'.`: a quoted item may follow any word
    // (eleventy `or "auto" (default) to infer it from package.json.`: then say what it does)
    const quotedMarked = marked ?? QUOTED_MARKED_ITEM.exec(description);
    if (quotedMarked) {
      facts.defaultText = quotedMarked[2] ?? null;
      // csso `none (default), inline, file or <filename>`: a word marked among listed values is one
      // of them: a literal value even when it is a word like `none` (numbers keep their type)
      const listed = /^\s*,|^\s+or\s/.test(description.slice(quotedMarked.index + quotedMarked[0].length)) && !/^[+-]?\d/.test(quotedMarked[2] ?? '');
      facts.defaultQuoted = (quotedMarked[1] ?? '') !== '' || listed;
    }
  }
  if (facts.defaultText === null && mentions) {
    // shfmt `0 for tabs (default), >0 for number of spaces`: the value whose meaning is marked
    const meaning = MARKED_MEANING.exec(description);
    if (meaning) facts.defaultText = meaning[1] ?? null;
  }
  if (facts.defaultText === null && mentions) {
    // rspec `Choose a formatter.` over the lines `[p]rogress (default - dots)`, `[d]ocumentation (…)`: a
    // list item opening a line of its own (after the sentence above), glossed `(default …)`; `[p]` marks
    // the short form of the word, no part of it
    // (cog `Control the amount of output. 2 (the default) lists all files, 1 lists only changed files`: a
    // number opening the sentence, marked `(the default)`)
    const glossed = /(?:^|[.:]\s+)((?:\[[a-z]{1,3}\])?[a-z0-9][\w-]{0,30}) \((?:the )?default(?:\)|\s+[-–:]\s[^()]{1,60}\))/.exec(description);
    if (glossed) facts.defaultText = (glossed[1] ?? '').replace(/^\[([a-z]{1,3})\]/, '$1');
  }
  if (facts.defaultText === null && mentions) {
    // pngquant `1=slow, 4=default, 11=fast & rough`: in a list of `value=meaning` items, the value meaning `default`
    const assigned = ASSIGNED_DEFAULT_ITEM.exec(description);
    const items = assigned === null ? 0 : (assigned[0].match(/=/g) ?? []).length;
    if (assigned && items >= 2) facts.defaultText = assigned[1] ?? null;
  }
  if (facts.defaultText === null && mentions) {
    // iucode_tool `0 or auto (default); 1 or fast (…)`: the alias marked in a clause of aliased values
    const aliasDefault = ALIAS_MARKED_DEFAULT.exec(description);
    if (aliasDefault) {
      facts.defaultText = aliasDefault[1] ?? null;
      facts.defaultQuoted = true;
    }
  }
  if (facts.defaultText === null && mentions) {
    // fdupes `(BY='time'; default)`: a value named by assignment, then `; default` in its parentheses
    const assignedDefault = ASSIGNED_NAME_DEFAULT.exec(description);
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
  if (facts.defaultText === null && mentions) {
    // GNU date `FMT='date' for date only (the default), 'hours', …`: a quoted item whose few words end in `(the default)`
    const described = /(?:^|[\s:(=])'([a-z0-9][\w.-]{0,30})'[^'.;:()]{0,60}\(the default\)/.exec(description);
    if (described) {
      facts.defaultText = described[1] ?? null;
      facts.defaultQuoted = true;
    }
  }
  if (facts.defaultText === null && mentions) {
    // (exiv2 `Possible modes are: s : print a summary … (the default)`: a space may stand before the item's colon)
    const definition = DEFINITION_MARKED_DEFAULT.exec(description);
    if (definition) {
      facts.defaultText = definition[1] ?? null;
      facts.defaultQuoted = true;
    }
  }
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
    // (argp nm `WHEN defaults to 'always' or can be 'auto' or 'never'`: `or can be` starts a clause of its own)
    // (grpcurl `defaults to 4,194,304 (4 megabytes)`: commas grouping a number's thousands are no list)
    // (mosquitto `Defaults to 1883 for plain MQTT and 8883 for MQTT over TLS.`: one value per case)
    // (xml_grep `(defaults to "version="<VERSION>" date="<date>"")`: quotes inside quotes cut the value: none)
    // (radon `(default to A)`, `Default to False.`, rougify `rougify will default to terminal256.`: `default
    // to` opening a sentence or parenthesis, or after `will`; not microbundle's `will default to be \`true\``,
    // nor yamlfix's `Default to '*.yaml' and '*.yml'.`, a list of quoted values)
    // (cog `Defaults to '[[[cog ]]] [[[end]]]'.`: a quoted value may close the sentence; a bare one keeps its period)
    // (kramdown `Default: section,subsection,paragraph`: a value glued by a comma to the next is a list's first item, no default)
    // (`(?=default to)` runs the lookbehind only where it can matter: at every position it rescanned a whitespace run, ReDoS)
    /(?:\bdefaults to|\bdefault:|(?=default to)(?<=(?:^|[.!(]\s*|\bwill\s+))default to(?!\s+be\s))\s+("[^"]{0,200}"|'[^']{0,200}'|\d{1,3}(?:,\d{3})+(?![\d,])|(?!"[^"]{0,200}"[^\s.,;)\]]|'[^']{0,200}'[^\s.,;)\]])[^\s,;)\]]{1,200})(?=[\s,;)\]]|$|(?<=['"])\.)(?!,[^\s,])(?!,?\s+\(?(?:if|when|unless|or(?!\s+(?:can|may)\s+be\b)|and(?=\s+["'`])|for\s[^.;]{0,80}?\s(?:and|or)\s+\S{1,40}\s+for)\b)/i.exec(description) ??
    // napi `Whether to enable the dts cache, default to true`: a clause `default to` a value ending it
    // (not `Mock names default to 'Mock'+ …`, `If present, default to ".*" for the pod-query.`)
    // …or without `to`: stylus `Specify custom file extension for compiled file, default .css`
    // (a value with a `<placeholder>` in it, `srcdir/<type>_string.go`, is a pattern, no value)
    // (wait-on `…, default 750ms. If less than …`: a period ending the sentence ends the value too)
    /(?:^|[,;]\s+)default(?: to)?\s+("[^"]{0,200}"|'[^']{0,200}'|[^\s,;)\]<>]{1,200}?)\.?(?=\s*$|[;,]\s|(?<=\.)\s+[A-Z])/i.exec(description) ??
    // GNU prose: `the default is 1`, `Default is -1 which…`, `(default 5)`, `The default value is
    // 10.`, `number of jobs; default 4`, codespell `The default mask is 34.` (one noun naming the
    // value); numbers and quoted text only (jsdoc2md `The default template is \`{{>main}}\`.`: a code span quotes too)
    /(?:\bdefault(?: [a-z]{2,20})? is|\(default|[;,]\s+default|\b(?:instead of|than) the default)\s+("[^"]{0,200}"|'[^']{0,200}'|`[^`]{1,200}`|\d{1,3}(?:,\d{3})+(?![\d,])|[+-]?\d+(?:\.\d+)?)(?!\w|\.\w)/i.exec(description) ??
    // argparse speedtest-cli `… in CSV output. Default ","`, `HTTP timeout in seconds. Default 10`: a
    // sentence of `Default` and a value (not xxd's per-mode `Default 16 (-i: 12, -ps: 30).`)
    /(?:^|[.!]\s+)Default\s+("[^"]{0,200}"|'[^']{0,200}'|[+-]?\d+(?:\.\d+)?)(?=\.?$|\.\s)/.exec(description) ??
    // commander (jscpd) `(Default is 100kb)`, `(Default is ./report/)`: one word closing the parenthesis
    /\(default is ([^\s(),]{1,200})\)/i.exec(description) ??
    // docopt grip: `Default is the public API: https://api.github.com` (a value after the colon ends the sentence)
    /\bdefault(?: value)? is [^.:]{1,60}:\s+([^\s,;]{1,200}?)\.?$/i.exec(description) ??
    // pg_format `Default is uppercase: 2. Values: 0=>unchanged, …`: a number after the colon ends the sentence
    /\bdefault(?: value)? is [^.:]{1,60}:\s+([+-]?\d+(?:\.\d+)?)\.(?=\s)/i.exec(description) ??
    // optparse coverage: `Sort by column: name, … or cover. Default is name.`: one word, a sentence of its own
    // (click python-dotenv `Default mode is always.`: a noun naming the value between)
    // (waitress `Default is False.`: a boolean in Python's spelling)
    // (csvtojson `… while parsing. default is false`: closing the description, the sentence needs no period, nor a capital)
    /(?:^|[.!]\s+)(?:D|d(?=[^.]{0,90}$))efault(?: [a-z]{2,20})? is ([a-z][\w.-]{0,60}|True|False)(?:\.(?=\s|$)|$)/.exec(description) ??
    // (click iredis `Config file for iredis, default is ~/.iredisrc. You can…`: a clause after a comma, a home path too)
    /,\s+default is ([a-z][\w.-]{0,60}|~\/[\w.~/-]{1,60})\.(?=\s|$)/.exec(description) ??
    // esbuild: `(browser | node | neutral, default browser)`: the last item of a parenthesis
    /,\s+default\s+([a-z0-9][\w.-]{0,60})\)/i.exec(description) ??
    // argp cflow `(default -, meaning stdout)`: a value, then a gloss on what it means
    /\(default ([^\s,()]{1,60}), meaning\b/i.exec(description) ??
    DEFAULT_VALUE_CLAUSE.exec(description) ??
    // cwebp `quality factor (0:small..100:big), default=75`: `default=` closing a clause (optparse
    // sqlite-web `Host for web interface, default=127.0.0.1`: an address is one value too; lame `-V n
    // quality setting for VBR.  default n=4`: the placeholder's name before `=`, after a sentence)
    /(?:^|[,;(]\s*|[.]\s+)default(?: [a-z][a-z0-9_]{0,9})?=([+-]?\d+(?:\.\d+)?|\d{1,3}(?:\.\d{1,3}){3}|[a-z][\w.-]{0,30})(?=[\s,;)]|$)/i.exec(description) ??
    // picocli `--[no-]force  … The default is `--no-force`, meaning…`: a backquoted flag spelling
    /\bdefault is\s+(`--?[A-Za-z][\w-]{0,60}`)/i.exec(description) ??
    // argh naga `` `Unchecked` is the default.``: a quoted value, then `is the default` closing the sentence
    /(?:^|[\s(])(`[^`\s]{1,60}`|"[^"\s]{1,60}"|'[^'\s]{1,60}')\s+is the default\.?(?=\s|\)|$)/i.exec(description) ??
    // argparse nodeenv `The default is last stable version (\`latest\`).`: words saying what the default
    // is, then the value itself quoted in a parenthesis closing the sentence
    /\bdefault(?: [a-z]{2,20})? is (?:the )?[a-z][a-z -]{0,50} \((`[^`\s]{1,60}`|"[^"\s]{1,60}"|'[^'\s]{1,60}')\)\.?(?=\s|$)/i.exec(description) ??
    // popt logrotate `-m, --mail=command  Command to send mail (instead of \`/usr/bin/mail')`: the quoted value a
    // parenthesis closing the description says the option's value replaces is the one used without it
    /\(instead of (`[^`\s]{1,60}`|"[^"\s]{1,60}"|'[^'\s]{1,60}')\)\.?$/.exec(description);
  // click wraps a long `[default: /(\.direnv|\.ipy` / `nb_checkpoints|…)/]` over lines: a bracket
  // going on for more words after the value means the value was cut, and a cut value is no
  // default (`[Default: 0 (automatic)]` is whole; `[default: 10 seconds]` was read above)
  const cut = plain !== null && description[plain.index - 1] === '[' && /^\s+[^\s(\]]/.test(description.slice(plain.index + plain[0].length));
  // clap `[default: min(240, 1.5x keyint)]`: a value whose parenthesis closes past the value is an expression cut at its comma
  const unclosed = plain !== null && ((plain[1] ?? '').match(/\(/g) ?? []).length > ((plain[1] ?? '').match(/\)/g) ?? []).length;
  // mmdc `Default: input + ".svg"`: a value an operator goes on from is an expression the program computes
  // (uutils fmt `Goal width, default ~0.94*WIDTH.`: an approximate product of another value is computed too)
  const expression = plain !== null && (/^\s+[+*]\s/.test(description.slice(plain.index + plain[0].length)) || /^~?\d[\d.]*[*/][A-Za-z]|^~\d/.test(plain[1] ?? ''));
  // bandit `defaults to executing all tests`, uvicorn `Defaults to OpenSSL's safe defaults.`: a bare
  // word that a phrase goes on from (no punctuation after it) is the start of prose; a number keeps
  // its unit (`defaults to 5 seconds`)
  const phrase =
    plain !== null &&
    /^default(?:s? to|:)/i.test(plain[0]) &&
    !/^["']/.test(plain[1] ?? '') &&
    !/^[+-]?\d/.test(plain[1] ?? '') &&
    !/[.!]$/.test(plain[1] ?? '') &&
    // (0x `Default: node [nodeFlags] script.js`: a placeholder after the word goes on with a command's form)
    /^\s+(?:[A-Za-z]|\[[A-Za-z][\w-]{0,30}\]|<[A-Za-z][\w-]{0,30}>)/.test(description.slice(plain.index + plain[0].length)) &&
    !namesFileByNoun(plain[1] ?? '', description.slice(plain.index + plain[0].length)) &&
    !TITLED_FIELD_AFTER.test(description.slice(plain.index + plain[0].length));
  const othersDefault = plain !== null && plain[0].startsWith('(') && followsOptionSpelling(description, plain.index) && !/^\)?\.?\s*$/.test(description.slice(plain.index + plain[0].length));
  if (plain && !cut && !unclosed && !expression && !phrase && !othersDefault && !isListDefault(description, plain) && !isPerCaseDefault(description, plain)) setDefault(facts, withoutThousandsCommas((plain[1] ?? '').replace(/\.$/, '')));
}

/**
 * commander json2csv `Defaults to a double \`quote\`, '""'.`: a default told in words, then the value
 * itself quoted after a comma, closing the sentence.
 */
function readAppositiveDefault(facts: DescriptionFacts): void {
  const appositive = /\bdefaults? to (?:an?|the) [^,.;()]{1,40}, ('[^'\s]{1,40}'|"[^"\s]{1,40}")\.?(?=\s|$)/i.exec(facts.description);
  if (appositive !== null) setDefault(facts, appositive[1] ?? '');
}

/**
 * optparse icdiff `Default is --color-map='add:green_bold,change:yellow_bold,…'.`: the default written
 * as the option given its value, quoted. textwrap filled the value to the width: a line it broke
 * before a comma leaves a space there, which is no part of the value.
 */
const SPELLED_OPTION_DEFAULT = /\bdefault is\s+--?[A-Za-z][\w-]{0,60}=('[^'\s][^']{0,400}'|"[^"\s][^"]{0,400}")(?=[\s.,;)]|$)/i;

function readSpelledOptionDefault(facts: DescriptionFacts): void {
  const spelled = SPELLED_OPTION_DEFAULT.exec(facts.description);
  if (spelled !== null) setDefault(facts, (spelled[1] ?? '').replace(/\s+(?=,)/g, ''));
}

/** `4,194,304` → `4194304`: a number written with its thousands grouped by commas. */
function withoutThousandsCommas(text: string): string {
  return /^\d{1,3}(?:,\d{3})+$/.test(text) ? text.replace(/,/g, '') : text;
}

/**
 * aria2 `Default: false` over `Tags: #basic` (lines of titled fields, joined): a capitalized title and
 * its colon after the value start the next field, not a phrase going on from the value (kramdown
 * `Default: mathjax` over `Used by: HTML converter`: the title's second word may be lower-case).
 */
const TITLED_FIELD_AFTER = /^\s+[A-Z][a-z]{1,20}(?: [A-Za-z][a-z]{1,20})?:\s/;

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
 * (the value, maybe a unit, then `for` (or `on`) a case and a comma before the next case), and any default
 * in a description that states one under a condition (click `Defaults to JPEG unless WebP is
 * selected. WebP defaults to 100`): the other defaults there are per case too.
 */
function isPerCaseDefault(description: string, plain: RegExpExecArray): boolean {
  // (glob `This defaults to 'true' on macOS and Windows platforms, and false on all others.`: `on` a platform too)
  if (/^(?:\s+[^\s,;()]{1,20}){0,2}\s+(?:for|on)\s+[^,;()]{1,40},/.test(description.slice(plain.index + plain[0].length))) return true;
  // pflag vip-manager `(default "http://127.0.0.1:2379" or "http://127.0.0.1:8500" depending on dcs-type.)`:
  // a value, then another one after `or` or a `depending on` clause, is one default per case
  if (/^\s+(?:or\s+(?!(?:can|may)\s+be\b)\S|depending\s+on\b)/i.test(description.slice(plain.index + plain[0].length))) return true;
  // argparse nodeenv `Under Windows, this defaults to true.`, `If --foo is given, defaults to x`: a
  // sentence opening with a condition states the default of that case only
  // (not `If not specified, defaults to 4,194,304`: the case of the option not given is the default's own)
  if (CONDITION_OPENING.test(sentenceBefore(description, plain.index + Math.max(0, plain[0].search(/default/i))))) return true;
  return /\bdefaults?(?:\s+to|:|\s+is)\s+[^\s,;()]{1,60},?\s+(?:if|when|unless)\b/i.test(description);
}

/** A sentence opening with a conditional clause closed by a comma (`Under Windows, `, `If set, `). */
const CONDITION_OPENING = /^(?:under|on|if|when|whenever|unless|with|without)\s(?!not\s|omitted\b|unset\b|absent\b|no\s)[^,;.]{1,40},\s/i;

/** The sentence of the description up to `index` (from after the last `. ` / `! ` / `? ` before it). */
function sentenceBefore(description: string, index: number): string {
  const before = description.slice(Math.max(0, index - 200), index);
  const ends = [...before.matchAll(/[.!?]\s+(?=[A-Z]|$)/g)];
  const last = ends[ends.length - 1];
  return last === undefined ? (index > 200 ? '' : before) : before.slice(last.index + last[0].length);
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
  // (lizard `It's './whitelizard.txt' by default.`: `it's` stands for `it is`)
  const byDefault = /(?:\b(?:is|are)|\bit's)\s+(`[^`\s]{1,60}`|"[^"\s]{1,60}"|'[^'\s]{1,60}'|true|false|[+-]?\d+(?:\.\d+)?)\s+by default\b/i.exec(facts.description);
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
/**
 * http-server's hand-written `Address to use [0.0.0.0]`, `Show directory listings [true]`, `Cache time
 * in seconds [3600], e.g. -c10 …`, `… when possible [false]` over a next sentence: without a period
 * before it, a bracket closing the clause holds a default only when it is a literal (a number, a
 * boolean, a dotted value); `Measure only function [name]` names the placeholder.
 */
const BARE_BRACKET_LITERAL = /\S\s+\[([+-]?\d+(?:\.\d+)*|true|false|[\w-]*\.[\w.-]*\w)\](?:$|,\s+e\.g\.|\s+(?=[A-Z]))/;

function readTrailingBracketDefault(facts: DescriptionFacts): void {
  const trailing = /[.!?]\s+\[([^[\]\s|,:]{1,100})\]$/.exec(facts.description) ?? BARE_BRACKET_LITERAL.exec(facts.description);
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
    // `(?<!\s)`: a match starts where its whitespace run does, so starts inside a run are skipped (ReDoS)
    const trailing = /(?<!\s)\s*([[(])([^[\]()]{0,400})([\])])\.?\s*$/.exec(description);
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
  // (urfave `(default: "^[0-9a-zA-Z]+$")`: quoted whole, the quotes are no part of it, as for plainer values)
  const bracketed = facts.defaultText === null ? bracketedDefault(description) : null;
  if (bracketed !== null) step(facts, 'nested-bracket', () => setDefault(facts, bracketed));
  step(facts, 'prose', () => readProseChoices(facts));
  step(facts, 'listed', () => readListedDefault(facts));
  if (facts.defaultText === null) step(facts, 'prose', () => readProseDefault(facts));
  if (facts.defaultText === null) step(facts, 'by-default', () => readByDefaultPhrase(facts));
  if (facts.defaultText === null) step(facts, 'trailing-bracket', () => readTrailingBracketDefault(facts));
  if (facts.defaultText === null) step(facts, 'spelled-option', () => readSpelledOptionDefault(facts));
  if (facts.defaultText === null) step(facts, 'appositive', () => readAppositiveDefault(facts));
  // Python Fire autofaiss `npy or parquet ; default npy`: a description opening with a pair that holds
  // the default stated in prose after it (read after the choices)
  if (facts.choices === null && facts.defaultText !== null && !facts.defaultQuoted) step(facts, 'pair-holding-default', () => (facts.choices = openingPairHoldingDefault(description, facts.defaultText ?? '')));
  facts.stateDefault = switchStateDefault(description);
  facts.description = stripTrailingAnnotations(description);
  return facts;
}
