/**
 * A generic, evidence-weighing reader of an option's choices, the fallback after the first-match
 * rules (annotations.ts, listed-choices.ts) found none. The rules each match one notation seen
 * before; unseen helps write their values in a long tail of prose (`Available modes are curses,
 * ansi and html.`, `'ignore', 'strict' and 'replace' are acceptable values`, `format (0=concise,
 * 1=normal, 2=filled)`). Instead of one more notation, this module
 *   1. enumerates every run of short items in the description (any of `,` `|` `/` `;` `or` `and`
 *      between them, quoted or not, each maybe glossed by a parenthesis or `=word`),
 *   2. scores each run with cues as evidence (named constants below: words saying "these are the
 *      values" near it, its brackets, quoting, the value name mentioned, a default among it; against
 *      it: example words, kinds of value, conditions, lists of what the option adds or leaves out),
 *   3. accepts the best run only at or above `ACCEPT`.
 * An invented enum refuses values the program takes, so the threshold is set for precision.
 * Every regex here is linear: alternatives of bounded classes, no nested unbounded quantifiers.
 */
import { isOpenValueSet } from './open-value-set.ts';
import { helpSource, WEIGHT, type Claim } from './reader/claims.ts';
import type { CliOption } from './spec.ts';
import { valueSeparatorOf } from './value-list.ts';

/** Longest description read: a value list sits in the first sentences. */
const MAX_TEXT = 1200;
const MAX_ITEM = 30;
const MAX_GLOSS = 80;
/** Words a quoted item's phrase may run to (lessc `'mediaquery' that will output the information within a fake media query which is compatible with the SASS format, and 'all' …`). */
const MAX_GLOSS_WORDS = 24;
/** Words opening a relative clause about the item before (`, which will …`, `, that …`). */
const RELATIVE_OPENING = /^(?:which|that|where|meaning)$/i;

/** A token: a word (maybe quoted), a separator, a bracket, or other punctuation. */
interface Token {
  kind: 'word' | 'sep' | 'open' | 'close' | 'punct';
  text: string;
  quote: string;
  start: number;
  end: number;
  starred?: boolean;
}

interface Candidate {
  items: string[];
  quotes: string[];
  glossed: number;
  glosses: string[];
  separators: Set<string>;
  start: number;
  end: number;
  /** The bracket the run fills wholly (`(`, `[`, `{`, `<`), or ''. */
  enclosedBy: string;
  /** The kind of separator the run uses: `,` (with `or`, `and`), `|`, `/`, `;` or ` ` (quoted items side by side). */
  family: string;
  /** Items marked as the default by stars (`*auto*`). */
  starred: number;
  /** The run stopped before a word glued to a template (`atlas:<model-id>`). */
  gluedTail: boolean;
  /** A separator comes right before the run: it goes on from something that is no item (`boolean, "new", "all"`). */
  cutFront: boolean;
  /** The run stopped before an alternative of another shape (`… 'bun' | false`, `… or a template`). */
  cutShort: boolean;
  /** An item carries an optional ending glued on (`month(s)`): the spellings taken are more than the items. */
  suffixed: boolean;
  /** Bare words side by side closing the text after a colon (`One of: darkfish pot ri`): read only where a cue vouches for them. */
  spacedTail?: boolean;
  /** Items each defined by a phrase after a colon or a spaced dash (`'yes' - all hosts, 'no' - …`). */
  defined?: number;
}

/** Words saying the run after them is the set of values (looked for just before the run). */
const CUE_BEFORE =
  /\b(?:one of|any of|either|can be|could be|may be|must be|should be|valid|available|supported|possible (?:values|choices|options|modes|settings)|choices?|allowed|accepted|acceptable|options are|values are|modes are|types are|levels are|formats are|set (?:this |it )?to|currently|as(?=\s*:))\b/i;
/** A label over the run: `Values: a, b`, `Options: [a, b]`. */
const LABEL_BEFORE = /\b(?:values|options|choices|modes|formats|types|levels|styles|one of|either)\s*:\s*(?:[[({<]\s*)?$/i;
/** A noun naming what is chosen, right before the run: `output type (text or html)`, `Bundle format: a, b`. */
const CHOICE_NOUNS = String.raw`(?:mode|format|type|style|level|kind|method|strategy|algorithm|scheme|theme|order|policy|protocol|backend|engine|layout|preset|profile|dialect|encoding|unit|parser|loader|channel|direction|behaviou?r|language|shell|platform|renderer|reporter|formatter|driver|codec)s?`;
const CHOICE_NOUN = new RegExp(String.raw`\b${CHOICE_NOUNS}(?:\s+(?:is|are|can be|as))?\s*(?:[:(\[{<,=]\s*)?$`, 'i');
/** The same noun earlier in the clause: `The type of repository (model, dataset, space)`. */
const CHOICE_NOUN_IN_CLAUSE = new RegExp(String.raw`\b${CHOICE_NOUNS}\b`, 'i');
/** `style: a, b`, `Select sort: a, b`: a short label opening the sentence, the run closing it. */
const LABEL_OPENING = /^\s*[\w-]{1,20}(?: [\w-]{1,20}){0,2}\s*:\s*$/;
/** `Select variant TYPE of filesystem (standard or Atari)`: a clause opening with a verb of choosing. */
const CHOOSE_OPENING = /^\s*(?:select|selects|choose|chooses|pick|picks)\s/i;
const CUE_AFTER = /^\s*[)\]}>]?\s*(?:are|is)\s+(?:the\s+)?(?:only\s+)?(?:supported|acceptable|accepted|valid|available|allowed|possible)\b/i;
/** `Use postfix 'ms', 's' or 'h' to change the unit`: what may be glued onto a value, never the values. */
const AFFIX_BEFORE = /\b(?:post|suf|pre)fix(?:es)?(?:\s+of)?\s*:?\s*$/i;
/** Words saying the run names examples of an open set. */
const EXAMPLE_BEFORE = /\b(?:e_g_|(?<!\bbe )known|built-?in|i_e_|e\.\s?g\b|eg|shortcuts?|aliases|such as|like|for example|for instance|including|include|includes|example|examples|say|common(?:ly used)?|typical(?:ly)?)\b/i;
const MORE_AFTER = /^\s*[)\]}>]?\s*(?:,\s*)?(?:etc\b|\.{2,3}|…|and so on|and more|or (?:any|an?|other|similar|custom)\b|\(\s*or\b)/i;
/** `…, or python import path to a renderer class`: an alternative naming a kind of value follows. */
const OR_KIND_AFTER = /^\s*[)\]}>]?\s*,?\s*or\s+(?:\S+\s+){0,3}(?:path|file|url|template|string|class|module|expression|number|integer|name)s?\b/i;
const ARTICLES = new Set(['a', 'an', 'the', 'any', 'some']);
/** `full-iso, long-iso, iso, or +FORMAT`: the run stops before an alternative that is no literal value. */
const OPEN_TAIL = /^\s*(?:[,|/]\s*)?(?:(?:or|and)\s+)?[+<{$%*[@]/;
/** The run is a default value, not the set: `[default: ["a","b"]]`, `By default 'a', 'b' are tried`. */
const DEFAULT_BEFORE = /\b(?:by )?defaults?(?: value)?(?: to| is| are|:|=)?\s*(?:[[({]\s*)?$/i;
/** A stated default, to see whether the run holds it. */
const STATED_DEFAULT = /\bdefault(?:s to| is| value is|:|=| to)\s*(?:[[(]\s*)?["'`]?([\w.+-]{1,30})|[[(]default\s+["'`]?([\w.+-]{1,30})|(?:[(]["'`]?|["'`])([\w.+-]{1,30})["'`]? by default\b/i;
/** `Two options to render lists: list or table`: a count of the items named before them. */
const COUNTED_BEFORE = /\b(two|three|four|five|six|seven|eight|nine|ten|[2-9])\s+(?:\w+\s+)?(?:options|values|modes|choices|formats|types|styles|levels|kinds|ways)\b/i;
const COUNT_WORDS = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** Lists of what an option adds, drops or skips, and per-case phrasing: the values are not a set. */
const ADDS_OR_EXCLUDES = /\b(?:exclud\w*|ignor\w*|skip\w*|except|besides|in addition|other than|instead of|add|adds|adding|remov\w*|respectively|if|unless|otherwise)\b/i;
/** `For svg and svg-path, use: a, b`: a clause opening with a case holds that case's values only. */
const CASE_OPENING = /^\s*(?:for|when|if|with|unless)\s[^,]{1,60},/i;
/** `specified in decimal, octal and hex`: a run after a preposition is its object (`one of`, `any of` are cues). */
const PREPOSITION_BEFORE = /\b(?:in|(?<!\b(?:one|any|either) )of|from|with|for|by|on|at|into|than|between|about|under|over|within|using|via|relative)\s*$/i;
const CONDITIONAL_AFTER = /^\s*[)\]]?\s*(?:for|when|if|on|in|are (?:relative|tried|used|ignored|excluded|skipped))\b/i;
/** A placeholder naming a kind of value that is no enum (a path, a JSON document), or several placeholders. */
const OPEN_VALUE_NAME = /^(?:paths?|files?|file_?names?|dirs?|director(?:y|ies)|folders?|json|urls?|uris?|globs?|patterns?|regexp?|dict|map|object)$/i;
/** A description opening with a kind of value: `Optional path to an SSL certificate …`. */
// (`The file discovery method` opens with a word for files but names a method)
const OPENS_WITH_KIND = /^(?:(?:an?|the|optional|custom|relative|absolute)\s+){0,2}(?:paths?|files?|file ?names?|directory|directories|folders?|urls?)(?:\s+(?:to|of|for|that|which|where|in|from|with)\b|\s*[.,;(]|$)/i;
/** `User defined corrections file path (.csv)`, `Full python path to the factory class`: the first sentence says the value is a path. */
const KIND_SUBJECT = /\b(?:file ?path|path to|path of|file to|file name|directory to|directory of)\b/i;
/**
 * Whether the description says the value is a path (`Optional path to …`, `file path to log to, …`):
 * words it lists are special values besides any path, never the whole set (read by the rules too).
 */
export function describesPathValue(description: string): boolean {
  const text = description.slice(0, MAX_TEXT);
  // (up to a colon too: `What sort of bundle: inline: Output a single file to …` defines values after it)
  return OPENS_WITH_KIND.test(text) || KIND_SUBJECT.test(/^[^.:]*/.exec(withoutAbbreviations(text))?.[0] ?? '');
}

/** `Only valid with the --format sql or sql-insert option`: the run gives another option's values. */
const OPTION_BEFORE = /(?:^|\s)--?[A-Za-z][\w-]*[=\s]\s*$/;
/** cac `--html.xhtml <false|true>`: a dotted sub-option's spelling, then its bracketed values (another option's). */
const SUB_OPTION_BEFORE = /(?:^|\s)--?[A-Za-z][\w-]*\.[\w.-]{1,40}[=\s]?[<[{(]\s*$/;
/** webpack `[inline-|hidden-|eval-][nosources-]`: an item ending in a dash is a prefix glued onto more of a value. */
const PREFIX_ITEM = /-$/;
/** `[a|b][c-]…`, `(a|b)source-map`: a bracket closing the run glued to more of the value makes it one part of a pattern. */
const GLUED_AFTER_CLOSE = /^[)\]}>](?=[\w[(<{])/;
/** `package.json`, `.coveragerc`, `setup.cfg`: file names, any of which is taken. */
const FILE_NAME_ITEM = /^[\w-]*\.[a-z]{2,10}$/i;
/** Items that name a kind of value, not one value. */
const KIND_WORDS = new Set([
  'file', 'files', 'path', 'paths', 'dir', 'dirs', 'directory', 'directories', 'folder', 'url', 'urls', 'uri', 'number', 'numbers',
  'string', 'strings', 'int', 'integer', 'float', 'glob', 'globs', 'pattern', 'patterns', 'regex', 'regexp', 'expression', 'filename',
  'value', 'values', 'option', 'options', 'argument', 'arguments', 'flag', 'flags',
]);
/** English words that are prose, never a value, when they show up as an item. */
const PROSE_WORDS = new Set([
  'an', 'the', 'to', 'of', 'in', 'for', 'with', 'is', 'are', 'be', 'it', 'its', 'this', 'that', 'these', 'those', 'not', 'can',
  'will', 'may', 'from', 'by', 'as', 'at', 'if', 'when', 'use', 'used', 'using', 'which', 'you', 'your', 'their', 'them', 'then',
  'than', 'but', 'so', 'each', 'otherwise', 'optionally', 'whether', 'any', 'some', 'more', 'less', 'such', 'should', 'must',
  'only', 'we', 'our', 'has', 'have', 'do', 'does',
]);
/** `(default)` and its kin in an item's gloss: the list holds the default, so it is the set. */
const DEFAULT_GLOSS = /\bdefault\b/i;
// (Perl, Ruby, C++ `Plack::Loader`: a namespaced name is one item)
const ITEM_SHAPE = /^[A-Za-z0-9][\w.+-]*(?:::[A-Za-z_][\w.+-]*)*$/;
const QUOTED_SHAPE = /^[\w.+:@-]*$/;
// (Ruby symbols, kramdown `:as_input`, `:numeric`: a colon glued to the front of a word set apart is the value's spelling)
const TOKEN = /"[^"\n]{0,40}"|'[^'\n]{0,40}'|`[^`\n]{0,40}`|\*[\w.+-]{1,30}\*|(?<![\w:]):[a-z_][\w]{0,30}(?![\w:])|[A-Za-z0-9][\w.+-]*(?:::[A-Za-z_][\w.+-]*)*|\s+|./gy;
const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };
const CLOSERS = new Set([')', ']', '}', '>']);

/** Splits the text into tokens; a quote whose inside is no item is punctuation (an apostrophe). */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (match === null) break;
    const raw = match[0];
    const first = raw[0] ?? '';
    if (raw.length >= 2 && (first === '"' || first === "'" || first === '`')) {
      const inner = raw.slice(1, -1);
      if (inner.length <= MAX_ITEM && QUOTED_SHAPE.test(inner) && !(first === "'" && /\w/.test(text[start - 1] ?? ''))) {
        tokens.push({ kind: 'word', text: inner, quote: first, start, end: TOKEN.lastIndex });
        continue;
      }
      TOKEN.lastIndex = start + 1;
      tokens.push({ kind: 'punct', text: first, quote: '', start, end: start + 1 });
      continue;
    }
    if (/^\s/.test(raw)) continue;
    // clap (bat) stars the default: `(*auto*, never, always)`
    if (first === '*' && raw.length >= 3) {
      tokens.push({ kind: 'word', text: raw.slice(1, -1), quote: '', start, end: TOKEN.lastIndex, starred: true });
      continue;
    }
    if (first === ':' && raw.length >= 2) {
      tokens.push({ kind: 'word', text: raw, quote: '', start, end: TOKEN.lastIndex });
      continue;
    }
    if (ITEM_SHAPE.test(raw)) {
      // a trailing period ends the sentence, not the item (`… and html.`)
      const trimmed = raw.replace(/\.+$/, '');
      const word = trimmed.length > 0 ? trimmed : raw;
      tokens.push({ kind: word.toLowerCase() === 'or' || word.toLowerCase() === 'and' ? 'sep' : 'word', text: word, quote: '', start, end: start + word.length });
      if (word.length < raw.length) tokens.push({ kind: 'punct', text: '.', quote: '', start: start + word.length, end: start + raw.length });
      continue;
    }
    if (raw === ',' || raw === '|' || raw === '/' || raw === ';') tokens.push({ kind: 'sep', text: raw, quote: '', start, end: start + 1 });
    else if (raw in OPENERS) tokens.push({ kind: 'open', text: raw, quote: '', start, end: start + 1 });
    else if (CLOSERS.has(raw)) tokens.push({ kind: 'close', text: raw, quote: '', start, end: start + 1 });
    else tokens.push({ kind: 'punct', text: raw, quote: '', start, end: start + 1 });
  }
  return tokens;
}

function familyOf(separator: string): string {
  return separator === 'or' || separator === 'and' ? ',' : separator;
}

/** Index past the `(…)` at `open`, its `)` included, or -1 (none within reach, or another `(` first). */
function pastParenthesis(tokens: readonly Token[], open: number): number {
  const opener = tokens[open];
  if (opener?.kind !== 'open' || opener.text !== '(') return -1;
  for (let at = open + 1; at < tokens.length; at++) {
    const token = tokens[at];
    if (token === undefined || token.start - opener.end > MAX_GLOSS || (token.kind === 'open' && token.text === '(')) return -1;
    // (`inline (inside <pre> tag)`: angle brackets inside are words of the gloss)
    if (token.kind === 'close' && token.text === ')') return at + 1;
    if (token.kind === 'close' && token.text !== '>') return -1;
  }
  return -1;
}

/**
 * Index past the glosses after the item at `index`, and their text: a parenthesis (`(default)`),
 * a number's `=word` (`0=concise`, `0=>unchanged`), and after a quoted item a phrase up to the next
 * comma (`"esm" to force ESM mode, "cjs" …`).
 */
function skipGloss(tokens: readonly Token[], index: number, text: string, glossedBefore = false): { next: number; gloss: string | null; defined?: boolean } {
  const item = tokens[index];
  const next = tokens[index + 1];
  const glosses: string[] = [];
  let at = index + 1;
  const parenthesis = pastParenthesis(tokens, at);
  if (parenthesis !== -1) {
    const gloss = text.slice(next?.end ?? 0, tokens[parenthesis - 1]?.start ?? 0);
    // `ecsv (or, 'all' for all formats)`: a parenthesis going on with the list is no gloss
    if (!/^\s*(?:or|and)\b/i.test(gloss)) {
      glosses.push(gloss);
      at = parenthesis;
    }
  } else if (next?.kind === 'punct' && next.text === '=' && next.start === item?.end && /^\d+$/.test(item.text)) {
    let word = index + 2;
    if (tokens[word]?.text === '>') word += 1;
    if (tokens[word]?.kind === 'word') {
      glosses.push(tokens[word]?.text ?? '');
      at = word + 1;
    }
  }
  // `'auto': colorize if a tty is attached, 'never': …`: a quoted item's colon opens its phrase
  const colon = tokens[at];
  // (`'yes' - matches all hosts, 'no' - addresses only`: a dash set off by spaces opens it too)
  const dashGloss = colon?.kind === 'punct' && colon.text === '-' && colon.start === (item?.end ?? 0) + 1 && /^ - /.test(text.slice(colon.start - 1, colon.end + 1));
  const colonGloss = item !== undefined && item.quote !== '' && colon?.kind === 'punct' && ((colon.text === ':' && colon.start === item.end) || dashGloss);
  if (colonGloss) at += 1;
  // lessc `'comments', which will output …, 'mediaquery' that …`: a comma, then a relative word opening the quoted item's phrase
  const commaGloss = !colonGloss && item !== undefined && item.quote !== '' && tokens[at]?.kind === 'sep' && tokens[at]?.text === ',' && RELATIVE_OPENING.test(tokens[at + 1]?.text ?? '') && tokens[at + 1]?.quote === '';
  if (commaGloss) at += 1;
  if (item !== undefined && item.quote !== '' && tokens[at]?.kind === 'word' && tokens[at]?.quote === '') {
    let probe = at;
    while (probe < tokens.length && probe - at < MAX_GLOSS_WORDS) {
      const token = tokens[probe];
      if (token === undefined || (token.kind === 'word' && token.quote !== '')) break;
      if (token.kind === 'sep' && (token.text === ',' || token.text === ';' || tokens[probe + 1]?.quote !== '')) break;
      if (token.kind === 'punct' || token.kind === 'close') break;
      if (token.kind === 'open') {
        const past = pastParenthesis(tokens, probe);
        if (past === -1) break;
        probe = past;
        continue;
      }
      probe += 1;
    }
    const stop = tokens[probe];
    // the phrase ends where the next item is joined on (after the last item, the words are the sentence's: `… are acceptable values`),
    // or, when an item before had a phrase of its own, at the bracket closing the list (`("a" for x, or "b" for y)`)
    const closing = glossedBefore && stop?.kind === 'close' && stop.text === ')';
    if (probe > at && (stop?.kind === 'sep' || closing || (colonGloss && (stop === undefined || stop.kind === 'punct' || stop.quote !== '')))) {
      glosses.push(text.slice(tokens[at]?.start ?? 0, tokens[probe - 1]?.end ?? 0));
      at = probe;
    }
  }
  if ((colonGloss || commaGloss) && glosses.length === 0) return { next: index + 1, gloss: null };
  return { next: at, gloss: glosses.length > 0 ? glosses.join(' ') : null, defined: colonGloss && glosses.length > 0 };
}

/**
 * Whether the word token at `index` is glued to what follows (`atlas:<model-id>`, `default:`,
 * `level=2`): a label or a template, no item of a list. Glosses (`0=concise`) are read before this.
 */
function isGlued(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index];
  const next = tokens[index + 1];
  return token !== undefined && next !== undefined && next.start === token.end && next.kind === 'punct' && /^[:=<@{*]$/.test(next.text);
}

/**
 * `(accepts boolean, "new", "all")`, `(<PATH>|jslint|unix)`: a separator before the run joins it to a
 * kind of value or a placeholder, so the run is the rest of an open list.
 */
function isCutFront(tokens: readonly Token[], index: number): boolean {
  const separator = tokens[index - 1];
  const before = tokens[index - 2];
  if (separator?.kind !== 'sep' || !/^[,|/]$/.test(separator.text)) return false;
  return before?.kind === 'close' || (before?.kind === 'word' && KIND_WORDS.has(before.text.toLowerCase()));
}

/** `month(s)`, `box(es)`: a parenthesis glued to the item holding a short ending makes it two spellings, no gloss. */
function hasGluedEnding(tokens: readonly Token[], index: number, gloss: string | null): boolean {
  const item = tokens[index];
  const open = tokens[index + 1];
  return gloss !== null && item !== undefined && open?.text === '(' && open.start === item.end && /^[a-z]{1,3}$/.test(gloss);
}

/** Every maximal run of two or more items joined by separators. */
function candidatesOf(tokens: readonly Token[], text: string): Candidate[] {
  const found: Candidate[] = [];
  let index = 0;
  while (index < tokens.length) {
    const first = tokens[index];
    if (first?.kind !== 'word') {
      index += 1;
      continue;
    }
    const run: Candidate = { items: [first.text], quotes: [first.quote], glossed: 0, glosses: [], separators: new Set(), start: first.start, end: first.end, enclosedBy: '', gluedTail: false, cutShort: false, suffixed: false, starred: first.starred === true ? 1 : 0, family: '', cutFront: isCutFront(tokens, index) };
    const opening = skipGloss(tokens, index, text);
    let { next } = opening;
    const { gloss } = opening;
    if (opening.defined === true) run.defined = 1;
    if (hasGluedEnding(tokens, index, gloss)) run.suffixed = true;
    if (gloss !== null) {
      run.glossed += 1;
      run.glosses.push(gloss);
    } else if (isGlued(tokens, index)) {
      index += 1;
      continue;
    }
    let lastGlossed = gloss !== null;
    run.end = tokens[next - 1]?.end ?? run.end;
    for (;;) {
      let at = next;
      const used: string[] = [];
      while (tokens[at]?.kind === 'sep' && used.length < 2) {
        used.push((tokens[at]?.text ?? '').toLowerCase());
        at += 1;
      }
      const item = tokens[at];
      const quote = run.quotes[0] ?? '';
      // quoted items side by side (`'none' 'minimal' or 'all'`) need no separator
      const spaced = used.length === 0 && item?.kind === 'word' && item.quote !== '' && quote !== '';
      if (item?.kind !== 'word' || (used.length === 0 && !spaced)) break;
      if (used.length === 2 && !(used[0] === ',' && (used[1] === 'or' || used[1] === 'and'))) break;
      // one kind of separator throughout (`auto|always|never, default to never`: the comma leaves the list)
      const family = spaced ? ' ' : familyOf(used[0] ?? '');
      if (run.family !== '' && family !== run.family && !(run.family === ',' && (family === ';' || family === '/')) && !(run.family === ' ' && family === ',') && !(run.family === ',' && family === ' ')) break;
      // `…, mac, default to ascii`: the word default opens a phrase of its own
      if (/^defaults?$/i.test(item.text) && item.quote === '' && tokens[at + 1]?.kind === 'word') break;
      // `;` joins glossed items only (`no (no numbers); inline (in a tag)`); a clause ends there otherwise
      if (used.includes(';') && !lastGlossed) break;
      // one quoting throughout: `'auto'; plain --color` leaves the list, and `('npm' | 'bun' | false)` goes on past it
      if (item.quote !== quote) {
        run.cutShort = used.length > 0;
        break;
      }
      // `none, or a template`: an article opens an alternative in prose
      if (ARTICLES.has(item.text.toLowerCase()) && tokens[at + 1]?.kind === 'word') {
        run.cutShort = true;
        break;
      }
      const after = skipGloss(tokens, at, text, run.glossed > 0);
      if (hasGluedEnding(tokens, at, after.gloss)) run.suffixed = true;
      if (after.gloss === null && isGlued(tokens, at)) {
        run.gluedTail = !/^:\s/.test(text.slice(tokens[at + 1]?.start ?? 0, (tokens[at + 1]?.start ?? 0) + 2));
        break;
      }
      run.separators.add(spaced ? ' ' : used.join(''));
      if (run.family === '') run.family = family;
      if (item.starred === true) run.starred += 1;
      run.items.push(item.text);
      run.quotes.push(item.quote);
      lastGlossed = after.gloss !== null;
      if (after.defined === true) run.defined = (run.defined ?? 0) + 1;
      if (after.gloss !== null) {
        run.glossed += 1;
        run.glosses.push(after.gloss);
      }
      next = after.next;
      // oclif hard-wraps a long `<options: a|b|…>` inside a word (`warn|e` / `rror|fatal>`), the lines joined by
      // one space: a piece with a `|` on either side and no separator before it ends the item
      const piece = tokens[next];
      if (family === '|' && after.gloss === null && piece?.kind === 'word' && piece.quote === '' && piece.start === item.end + 1 && text[item.end] === ' ' && tokens[next + 1]?.kind === 'sep' && tokens[next + 1]?.text === '|') {
        run.items[run.items.length - 1] = `${item.text}${piece.text}`;
        next += 1;
      }
      run.end = tokens[next - 1]?.end ?? run.end;
    }
    if (run.items.length >= 2) {
      const before = tokens[index - 1];
      const after = tokens[next];
      // (`(browser | node | neutral, default browser)`: a default noted inside the brackets)
      const closer = after?.kind === 'close' ? after : tokens.slice(next, next + 6).find((token) => token.kind === 'close' || token.kind === 'open');
      const noted = closer !== after && /^\s*,\s*default\b/i.test(text.slice(run.end, closer?.start ?? run.end));
      if (before?.kind === 'open' && closer?.kind === 'close' && OPENERS[before.text] === closer.text && (closer === after || noted)) run.enclosedBy = before.text;
      found.push(run);
    }
    // (a lone word's parenthesis may hold a run of its own: `mode (Available modes are a, b and c)`)
    index = run.items.length >= 2 ? Math.max(next, index + 1) : index + 1;
  }
  return found;
}

/**
 * rdoc `Set the output formatter. One of: darkfish pot ri` (a vertical list reflowed into the
 * description), shar `it must be known to shar: xz gzip bzip2`: two or more bare words side by side,
 * no separator between them, from the last colon to the end of the text.
 */
/** Words pointing elsewhere for the values: a spaced tail holding one is a sentence. */
const POINTER_WORDS = new Set(['see', 'below', 'above', 'docs', 'documentation', 'manual', 'details', 'help', 'more', 'list', 'following', 'page']);

function spacedTailCandidate(tokens: readonly Token[]): Candidate | null {
  let colon = tokens.length - 1;
  while (colon >= 0 && !(tokens[colon]?.kind === 'punct' && tokens[colon]?.text === ':')) colon -= 1;
  if (colon < 0) return null;
  const words = tokens.slice(colon + 1);
  if (words.at(-1)?.kind === 'punct' && words.at(-1)?.text === '.') words.pop();
  if (words.length < 2 || words.length > 30 || !words.every((token) => token.kind === 'word' && token.quote === '' && token.starred !== true)) return null;
  if (words.some((token, index) => index > 0 && token.start === (words[index - 1]?.end ?? -1))) return null;
  // (`Valid values: see the docs below`, `One of: Depends on …`: words of a sentence, capitalized or pointing elsewhere)
  if (words.some((token) => !/^[a-z0-9]/.test(token.text) || POINTER_WORDS.has(token.text.toLowerCase()))) return null;
  const items = words.map((token) => token.text);
  return {
    items, quotes: items.map(() => ''), glossed: 0, glosses: [], separators: new Set([' ']), start: words[0]?.start ?? 0, end: words.at(-1)?.end ?? 0,
    enclosedBy: '', family: ' ', starred: 0, gluedTail: false, cutFront: false, cutShort: false, suffixed: false, spacedTail: true,
  };
}

/** `e.g.`, `i.e.`, `etc.` with their periods kept from ending a sentence (same length, so offsets hold). */
function withoutAbbreviations(text: string): string {
  return text.replace(/\b(?:e\.\s?g|i\.\s?e|etc|vs|cf|approx)\./gi, (abbreviation) => abbreviation.replace(/[.\s]/g, '_'));
}

/** The clause before `start`: back to the last sentence end or semicolon. */
function clauseBefore(context: string, start: number): string {
  const head = context.slice(Math.max(0, start - 160), start);
  const cut = Math.max(head.lastIndexOf('. '), head.lastIndexOf('; '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  return cut === -1 ? head : head.slice(cut + 2);
}

/** The placeholder word (`WHEN` of `<WHEN>`), or '' when there is none or it is several (`KIND>=]<PATH`). */
function placeholderWord(valueName: string | null): string {
  const name = (valueName ?? '').replace(/^[<[{("']+|[>\]})"':,.]+$/g, '');
  return /^[A-Za-z][\w-]{0,30}$/.test(name) ? name : '';
}

/** `KIND>=]<PATH`, `NAME TYPE`: several placeholders in one value; a list in the text describes one part. */
function isCompositeValueName(valueName: string | null): boolean {
  const name = (valueName ?? '').replace(/^[<[{("']+|[>\]})"':,.]+$/g, '');
  // (hashdeep `alg1,[alg2]`: one placeholder numbered and repeated is a list of one kind of value, no parts)
  const parts = name.split(/[\s,[\]]+/).filter((part) => part.length > 0);
  if (parts.length >= 2 && parts.every((part) => /^[A-Za-z]{1,20}\d{1,2}$/.test(part) && part.replace(/\d+$/, '') === parts[0]?.replace(/\d+$/, ''))) return false;
  return /[\s<>[\]=:|,]/.test(name);
}

/**
 * The words just before a run that may vouch for it: the clause's last 60 characters, from its last
 * comma or closing bracket on, so a cue counts for the run it leads to, not across another list
 * (`RADIX is one of [doxn], for Decimal, …`).
 */
function attachedBefore(context: string, start: number): string {
  const near = clauseBefore(context, start).slice(-60);
  return near.slice(Math.max(near.lastIndexOf(','), near.lastIndexOf(')'), near.lastIndexOf(']')) + 1);
}

/** Whether words right before or after the run say it is a set of values. */
function isCued(run: Candidate, context: string): boolean {
  const attached = attachedBefore(context, run.start);
  return CUE_BEFORE.test(attached) || LABEL_BEFORE.test(attached) || CUE_AFTER.test(context.slice(run.end, run.end + 80));
}

/** What the whole description says, read once for all its runs. */
interface DescriptionFacts {
  text: string;
  /** The text with abbreviation periods blanked, for sentence cuts and cue words. */
  context: string;
  /** The placeholder's own word as a regex, or null. */
  nameMention: RegExp | null;
  /** The open kind of value the placeholder or the description's subject names (a path, a JSON document), or several placeholders. */
  openValue: boolean;
  subjectIsPath: boolean;
  /** A default the description states (`default: x`, `defaults to x`), lower-cased. */
  stated: string | undefined;
  /** Values the description gives the option's own spellings (`Use -style=file`). */
  ownValues: string[];
  /** The default is no prose's but the head's or a tag's: said of the option, not of a list, it weighs half. */
  statedElsewhere: boolean;
}

function statedDefault(context: string): string | undefined {
  const match = STATED_DEFAULT.exec(context);
  // (`Defaults to mqttv311.`: the period ends the sentence, not the value)
  return (match?.[1] ?? match?.[2] ?? match?.[3])?.replace(/\.+$/, '').toLowerCase();
}

/** The values written after one of the option's own spellings and `=` in its description (`-style=file`, `--style=llvm`). */
function ownSpellingValues(text: string, spellings: readonly string[]): string[] {
  const values: string[] = [];
  for (const spelling of spellings) {
    if (!/^[A-Za-z0-9][\w.-]{0,40}$/.test(spelling)) continue;
    const given = new RegExp(String.raw`(?:^|[\s"'\`(])--?${escapeRegex(spelling)}=["']?([\w.+-]{1,40})`, 'g');
    for (const match of text.matchAll(given)) values.push(match[1] ?? '');
  }
  return values;
}

function factsOf(text: string, valueName: string | null, spellings: readonly string[] = [], knownDefault: string | null = null): DescriptionFacts {
  const context = withoutAbbreviations(text);
  const name = placeholderWord(valueName);
  const named = name.length >= 2 && !/^(?:string|value|text|str|arg)$/i.test(name);
  return {
    text,
    context,
    nameMention: named ? new RegExp(String.raw`(?:^|[^\w-])${escapeRegex(name)}(?![\w-])`, 'i') : null,
    openValue: isCompositeValueName(valueName) || OPEN_VALUE_NAME.test(name) || OPENS_WITH_KIND.test(text),
    subjectIsPath: KIND_SUBJECT.test(/^[^.]*/.exec(context)?.[0] ?? ''),
    // (kingpin `--log-level="error"  Logging level; trace,debug,…`: a default the head or a tag states weighs as one in prose)
    stated: statedDefault(context) ?? (knownDefault === null || !/^[\w.+-]{1,30}$/.test(knownDefault) ? undefined : knownDefault.toLowerCase()),
    ownValues: ownSpellingValues(text, spellings),
    statedElsewhere: statedDefault(context) === undefined,
  };
}

/** The evidence for one run as a score; higher is more likely the option's whole set of values. */
function scoreCandidate(run: Candidate, facts: DescriptionFacts): number {
  const { text, context, stated } = facts;
  const { items } = run;
  const lower = items.map((item) => item.toLowerCase());
  const separators = [...run.separators];
  const clause = clauseBefore(context, run.start);
  const near = clause.slice(-60);
  const after = context.slice(run.end, run.end + 80);
  const quoted = run.quotes[0] !== '';
  const pipes = separators.every((separator) => separator === '|');
  const numbers = items.filter((item) => /^\d+(?:\.\d+)?$/.test(item)).length;
  let score = 0;
  // the run's own shape
  score += items.length >= 3 ? 1 : -0.5;
  if (items.length >= 5) score += 0.5;
  if (pipes) score += 1.5;
  // (`read/write`: a pair of slashed words is prose's and/or)
  if (separators.includes('/') && items.length < 3) score -= 2;
  if (separators.every((separator) => separator === 'or' || separator === 'and')) score -= 1;
  if (quoted) score += 2;
  if (run.enclosedBy === '(') score += 1;
  else if (run.enclosedBy !== '') score += 1.5;
  if (run.glossed === items.length) score += 0.5;
  // every item defined by a phrase of its own (`'a': does x, 'b': does y`): a definition list of the values
  if (run.defined === items.length) score += 1;
  if (run.glosses.some((gloss) => DEFAULT_GLOSS.test(gloss)) || run.starred === 1) score += 1.5;
  // words around it saying these are the values
  const attached = attachedBefore(context, run.start);
  if (CUE_BEFORE.test(attached) || LABEL_BEFORE.test(attached)) score += 3;
  if (CUE_AFTER.test(after)) score += 3;
  if (CHOICE_NOUN.test(near)) score += 2;
  else if (CHOICE_NOUN_IN_CLAUSE.test(near)) score += 1;
  if (LABEL_OPENING.test(clause) && /^\s*(?:[.;]|$)/.test(after)) score += 1;
  if (CHOOSE_OPENING.test(clause)) score += 1.5;
  // `Signal to kill child process, "SIGTERM" or "SIGKILL"`: quoted values set off by a comma or colon, closing the description
  if (quoted && run.enclosedBy === '' && /[,:]\s*$/.test(near) && /^\s*\.?\s*$/.test(after)) score += 2;
  if (facts.nameMention?.test(context.slice(Math.max(0, run.start - 60), run.start)) === true) score += 1.5;
  if (/:\s*(?:[[({<]\s*)?$/.test(near)) score += 1.5;
  // the whole description or sentence (after a type tag like cac's `[string]`) is the run
  // (dart args `Output style. [expanded (default), compressed]`: a sentence that is only the bracketed run)
  const bareClause = run.enclosedBy === '' ? clause : clause.replace(/[[({<]\s*$/, '');
  const bareAfter = run.enclosedBy === '' ? after : after.replace(/^\s*[)\]}>]/, '');
  if (/^\s*(?:\[\w+\]\s*)?$/.test(bareClause) && /^\s*(?:[.;]|$)/.test(bareAfter)) score += items.length >= 3 ? 2 : 1.5;
  // a list in brackets closing the description
  if (run.enclosedBy !== '' && /^\s*[)\]}>]?\s*\.?\s*$/.test(after)) score += 0.5;
  const counted = COUNTED_BEFORE.exec(clause)?.[1]?.toLowerCase();
  if (counted !== undefined && (COUNT_WORDS.indexOf(counted) + 2 === items.length || Number(counted) === items.length)) score += 3;
  // `keyfile type, can be either "pem" or "engine"`: a pair after `either` is a two-way choice
  if (items.length === 2 && /\beither\s*:?\s*$/i.test(near)) score += 1;
  const glossedDefault = stated !== undefined && run.glosses.some((gloss) => gloss.toLowerCase() === stated);
  if (stated !== undefined && (lower.includes(stated) || glossedDefault)) score += facts.statedElsewhere ? 0.5 : 1;
  // words saying they are not
  if (stated !== undefined && !lower.includes(stated) && !glossedDefault && !/^(?:none|null|undefined|nil|empty|unset)$/.test(stated) && (numbers === items.length || !/^\d/.test(stated))) score -= 3;
  if (EXAMPLE_BEFORE.test(clause)) score -= 6;
  if (AFFIX_BEFORE.test(near)) score -= 6;
  if (MORE_AFTER.test(after) || OPEN_TAIL.test(after) || OR_KIND_AFTER.test(after) || run.gluedTail) score -= 6;
  if (run.cutShort) score -= 3;
  if (run.suffixed) score -= 6;
  if (DEFAULT_BEFORE.test(clause)) score -= 6;
  if (ADDS_OR_EXCLUDES.test(clause)) score -= 2;
  if (PREPOSITION_BEFORE.test(clause)) score -= 2;
  if (CASE_OPENING.test(clause)) score -= 5;
  if (CONDITIONAL_AFTER.test(after)) score -= 2;
  // `higher levels provide …`: bare items running on into a sentence are its words
  if (!quoted && run.enclosedBy === '' && /^ (?!defaults?\b)[a-z]/.test(after) && !CUE_AFTER.test(after)) score -= 2;
  if (facts.openValue) score -= 6;
  if (facts.subjectIsPath) score -= 3;
  if (OPTION_BEFORE.test(clause)) score -= 4;
  if (SUB_OPTION_BEFORE.test(clause)) score -= 4;
  if (items.some((item) => PREFIX_ITEM.test(item))) score -= 6;
  if (run.enclosedBy !== '' && GLUED_AFTER_CLOSE.test(text.slice(run.end))) score -= 6;
  // clang-format `currently supports: LLVM, GNU, … Use -style=file to …`: the description gives the option a value outside the run
  if (facts.ownValues.some((value) => !lower.includes(value.toLowerCase()))) score -= 6;
  if (run.cutFront) score -= 3;
  if (run.glosses.some((gloss) => /["'`]/.test(gloss))) score -= 3;
  if (numbers === items.length && run.glossed === 0) score -= 1;
  // scattered numbers (`1=slow, 4=default, 11=fast`) are points on a scale; levels count up one by one
  if (numbers === items.length && !isConsecutive(items)) score -= 1.5;
  // `{l_bar}{bar}` elsewhere in the text: the items are a template's fields
  if (items.some((item) => text.includes(`{${item}}`) || text.includes(`{${item}:`))) score -= 6;
  // (a constant in capitals, `OPTIONS` of HTTP methods, `VALUE` of sort keys, names no kind)
  if (items.some((item) => item !== item.toUpperCase() && KIND_WORDS.has(item.toLowerCase()))) score -= 5;
  if (!pipes && lower.some((item) => PROSE_WORDS.has(item))) score -= 5;
  // (`[tar.gz|tar.bz2|zip]`: a bracketed list of alternatives spells formats, not files any of which is read)
  // `es20XX`, `v1.NN`: a letter run standing for digits makes the item a pattern of values
  if (items.some((item) => /[a-z0-9.](?:XX|NN|YY)/.test(item))) score -= 6;
  if (items.some((item) => FILE_NAME_ITEM.test(item)) && !(pipes && run.enclosedBy !== '')) score -= 4;
  // a capitalized word among lower-case ones is a sentence's word (`Enable or disable`)
  if (/^\s*$/.test(clause) && /^[A-Z][a-z]+$/.test(items[0] ?? '') && items.slice(1).every((item) => /^[a-z]/.test(item))) score -= 3;
  if (numbers > 0 && numbers < items.length) score -= 1;
  return score;
}

function isConsecutive(items: readonly string[]): boolean {
  const values = items.map(Number).sort((a, b) => a - b);
  return values.every((value, index) => Number.isInteger(value) && (index === 0 || value === (values[index - 1] ?? value) + 1));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Accept a run at or above this score. */
const ACCEPT = 4;

/**
 * The values an option's description says it takes, or null when no run of items carries enough
 * evidence. Items come back in help order, without quotes or glosses.
 */
export function evidenceChoices(description: string, valueName: string | null, spellings: readonly string[] = [], knownDefault: string | null = null): string[] | null {
  const runs = scoredRuns(description, valueName, spellings, knownDefault);
  if (runs.length === 0) return onlyValue(description);
  const accepted = runs.filter((run) => run.score >= ACCEPT);
  // two different lists, each with evidence (`Available modifiers: … Available colors: …`): which one
  // the option takes is not clear, and neither alone is the whole set
  const keyOf = (run: ScoredRun): string => [...run.items].sort().join('\u0000');
  const distinct = new Set([...accepted, ...runs.filter((run) => run.cued && run.items.length >= 3)].map(keyOf));
  if (accepted.length === 0 || distinct.size !== 1) return null;
  return accepted.reduce((best, run) => (run.score > best.score ? run : best)).items;
}

/** `Currently only \`name\` is supported.`: the one value the option takes, said outright. */
// (quoted: a bare word may name something else the option concerns, naga `defines … (only glsl is supported)`)
const ONLY_VALUE = /\bonly (["'\`])([\w.+-]{1,30})\1 (?:is|are) (?:currently )?(?:supported|allowed|accepted|available|valid)\b/i;

function onlyValue(description: string): string[] | null {
  const match = ONLY_VALUE.exec(description.slice(0, MAX_TEXT));
  const value = match?.[2];
  return value === undefined || KIND_WORDS.has(value.toLowerCase()) || PROSE_WORDS.has(value.toLowerCase()) ? null : [value];
}

export interface ScoredRun {
  items: string[];
  score: number;
  /** Words right before or after it say it is a set of values. */
  cued: boolean;
}

/** Every run of items in the description with its score, in help order (for inspection and tuning). */
export function scoredRuns(description: string, valueName: string | null, spellings: readonly string[] = [], knownDefault: string | null = null): ScoredRun[] {
  const text = description.slice(0, MAX_TEXT);
  // no separator at all: no run to read
  if (!/[,|/;:]|\s(?:or|and)\s|["'`]\s+["'`]/i.test(text)) return [];
  const runs: ScoredRun[] = [];
  let facts: DescriptionFacts | null = null;
  const tokens = tokenize(text);
  const spaced = spacedTailCandidate(tokens);
  for (const run of [...candidatesOf(tokens, text), ...(spaced === null ? [] : [spaced])]) {
    const items = [...new Set(run.items)];
    if (items.length < 2 || isOpenValueSet(items)) continue;
    facts ??= factsOf(text, valueName, spellings, knownDefault);
    if (run.spacedTail === true && !isCued(run, facts.context)) continue;
    runs.push({ items, score: scoreCandidate(run, facts), cued: isCued(run, facts.context) });
  }
  return runs;
}

const EVIDENCE_CHOICES_SOURCE = helpSource('generic', 'evidence-choices');

/**
 * The fallback reader of choices: for each value-taking option no reader gave a list, a `choices`
 * claim (at weight `fallback`) of the list its description's own words vouch for, with
 * `value_separator` `,` where the description says the values are joined by commas (as option-entry.ts
 * does for the rules'), and the default as the listed string where a number was read
 * (`12 (TLSv1.2) or 13 (TLSv1.3). [12]`).
 */
export function evidenceChoiceClaims(options: readonly CliOption[]): Claim<string>[] {
  const claims: Claim<string>[] = [];
  const source = EVIDENCE_CHOICES_SOURCE;
  for (const option of options) {
    if (!option.takes_value || option.choices !== null) continue;
    const choices = evidenceChoices(option.description ?? '', option.value_name, [option.long ?? '', option.short ?? ''], option.default === null ? null : String(option.default));
    if (choices === null) continue;
    claims.push({ field: 'choices', option, value: choices, source, weight: WEIGHT.fallback });
    if (valueSeparatorOf(option.description) !== undefined) claims.push({ field: 'value_separator', option, value: ',', source, weight: WEIGHT.fallback });
    if (typeof option.default === 'number' && choices.includes(String(option.default))) claims.push({ field: 'default', option, value: String(option.default), source, weight: WEIGHT.generic });
  }
  return claims;
}
