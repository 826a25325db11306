/**
 * A generic fallback for defaults and value-taking, read by weighing evidence instead of matching
 * one notation. The rule chain (annotations.ts, option-entry.ts) knows each notation it was written
 * for; help written by hand states a default in endless prose (`Interval to poll in ms, default
 * 250ms`, `"auto" is the default`, `x by default`, `the default value is x`). Here every phrase
 * around the word `default` is a candidate value, scored by cues: how explicit the joining words are
 * (`default:` / `defaults to` / `is the default` beat a bare `default x`), the value's shape (a
 * number or a quoted value beats a bare word), what closes it (a parenthesis or the sentence beats
 * prose going on), and the contexts that make it no single value: an example (`e.g.`, `such as`), a
 * condition or a case (`if`, `unless`, `for UDP, …`), a list, a kind of value (`file`, `stdout`),
 * a state (`enabled`), the default of something else (`the default config`). Only the best
 * candidate above a threshold counts, and only where the rules found nothing.
 *
 * Every regular expression here is anchored or bounded (help text comes from untrusted components).
 */
import type { Entry } from './help-scan.ts';
import { joinWrapped } from './limits.ts';
import { isEveryItemDefault, isProseDefault } from './option-entry.ts';
import { helpSource, type Claim } from './reader/claims.ts';
import type { CliOption, CliValueType } from './spec.ts';
import { coerceDefault, typeFromDefault } from './value-type.ts';

/** One value a phrase around `default` offers, with the cue that offers it. */
interface Candidate {
  value: string;
  quoted: boolean;
  /** Weight of the joining words (`default:` 3, `default x` 1, …). */
  cue: number;
  /** Where the value starts and ends in the description. */
  start: number;
  end: number;
  /** The cue word `default` stood after the value (`x is the default`, `x (default)`). */
  before: boolean;
  /** Quoted as code (`` `x` ``). */
  backquoted?: boolean;
  /** A bracket closes right after the value (`[default: x]`). */
  closesGroup?: boolean;
  /** Where the cue word starts. */
  cueStart: number;
  /** The description the candidate was read from. */
  description: string;
  /** A marked item of a list of values (`none (default), inline`): any word of the list may be a value. */
  listed?: boolean;
}

/** At most this many `default` words are weighed in one description. */
const MAX_CUES = 12;
/** How far before and after a cue the phrases are read. */
const WINDOW = 160;
/** The least score a candidate needs. */
const THRESHOLD = 5;

/** `default` and its forms (`defaults`, `defaulted`, `defaulting`). */
const CUE_WORD = /\bdefault(?:s|ed|ing)?\b/gi;

/**
 * The words joining a cue to the value after it. A colon or `=` (`default: x`, `default=x`), a verb
 * (`defaults to x`, `defaulting to x`, `default is x`, `default being x`), after one noun too (`default
 * value is x`, `Default level is x`), are explicit; a bare space (`default 0`, `default value 4096`) is not.
 */
const AFTER_JOIN = /^(?:(?:\s+[a-z]{2,15}){0,2}(?:\s*([:=])\s*|\s+(is|to|are|being|will\s+be|of)(?:\s+set\s+to)?\s+)|(?:\s+value)?(\s+))/i;
const JOIN_WEIGHT: Readonly<Record<string, number>> = { ':': 3, '=': 3, is: 3, to: 3, are: 2, being: 3, 'will be': 3, of: 1, ' ': 1 };

/** One value: quoted, backquoted, or a bare run of characters without spaces or brackets. */
const VALUE = /^(?:"([^"\n]{0,80})"|'([^'\n]{0,80})'|`([^`\n]{1,80})`|([^\s,;()[\]{}"'`][^\s;()[\]{}"'`]{0,79})|([,;:|.*/-])(?=\s*[)\]]|\s*$))/;
/** The value before a cue that stands after it: `"auto" (default)`, `x is the default`, `x by default`. */
const VALUE_BEFORE = /(?:^|[\s,(:[{|/])("[^"\n]{1,60}"|'[^'\n]{1,60}'|`[^`\n]{1,60}`|[^\s,;()[\]{}"'`]{1,60})(\s*[([]\s*(?:the\s+)?|\s+(?:is|being|as)\s+(?:the\s+)?|\s+(?:is\s+|are\s+)?(?:used\s+)?by\s+|\s+(?:is\s+)?(?:the\s+)?)$/i;

/** Words that never are a value a program is given: articles, quantifiers, kinds and states. */
const NOT_A_VALUE = new Set([
  'the', 'a', 'an', 'this', 'that', 'these', 'those', 'its', 'their', 'your', 'my', 'our', 'his', 'her', 'same', 'current', 'any', 'each',
  'every', 'some', 'no', 'not', 'none', 'null', 'nil', 'undefined', 'empty', 'unset', 'nothing', 'n/a', 'whatever', 'whichever', 'either', 'both',
  'unlimited', 'infinite', 'unbounded', 'enabled', 'disabled', 'set', 'used', 'given', 'specified', 'provided', 'autodetect',
  'autodetection', 'auto-detect', 'detected', 'random', 'whitespace', 'common', 'unchanged',
  'file', 'files', 'path', 'paths', 'dir', 'directory', 'directories', 'folder', 'url', 'number', 'string', 'value', 'values',
  'stdin', 'stdout', 'stderr', 'cwd', 'pwd', 'home', 'is', 'are', 'was', 'be', 'to', 'of', 'for', 'in', 'and', 'or', 'if', 'when', 'unless',
  'it', 'which', 'what', 'where', 'there', 'here', 'then', 'than', 'as', 'with', 'by', 'from', 'at', 'behavior', 'behaviour', 'one', 'ones',
  'only', 'auto-detected', 'automatic', 'automatically', 'dynamic', 'computed', 'inherited', 'system', 'platform', 'os',
  // (round 18) words saying the program finds the value itself
  'inferred', 'guessed', 'deduced', 'derived', 'discovered', 'auto-discovery', 'autodiscovery', 'auto-discovered',
]);

/** The words of NOT_A_VALUE that are no value in any list. */
const FUNCTION_WORDS = new Set(['the', 'a', 'an', 'this', 'that', 'it', 'is', 'are', 'was', 'be', 'to', 'of', 'for', 'in', 'and', 'or', 'if', 'when', 'as', 'with', 'by', 'from', 'at']);
/** Words after a value that make it hold only in a case or under a condition (`1 for UDP, …`, `x if …`, `x unless …`). */
const CONDITION_AFTER = /^\s*(?:[,(]\s*)?(?:if|when|whenever|unless|otherwise|except|but|for|on|in|with|without|until|while|depending|based|per|where|else|plus|minus|times|(?:or|and)\s+(?:["'`\d]|[\w.-]+\s*(?:[.,;)\]]|$)))/i;
/**
 * Words after a value saying where it is, not when it holds: `digest.txt in current directory`, `x in
 * the working directory`, ninja `[default=3 on this system]` (the value the help's machine computed).
 */
const WHERE_AFTER = /^\s+(?:in\s+(?:the\s+)?(?:current|working|present)(?:\s+working)?\s+(?:directory|folder|dir)|on\s+this\s+(?:system|machine|host|computer))\b/i;
/** Words after a number that count things (the number is the value): `80 columns`, `3 retries`. */
const COUNT_NOUN = /^(?:lines?|columns?|cols|rows?|chars?|characters?|spaces?|times|retries|attempts|workers|threads|jobs|items|entries|levels?|files|processes|connections|requests)$/i;
/** A gloss after the value saying what it means, not more of the value: `0 which means none`, `-, meaning stdout`. */
const GLOSS_AFTER = /^\s*(?:,\s*)?(?:which|meaning|means|i\.e\.|that is|\(|=|-\s)/i;
/** The value is one item of a list: `default: .?*, _svn, x`, `default: a or b`. */
const LIST_AFTER = /^\s*(?:,\s*[^\s,;()]{1,40}\s*(?:,|\bor\b|\band\b)|\/\s*[^\s,;()]{1,40}|\|)/i;
/**
 * The value is the first of two closing the bracket: `[default: a.txt, b.txt]`, `(default: x, y)`; not
 * a note closing it (`(default: 4, optional)`, `[default: 8, env: JOBS]`) or a word glossing a number or
 * quoted value (`(default: 0, disabled)`).
 */
const PAIR_CLOSED_AFTER = /^\s*,\s*(?!(?:optional|required|multiple|repeatable|deprecated|hidden|env|experimental)\b)([^\s,;:()[\]{}]{1,40})\s*[)\]]/i;
/**
 * A few words naming the value, then its spelling quoted in a parenthesis that ends the sentence:
 * `last stable version (\`latest\`).`, `the working directory (".")`. The words hold no condition or
 * example (those make the value hold in a case only).
 */
const NAMED_THEN_SPELLED = /^((?:(?!(?:if|when|unless|except|for|or|and|e\.g|eg|such|like|not|no)\b)[A-Za-z][\w-]{0,20}\s+){1,5}\(\s*)("[^"\n]{1,40}"|'[^'\n]{1,40}'|`[^`\n]{1,40}`)(?=\s*\)\s*(?:[.;]|$))/i;
/** `(default: comma ',')`: one word naming the value, then its spelling quoted, closing the bracket (not `deduced from \`x\``). */
const NAMED_THEN_QUOTED = /^((?!(?:if|when|unless|except|for|or|and|not|no|same|from|by|in|of|to|with|as|like|see|use|e\.g|eg)\b)[A-Za-z][\w-]{0,20}\s+)("[^"\n]{1,40}"|'[^'\n]{1,40}'|`[^`\n]{1,40}`)(?=\s*[)\]])/i;
/**
 * `default comma (,)`, `Default is double quote (")`: a character named in words, then spelled alone
 * in a parenthesis (a punctuation character, which no word can be mistaken for).
 */
const NAMED_CHARACTER = /^((?:(?:a|the|double|single|back|forward|vertical)[ -])?(?:comma|semicolon|colon|quote|quotes|apostrophe|backquote|backtick|slash|backslash|pipe|bar|dot|period|hash|dash|hyphen|underscore|tilde|caret|asterisk|star|ampersand|at-sign|percent|equals|plus)\s+\(\s*)([^\w\s()])(?=\s*\))/i;
/** `0:int`, `1.5:float`: a value with its type glued on (a value of several colon-joined parts keeps them). */
const TYPE_TAG = /(?<=^[^:]{1,40}):(?:int|integer|float|str|string|bool|boolean|number)$/i;
/** A starred item between list separators: `(*auto*, never)`, `(always, *never*)`. */
const STARRED_ITEM = /(?:[(]|,\s)\*([\w.+-]{1,30})\*(?=\s*[,)])/g;
/** Before the cue, in its sentence: an example, a condition, another option's or thing's default. */
const EXAMPLE_BEFORE = /\b(?:e\.\s?g\.|eg\.|ex\.|ie\.|i\.e\.|such as|for example|for instance|like|including|etc\.?)(?=[\s,:]|$)/i;
const CONDITION_BEFORE = /(?:^|[\s,(])(?:if|when|whenever|unless|otherwise|except|for\s+(?:each|every|all|some|most))\b/i;
/**
 * (round 18) The condition a default holds under by definition, the value left out: `If not given, the
 * default is 5`, `If FILE is not specified, the default is used: …`, `when omitted, defaults to x`. It is
 * no case of its own (bounded: at most three words between the conjunction and the verb).
 */
const OMISSION_CONDITION = /\b(?:if|when|whenever)\s+(?:[\w-]{1,30}\s+){0,3}?(?:(?:is|are)\s+)?(?:not\s+(?:specified|given|set|provided|passed|supplied|present)|omitted|absent|missing|unset)\b/gi;
/** OMISSION_CONDITION for a test (no global state). */
const OMISSION_CLAUSE = new RegExp(OMISSION_CONDITION.source, 'i');
/** (round 18) A sentence opening on a case (`For UDP, the default is x; for TCP, …`): the value holds in that case only. */
const CASE_OPENING = /^\s*for\s+[\w./+-]{1,30}\s*,/i;
/** `no default`, `instead of the default`, `override the default`, `the default X` of something else. */
const DENIED_CUE = /\b(?:no|not|non|without|instead\s+of|rather\s+than|than|override|overrides|overriding|replace|replaces|replacing|change|changes|extend|extends|disable|disables|enable|enables|ignore|ignores|use|uses|using|of|from|over|beyond|besides|to)\s+(?:the\s+|a\s+|its\s+|any\s+)?$/i;
/** An article or possessive before a bare `default`: `the default format`, `its default value` is a noun phrase of something else. */
const ARTICLE_BEFORE = /\b(?:the|a|an|its|their|his|her|your|our|any|this|that)\s+$/i;
/** A default stated under a condition (`defaults to x if …`, `default: x unless …`). */
const PER_CASE = /\bdefaults?(?:\s+to|:|\s+is)\s+[^\s,;()]{1,60},?\s+(?:if|when|unless)\b/i;
/** Nouns after the cue naming a part or form of the value (`default suffix: G`, `default scheme is https`): its default is no value. */
const PART_OF_VALUE = /^\s+(suffix|suffixes|prefix|prefixes|unit|units|scheme)\b/i;
/** A value name for a format: `fmt`, `FORMAT`, `template`, `pattern`. */
const FORMAT_NAME = /^(?:fmt|format|template|pattern|datefmt|timefmt)$/i;
/** A strftime / printf pattern: conversions (`%Y`, `%d`) among literal characters, no spaces. */
const FORMAT_PATTERN = /^[\w.:/-]{0,10}(?:%[A-Za-z][\w.:/-]{0,10}){2,20}$/;
/** (round 18) A number or a quoted value alone in a parenthesis right after `default`: `default (0)`, `default ("auto")`. */
const DEFAULT_IN_PARENS = /^(\s?\(\s{0,2})("[^"\n]{1,40}"|'[^'\n]{1,40}'|[+-]?\d{1,12}(?:\.\d{1,6})?)(?=\s{0,2}\))/;
/** A sentence's end before the cue: the context reading starts after it. */
const SENTENCE_END = /[.!?;]\s+(?=\S)/g;

/** A plain number (thousands may be grouped: `4,194,304`). */
const NUMBER = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;
/** A number glued to a unit: `250ms`, `10s`, `128K`. */
const GLUED_UNIT = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|k|kb|m|mb|g|gb)$/i;
/** A plain word or dotted / dashed name: `auto`, `info`, `gzip`, `utf-8`, `v1.2`. */
const WORD = /^[A-Za-z][\w.-]{0,40}$/;
/** Characters no literal default of a hand-written help carries unquoted: expressions, templates, env vars, globs, placeholders. */
const ODD = /[~*$<>{}!#^+|\\]|^[-=:]|\.\.|…/;

/** Abbreviations whose period ends no sentence (`(eg. default \`x\`)` is one clause, an example). */
const ABBREVIATION_BEFORE = /(?:^|[^\w.])(?:e\.g|eg|i\.e|ie|ex|cf|vs|approx|incl|resp)$/i;

/** The sentence of `text` holding `index`: its start. */
function sentenceStart(text: string, index: number): number {
  let start = 0;
  SENTENCE_END.lastIndex = Math.max(0, index - WINDOW);
  for (let match = SENTENCE_END.exec(text); match !== null && match.index < index; match = SENTENCE_END.exec(text)) {
    if (match[0].startsWith('.') && ABBREVIATION_BEFORE.test(text.slice(Math.max(0, match.index - 8), match.index))) continue;
    start = match.index + match[0].length;
  }
  return start;
}

function unquoted(raw: string): { value: string; quoted: boolean } {
  const first = raw[0];
  if (raw.length >= 2 && (first === '"' || first === "'" || first === '`') && raw[raw.length - 1] === first) return { value: raw.slice(1, -1), quoted: true };
  return { value: raw, quoted: false };
}

/** A quoted value or a number opening the text or a clause after a comma, colon or semicolon: `…, 'x' by default`. */
function opensClause(description: string, start: number, value: string, quoted: boolean): boolean {
  return (quoted || NUMBER.test(value)) && (start === 0 || /[,;:]\s{0,3}$/.test(description.slice(Math.max(0, start - 6), start)));
}

/** Every value a phrase around a `default` word offers. */
function candidatesOf(description: string, valueName: string | null): Candidate[] {
  const found: Candidate[] = [];
  CUE_WORD.lastIndex = 0;
  let cues = 0;
  for (let match = CUE_WORD.exec(description); match !== null && cues < MAX_CUES; match = CUE_WORD.exec(description)) {
    cues += 1;
    const cueStart = match.index;
    const cueEnd = match.index + match[0].length;
    const before = description.slice(Math.max(0, cueStart - WINDOW), cueStart);
    const after = description.slice(cueEnd, cueEnd + WINDOW);
    const word = match[0].toLowerCase();
    // `… is the default`, `"auto" (default)`, `false by default`
    if (word === 'default') {
      const previous = VALUE_BEFORE.exec(before);
      const close = /^\s*[)\]]/.exec(after);
      const closes = close !== null || /^\s*(?:[.,;!?]|$)/.test(after);
      if (previous !== null && closes) {
        const join = (previous[2] ?? '').trim().toLowerCase();
        const { value, quoted } = unquoted(previous[1] ?? '');
        const marker = /^[([]/.test(join);
        const start = cueStart - before.length + previous.index + previous[0].length - (previous[1] ?? '').length - (previous[2] ?? '').length;
        // `This is false by default`, `It's 'x' by default`: the value is what something is
        // (round 18: brocli `Output folder, 'drizzle' by default`: a quoted value or a number opening a clause of its own states it as well)
        const stated = /(?:\b(?:is|are|uses?|using)|\bit's)\s+$/i.test(description.slice(Math.max(0, start - 12), start)) || opensClause(description, start, value, quoted);
        const weight = marker ? 2 : /^(?:is|being|as)\b/.test(join) ? (/the$/.test(join) ? 3 : 2) : /\bby$/.test(join) ? (/^(?:is|are)\b/.test(join) || stated ? 2 : 1) : 0;
        // a marked item of a list (`abort (default), fail`, `list or table (default)`) is one of the values
        const listed = marker && (/^\s*[)\]]\s*(?:,|\bor\b|\band\b|\|)/.test(after) || /(?:[,:|]|\bor|\band|\beither)\s*$/i.test(description.slice(Math.max(0, start - 10), start)));
        const end = cueEnd + (close === null ? 0 : close[0].length);
        // `(ASCEND by default)`: the value and its cue fill a parenthesis
        const filled = !marker && close !== null && /[([]$/.test(description.slice(Math.max(0, start - 1), start));
        if (weight > 0) found.push({ value, quoted, cue: weight + (listed ? 2 : filled ? 3 : 0), start, end, before: true, backquoted: (previous[1] ?? '').startsWith('`'), cueStart, description, listed });
      }
    }
    // `default: x`, `defaults to x`, `default value is x`, `default 0`
    if (word === 'defaulted' || (word === 'defaulting' && !/^\s+to\s/i.test(after))) continue;
    // (round 18) `The default (0) autodetects …`, `By default (0) there is no limit`: the value in a parenthesis right after the cue
    const inParens = word === 'default' ? DEFAULT_IN_PARENS.exec(after) : null;
    if (inParens !== null) {
      const { value, quoted } = unquoted(inParens[2] ?? '');
      const start = cueEnd + (inParens[1] ?? '').length;
      found.push({ value, quoted, cue: 3, start, end: start + (inParens[2] ?? '').length, before: false, closesGroup: true, cueStart, description });
      continue;
    }
    const join = AFTER_JOIN.exec(after);
    if (join === null) continue;
    const joinWord = (join[1] ?? join[2] ?? (join[3] !== undefined ? ' ' : '')).toLowerCase().replace(/\s+/g, ' ');
    // `by default, …` opens a sentence about the option's behaviour, no value
    if (/\bby\s+$/i.test(before) && joinWord === ' ') continue;
    // `default suffix: G`, `default unit is ms`: the default of a part of the value, not the value
    // (unless the value is that part: `--suffix SUFFIX … default suffix: .bak`)
    const part = PART_OF_VALUE.exec(after)?.[1]?.toLowerCase().replace(/e?s$/, '');
    if (part !== undefined && !(valueName ?? '').toLowerCase().includes(part)) continue;
    const rest = after.slice(join[0].length);
    // `The default is last stable version (\`latest\`).`: the value named in words, then spelled quoted in a parenthesis closing the sentence
    const named = joinWord !== ' ' ? NAMED_THEN_SPELLED.exec(rest) ?? NAMED_THEN_QUOTED.exec(rest) : null;
    if (named !== null) {
      const spelled = named[2] ?? '';
      const start = cueEnd + join[0].length + (named[1] ?? '').length;
      found.push({ value: spelled.slice(1, -1), quoted: true, cue: JOIN_WEIGHT[joinWord] ?? 1, start, end: start + spelled.length, before: false, backquoted: spelled.startsWith('`'), closesGroup: true, cueStart, description });
    }
    // `default comma (,)`: the character named, then spelled in a parenthesis
    const character = NAMED_CHARACTER.exec(rest);
    if (character !== null) {
      const start = cueEnd + join[0].length + (character[1] ?? '').length;
      found.push({ value: character[2] ?? '', quoted: true, cue: JOIN_WEIGHT[joinWord] ?? 1, start, end: start + 1, before: false, closesGroup: true, cueStart, description });
      continue;
    }
    const value = VALUE.exec(rest);
    if (value === null) continue;
    const raw = value[0];
    const quoted = value[4] === undefined && value[5] === undefined;
    // (`[default: 0:int]`: a type tag glued on after a colon names the value's type, not part of it)
    const bare = raw.length > 1 ? raw.replace(/[.:,]$/, '') : raw;
    const text = quoted ? (value[1] ?? value[2] ?? value[3] ?? '') : bare.replace(TYPE_TAG, '');
    const start = cueEnd + join[0].length;
    const end = start + (quoted ? raw.length : bare.length);
    found.push({ value: text, quoted, cue: JOIN_WEIGHT[joinWord] ?? 1, start, end, before: false, backquoted: value[3] !== undefined, closesGroup: /^\s*[)\]]/.test(description.slice(end, end + 4)), cueStart, description });
  }
  // `(*auto*, never, always)`: a starred item of a list marks the default
  STARRED_ITEM.lastIndex = 0;
  for (let match = STARRED_ITEM.exec(description), seen = 0; match !== null && seen < MAX_CUES; match = STARRED_ITEM.exec(description), seen += 1) {
    const start = match.index + match[0].indexOf('*') + 1;
    const value = match[1] ?? '';
    found.push({ value, quoted: false, cue: 4, start, end: start + value.length + 1, before: true, cueStart: start, description, listed: true });
  }
  return found;
}

/** Whether the description writes the value's name glued to a unit: `mmmK`. */
function gluedUnit(description: string, name: string): boolean {
  const at = description.indexOf(name);
  return at !== -1 && /^[A-Za-z]{1,3}\b/.test(description.slice(at + name.length, at + name.length + 4)) && !/\w/.test(description[at - 1] ?? ' ');
}

/** Points for the value's own shape. */
function shapeScore(candidate: Candidate, valueName: string | null): number {
  const { value, quoted } = candidate;
  const bareName = (valueName ?? '').replace(/[^\w-]/g, '');
  if (value.length === 0) return -10;
  // a code span may name another option or a placeholder (`github`): less sure than quotes
  // a comma between words: a list, unless a tuple of numbers (`0,0`)
  if (/[^\s,],[^\s,]/.test(value) && !/^[+-]?\d+(?:\.\d+)?(?:,[+-]?\d+(?:\.\d+)?)+$/.test(value)) return -10;
  if (quoted) return value.length <= 40 && !/\s{2}/.test(value) ? (candidate.backquoted === true ? 1 : 2) : -2;
  if (NUMBER.test(value)) return 2;
  if (/^[+-]?Infinity$/.test(value)) return 1;
  // `Default filename format is %Y%m%d_%H%M%S.` on a format: a strftime / printf pattern is the value itself
  if (FORMAT_NAME.test(bareName) && FORMAT_PATTERN.test(value)) return 1;
  // a percentage says how the value reads, not what it is (`0.001%`)
  if (/%$/.test(value)) return -10;
  // a quantity with its unit or a duration: `250ms`, `128Mi`, `1h0m0s`, `10G`; not when the description
  // counts the value in a unit glued to its name (pigz `to mmmK (default 128K)`: in which unit is 128K?)
  if (/^[+-]?\d+(?:\.\d+)?(?:[A-Za-z%]{1,3}|(?:[hms]\d+){0,2}[hms])$/.test(value)) return bareName.length > 0 && gluedUnit(candidate.description, bareName) ? -10 : 1;
  // an address: `127.0.0.1`, `0.0.0.0:8080`
  if (/^\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?$/.test(value)) return 1;
  // a stream (`-`), a path in the home directory (`~/.shiv`), one punctuation character (`,`)
  if (/^[-.,;:|*/]$/.test(value) || /^~\/[\w./-]{1,80}$/.test(value)) return 0;
  if (ODD.test(value)) return -10;
  // (a marked item of a list is one of its values, a stream or `none` too; an article never)
  if (NOT_A_VALUE.has(value.toLowerCase()) && !(candidate.listed === true && !FUNCTION_WORDS.has(value.toLowerCase()))) return -10;
  // the placeholder's own name (`default n=4` aside), an upper-case name of an argument or variable
  if (bareName.length > 0 && value.toLowerCase() === bareName.toLowerCase()) return -10;
  if (/(?:^|\/)[A-Z][A-Z0-9]*_[A-Z0-9_]+(?:\/|$)/.test(value)) return -10;
  // a switch's state more often than a value's default
  if (/^(?:true|false)$/i.test(value)) return -1;
  if (WORD.test(value)) return value.length <= 24 ? 0 : -1;
  // (round 18: plackup `Plack::Loader (default)`: a Perl / Ruby / C++ name in a namespace is one word)
  if (/^[A-Za-z]\w{0,30}(?:::\w{1,30}){1,5}$/.test(value)) return 0;
  // a path or an address: `./dist`, `127.0.0.1`, `:8080`
  // a URL: `https://example.com/api`
  if (/^[a-z][a-z0-9+.-]{1,10}:\/\/[^\s"'<>]{1,200}$/.test(value)) return 1;
  if (/^\.{1,2}$/.test(value) || /^(?:\.{0,2}\/|\.)[\w./@-]{1,80}$/.test(value) ) return 0;
  return -2;
}

/** Points for what follows the value. */
function endScore(candidate: Candidate, description: string, valueName: string | null = null): number {
  const after = description.slice(candidate.end, candidate.end + 80);
  // `x (default).`, `abort (default), fail`: the marker closed; a list around it was weighed with the cue
  if (candidate.before) return /^\s*(?:[.;!?)\]]|,|$)/.test(after) ? 1 : 0;
  // `min(240, …)`, `process.cwd()`: a call the program makes, no value
  if (/^\(/.test(after)) return -10;
  if (/^\s*[)\]]/.test(after)) return 2;
  // `(default: 79, 88 with --black)`, `[default: 4, or indent_size from …]`: another value for another case
  if (/^\s*,\s*(?:or|and|but|else|otherwise)\b|^\s*,\s*\S+\s+(?:with|for|if|when|on|in|unless|under)\b/i.test(after)) return -10;
  if (/^\.?\s*$/.test(after) || /^\s*[.;!?](?:\s|$)/.test(after)) return 1;
  if (LIST_AFTER.test(after)) return -10;
  // (`(default: 0, disabled)`, `(defaults to '-', stdout)`: a word after a number or a quoted value says what it means)
  const pair = PAIR_CLOSED_AFTER.exec(after);
  if (pair !== null && !(/^[a-z]+$/.test(pair[1] ?? '') && (candidate.quoted || NUMBER.test(candidate.value) || /^\W$/.test(candidate.value)))) return -10;
  // `(default: digest.txt in current directory)`: where a file name lands, no case
  if (WHERE_AFTER.test(after)) return 1;
  if (CONDITION_AFTER.test(after)) return -10;
  // `Default 16 (-i: 12, -ps: 30)`, `1 (or 2 for PPTX)`: a parenthesis giving the values of other modes or cases
  if (/^\s*\((?:\s*-{1,2}[A-Za-z]|[^()]{0,80}?(?:[\s,]-{1,2}[A-Za-z]|\b(?:for|with|if|when|unless|on|or)\b))/i.test(after)) return -10;
  // `0 = no limit`, `-, meaning stdout`: a gloss says what the value means
  if (GLOSS_AFTER.test(after)) return 1;
  const unit = NUMBER.test(candidate.value) ? /^\s+([A-Za-z%]{1,12})(?![\w%])/.exec(after)?.[1] : undefined;
  if (unit !== undefined) {
    // a count of things (`80 columns`, `3 retries`) is the number; a measure (`15 seconds`, `4 KiB`) only
    // when the description counts the value in that unit (`in seconds`): else which number is passed?
    const closes = /^\s+\S+\s*(?:[)\].;,]|$)/.test(after);
    if (COUNT_NOUN.test(unit)) return closes ? 1 : -1;
    // (round 18: apprise `Define the number of days … By default this value is 30 days.`: `number of` counts in the unit as `in` does)
    // (round 18: fping `-i, --interval=MSEC … (default: 10 ms)`: a value name spelling the unit counts in it too)
    const named = valueName !== null && new RegExp(String.raw`^(?:${unitSpellings(unit)})$`, 'i').test(valueName.replace(/[^A-Za-z]/g, ''));
    // (only when the unit closes the group or the text: `(default: 500 ms, except with -l …)` holds in a case)
    const shut = /^\s+\S+\s*(?:[)\]]|[.;]?\s*$)/.test(after);
    return closes && ((named && shut) || new RegExp(String.raw`\b(?:in|number\s+of)\s+(?:${unitSpellings(unit)})(?![\w%])`, 'i').test(candidate.description)) ? 1 : -10;
  }
  if (/^\s*,/.test(after)) return 0;
  // prose going on from the value: `defaults to executing all tests`
  return -4;
}

/** Spellings of one unit of time or size, so `in milliseconds` counts a value given as `200 ms`. */
const UNIT_FAMILIES: readonly (readonly string[])[] = [
  ['ms', 'msec', 'msecs', 'millis', 'millisecond', 'milliseconds'],
  ['s', 'sec', 'secs', 'second', 'seconds'],
  ['min', 'mins', 'minute', 'minutes'],
  ['h', 'hr', 'hrs', 'hour', 'hours'],
  ['b', 'byte', 'bytes'],
  ['px', 'pixel', 'pixels'],
];

/** A regex alternation of the unit's spellings (letters only, from a bounded match). */
function unitSpellings(unit: string): string {
  const lower = unit.toLowerCase();
  return (UNIT_FAMILIES.find((family) => family.includes(lower)) ?? [lower]).join('|');
}

/** Where the clause holding `index` starts: its sentence, or a bracket group opened in it (`… if x is 0 (default: 0)`). */
function clauseStart(text: string, index: number): number {
  const sentence = sentenceStart(text, index);
  let depth = 0;
  for (let at = index - 1; at >= sentence; at -= 1) {
    const char = text[at];
    if (char === ')' || char === ']') depth += 1;
    else if (char === '(' || char === '[') {
      if (depth === 0) return at + 1;
      depth -= 1;
    }
  }
  return sentence;
}

/**
 * The upper-case parts of a value name made of several (`[KIND[:MODIFIERS]=]NAME`): a sentence about
 * one of them (`The optional KIND can be one of …`) states that part's default, not the value's.
 */
function valueParts(valueName: string | null): string[] {
  const parts = (valueName ?? '').match(/[A-Z][A-Z0-9_]{1,30}/g) ?? [];
  return parts.length >= 2 ? parts.slice(0, 8) : [];
}

/** Points for the clause around the cue: an example or a condition before it, or another subject. */
function contextScore(candidate: Candidate, description: string, valueName: string | null): number {
  // `… will be overwritten Default: 1`: a capitalized cue inside a line run on from another starts a sentence of its own
  const from = !candidate.before && /^D/.test(description.slice(candidate.cueStart, candidate.cueStart + 1)) ? candidate.cueStart : clauseStart(description, candidate.start);
  const lead = description.slice(from, candidate.start);
  let score = 0;
  if (EXAMPLE_BEFORE.test(lead)) score -= 5;
  // (a literal only: a quoted value, a number or a path; `If not provided, defaults to looking in …` is prose)
  const literal = candidate.quoted || NUMBER.test(candidate.value) || /^(?:~|\.{0,2})\//.test(candidate.value);
  if (CONDITION_BEFORE.test(literal ? lead.replace(OMISSION_CONDITION, '') : lead)) score -= 5;
  const sentence = description.slice(sentenceStart(description, candidate.start), candidate.start);
  if (CASE_OPENING.test(sentence)) score -= 5;
  if (valueParts(valueName).some((part) => new RegExp(String.raw`\b${part}\b`).test(sentence))) score -= 5;
  return score;
}

/** Points for the words right before the cue (`no default`, `the default X`). */
function cueContextScore(candidate: Candidate, description: string): number {
  if (candidate.before) return 0;
  const cueStart = description.lastIndexOf('efault', candidate.start) - 1;
  const before = description.slice(Math.max(0, cueStart - 40), Math.max(0, cueStart));
  if (DENIED_CUE.test(before)) return -6;
  // `The default value is x.` opening a sentence states it; `… to the default type` names something else's
  if (ARTICLE_BEFORE.test(before)) return candidate.cue < 3 ? -4 : /(?:^|[.!?;]\s+)the\s+$/i.test(before) ? 1 : 0;
  // `(default x)`, `[default: x]`: the cue opens a bracket group; `, default x`, `Default x`, `- default: x`: its clause
  if (/(?:[([]|[,;]\s)\s*$/.test(before)) return 2;
  return /(?:^|[:-]\s*|[.!?]\s+)$/.test(before) ? 1 : 0;
}

function scoreOf(candidate: Candidate, description: string, valueName: string | null): number {
  return candidate.cue + shapeScore(candidate, valueName) + endScore(candidate, description, valueName) + contextScore(candidate, description, valueName) + cueContextScore(candidate, description);
}

/** The best-scored default a description states, its text and whether it was quoted, or null. */
export function evidenceDefaultFact(given: string, valueName: string | null): { text: string; quoted: boolean; score: number } | null {
  // older GNU helps quote `like this'
  const description = given.replace(/`([^`'\s]{1,60})'/g, "'$1'");
  // `Defaults to JPEG unless WebP is selected. WebP defaults to 100`: one default under a condition makes the others per case too
  if (PER_CASE.test(description)) return null;
  let best: { text: string; quoted: boolean; score: number } | null = null;
  for (const candidate of candidatesOf(description, valueName)) {
    const score = scoreOf(candidate, description, valueName);
    if (score >= THRESHOLD && (best === null || score > best.score)) best = { text: candidate.value, quoted: candidate.quoted, score };
  }
  return best;
}

/**
 * The default a description states in any phrasing (`default 0`, `defaults to x`, `x is the
 * default`, `"x" (default)`, `the default value is x`), as raw text (unquoted), or null when no
 * phrase is evidence enough.
 */
export function evidenceDefault(description: string, valueName: string | null): string | null {
  return evidenceDefaultFact(description, valueName)?.text ?? null;
}

/** Units a value is counted in: `in ms`, `(in seconds)`, `per second`. */
const UNIT_PHRASE = /\b(?:in|per)\s+(?:ms|milliseconds|millis|seconds|secs|minutes|mins|hours|days|bytes|kilobytes|megabytes|kb|mb|pixels|px|percent|lines|columns|characters|chars)\b|\bper\s+(?:second|minute|hour)\b/i;
/** The value's form: a list (`comma-separated list of paths`, `list of globs`). */
const FORM_PHRASE = /\b(?:comma|space|colon|semicolon)[- ]?(?:separated|delimited)\s+(?:[\w-]+\s+)?(?:list|names|patterns|paths|files|globs)\b|\b(?:list|array)\s+of\s+(?:[\w-]+\s+)?(?:paths|files|globs|patterns|names|values|strings|keys|ids|urls|hosts|directories|modules|plugins|extensions)\b/i;
/** Nouns that, closing a short noun phrase, name a thing an option is given: `Input file`, `Target URL`. */
const THING_NOUNS = String.raw`(?:file|filename|directory|folder|path|url|uri|port|host|hostname|address|username|password|passphrase|token|key|secret|encoding|charset|locale|prefix|suffix|pattern|regex|regexp|glob|template|theme|reporter|delimiter|separator|timeout|interval|delay|duration|threshold|limit|topic|cookie|payload|identity|depth|width|height|radius)`;
/** Nouns that, followed by `of` / `for` / `to`, name a quantity or a thing given: `Number of jobs`, `Width of window`. */
const MEASURE_NOUNS = String.raw`(?:number|amount|size|width|height|depth|radius|name|id|title|label|version|${THING_NOUNS.slice(3, -1)})`;
/** One word before the noun that is no verb: an article, an adjective, another noun (`Initial delay`, `Maximum number`, `HTTP header`). */
const ADJECTIVE = String.raw`(?:custom|current|default|initial|maximum|minimum|max|min|base|target|alternate|alternative|optional|additional|extra|proxy|local|remote|global|root|working|config|configuration|cache|log|http|https|tls|ssl|tcp|udp|api|[\w-]+(?:al|ed|ent|ant|ive|ary|ic|ous|ful|able|ible))`;
/**
 * Up to two words before the noun that are no verb: an article, then an adjective and any word
 * (`Current working directory`, `HTTP Proxy URL`), or one word (`Initial delay`, `Input file`).
 */
const MODIFIER = String.raw`(?:(?:the|an?|your)\s+)?(?:${ADJECTIVE}\s+(?:[\w-]+\s+)?|(?!(?:no|not|compute|observe|calculate)\s)(?![\w-]*(?:ize|ise|ify)\s)[\w-]+\s+)?`;
/** `Input file`, `Target URL.`, `Port (default 8080)`: a short noun phrase that is the whole description or its first sentence. */
const THING_PHRASE = new RegExp(String.raw`^${MODIFIER}${THING_NOUNS}(?:\s*[.([]|\s*$|\s+(?:to|for|of|used|that|which|where|at|on|before|after|in)\b)`, 'i');
/** `Web app manifest file path to update`: a longer compound naming a file path, then its purpose (a compound naming any thing also opens switches: `Clean output directory`). */
const COMPOUND_THING = /^(?:[\w-]+\s+){1,4}file\s+path\s+(?:to|for)\s/i;
/** `Number of concurrent jobs`, `Name of the remote`, `Width of terminal window`. */
const MEASURE_PHRASE = new RegExp(String.raw`^${MODIFIER}${MEASURE_NOUNS}\s+(?:of|for|to)\s`, 'i');
/** A thing named as the one given: `on this port`, `to this file`. */
const THIS_THING = new RegExp(String.raw`\b(?:(?:on|to|at|with|from|in|into|for)\s+this\s+(?:[\w-]+\s+){0,2}${THING_NOUNS}|this\s+(?:many|string|regexp|value|number|amount))\b`, 'i');
/** `Specify a units data file`, `provide a username`, `Set log verbosity level.`: a verb of giving and the thing given (not `Set x to y`, a preset). */
const GIVE_THING = new RegExp(String.raw`^(?:specify|specifies|set|sets|provide|provides|pass|give|choose|select|define)\s+(?:(?:a|an|the|custom|alternate|alternative|your|which|what)\s+){0,2}(?:[\w-]+\s+){0,2}?(?:${MEASURE_NOUNS}|level|format|mode|style|type|message|value|string|command|module|plugin|interface)\b(?!(?:\s+[\w-]+){0,2}\s+to\s)`, 'i');
/** `Any URL pattern(s) to ignore`, `Files/folders to ignore`: patterns or paths the option is given, for a purpose. */
const PATTERNS_TO = /^(?:(?:any|the|an?)\s+)?(?:[\w-]+\s+)?(?:patterns?|globs?|paths?)(?:\(s\))?\s+to\b/i;
/** `<integer> Port where …`, `<a | b> Level of logging.`: the description opens with the value's placeholder, then its sentence (`<b> tags …` is markup). */
const OPENING_PLACEHOLDER = /^<[^<>\n]{1,60}>\s+[A-Z]/;
/** `List of reporters (…)`: a description opening with a list of things names what is given. */
const LIST_OF = /^(?:an?\s+)?(?:(?:comma|space)[- ]?separated\s+)?list\s+of\s+(?:[\w-]+\s+)?[\w-]{2,30}s\b/i;
/** A placeholder named in the description: `output only <nb> results`. */
const NAMED_PLACEHOLDER = /<[a-z][\w-]{0,20}>/;
/** `output to the given file`, `to specified number of digits`: one thing given or specified (not `the specified files`, which the arguments name). */
const GIVEN_THING = new RegExp(String.raw`\b(?:(?:the|a)\s+given|(?:use|with|to|from)\s+(?:the\s+)?specified)\s+(?:[\w-]+\s+)?${MEASURE_NOUNS}\b(?!s)`, 'i');
/** `X to use`: the thing used is given (`Theme to use for …`, `Reporter to use`). */
const TO_USE = /^(?:(?:the|an?)\s+)?(?:[\w-]+\s+)?(?!(?:flag|option|switch)\s)[\w-]+\s+to\s+use\b/i;
/** Verbs opening a switch's description: it does something, it is given nothing. */
const SWITCH_OPENING = /^(?:do\s+not|don't|never|no)\b|^(?:(?:always|also|only|just)\s+)?(?:enable|disable|show|print|display|list|force|skip|ignore|allow|suppress|include|exclude|toggle|turn|run|watch|keep|remove|delete|overwrite|be|treat|prefer|check|follow|recurse|stop|exit|continue|report|emit|generate|minify|sort|reverse|compress|preserve|strip|add|append|colorize|whether|verbose|quiet|silent|dry|write|open|create|clear|reset|use|make|perform|enforce|validate|fail|rebuild|restart|install|update|upgrade|save|load|read|copy|move|link|log|dump|trace|debug|indicate|attempt|try|wait|send|capture|apply|call|publish|override|unmount|encode|decode|replace|behave|search|match|hide|exec|execute|count|find|set|change|define|specify|calculate|compute|prompt|repeat|paste|junk)(?:s|es)?\b/i;
/** A switch's state: `(default: off)`, `on by default`, `Set … to "debug"` (a preset value). */
const SWITCH_STATE = /\b(?:on|off|enabled|disabled|true|false)\s+by\s+default\b|\bdefault(?:\s*[:=]\s*|\s+)(?:true|false|on|off|enabled|disabled)\b|\bto\s+"[^"\s]{1,30}"/i;

/**
 * Whether a description of an option printed without a placeholder shows that the option takes a
 * value: it states a default no switch has (a number other than 0 / 1, a quoted value), names the
 * unit the value is counted in (`in ms`), the value's form (`comma-separated list of paths`), opens
 * with a short noun phrase naming what is given (`Initial delay before …`, `Number of jobs`, `Port
 * to run on`) or names it (`on this port`). A description opening with a verb (`Enable …`, `Show
 * …`) or stating a switch's state counts against.
 */
export function describesTakenValue(description: string): boolean {
  const text = description.trim().replace(/^\.{2,}\s*/, '');
  if (text.length === 0) return false;
  let score = 0;
  const stated = evidenceDefaultFact(text, null);
  // (a number other than a switch's 0 / 1, a quoted value, a path: `(default: node_modules/.cache/x)`)
  if (stated !== null && (stated.quoted || /^\d/.test(stated.text) || /^(?:\.{0,2}\/|~\/|\.\w)|\w\/\w/.test(stated.text)) && !/^(?:true|false|0|1)$/i.test(stated.text)) score += 3;
  if (UNIT_PHRASE.test(text)) score += 3;
  if (FORM_PHRASE.test(text)) score += 3;
  const giving = GIVE_THING.test(text);
  // `List of paths`: a noun, no verb
  const verb = SWITCH_OPENING.test(text) && !giving && !/^list\s+of\b/i.test(text);
  if (!verb && (THING_PHRASE.test(text) || COMPOUND_THING.test(text) || MEASURE_PHRASE.test(text) || TO_USE.test(text) || PATTERNS_TO.test(text))) score += 3;
  if (giving) score += 3;
  if (THIS_THING.test(text) || GIVEN_THING.test(text)) score += 6;
  if (OPENING_PLACEHOLDER.test(text)) score += 3;
  else if (NAMED_PLACEHOLDER.test(text)) score += 2;
  if (LIST_OF.test(text)) score += 3;
  if (verb) score -= 3;
  if (SWITCH_STATE.test(text)) score -= 4;
  return score >= 3;
}

/**
 * `describesTakenValue` for one option of a help that shows no placeholders. Go-style helps (single-dash
 * long names, `-quiet`) print a type after every option that takes a value, so a bare one there is a switch.
 */
export function describesTakenValueIn(option: CliOption, options: readonly CliOption[]): boolean {
  if (option.description === null) return false;
  // asked once per option of one list: the list's style is looked up once
  let goStyle = GO_STYLE.get(options);
  if (goStyle === undefined) {
    goStyle = options.some((other) => other.prefix === '-');
    GO_STYLE.set(options, goStyle);
  }
  return !goStyle && describesTakenValue(option.description);
}

const GO_STYLE = new WeakMap<readonly CliOption[], boolean>();

/** `250ms` on a value counted `in ms` (or in milliseconds): the number. */
function unitCountedNumber(text: string, description: string): number | null {
  const glued = GLUED_UNIT.exec(text);
  if (glued === null) return null;
  const unit = (glued[2] ?? '').toLowerCase();
  const named = unit === 'ms' ? /\bin (?:ms|milliseconds)\b/i : unit === 's' ? /\bin (?:s|secs|seconds)\b/i : null;
  return named !== null && named.test(description) ? Number(glued[1]) : null;
}

/**
 * The whole text the option list gave each spelling, its trailing annotation groups still in it (the
 * option's description has `(default value 4096)` taken off as an annotation even when no rule read
 * it): by long name, and by short letter for entries without a long one. One pass over the entries.
 */
function entryTexts(entries: readonly Entry[]): { byLong: Map<string, string>; byShort: Map<string, string> } {
  const byLong = new Map<string, string>();
  const byShort = new Map<string, string>();
  for (const entry of entries) {
    if (entry.kind !== 'option' || entry.option === null) continue;
    const text = joinWrapped([entry.option.rest, ...entry.description]).trim();
    if (text.length === 0) continue;
    for (const long of entry.option.longs) if (!byLong.has(long.name)) byLong.set(long.name, text);
    if (entry.option.longs.length === 0) for (const short of entry.option.shorts) if (!byShort.has(short)) byShort.set(short, text);
  }
  return { byLong, byShort };
}

/** A word in brackets closing a description: `… (before-newline|after-newline) [before-newline]`. */
const CLOSING_BRACKET_WORD = /\S\s+\[([\w.-]{1,40})\]\.?$/;

/**
 * nopt js-beautify `Set operator position (before-newline|after-newline) [before-newline]`: a word in
 * brackets closing the description that is one of the values the option lists is the one in effect
 * (a bracket naming anything else is a placeholder, a type or a note).
 */
function closingBracketChoice(description: string, choices: readonly string[] | null): string | null {
  if (choices === null) return null;
  const word = CLOSING_BRACKET_WORD.exec(description.trim())?.[1];
  return word !== undefined && choices.includes(word) ? word : null;
}

/** The source of the fallback's claims. */
const EVIDENCE_DEFAULTS_SOURCE = helpSource('generic', 'evidence-defaults');

/**
 * The fallback reader of defaults: a `default` claim (carrying its type, as the rules type a default)
 * for every value-taking option the readers before it left without one, from the evidence in its
 * description (a value the rules would call prose is none, as is one naming the program's arguments
 * or another option). Claims at `weight`; the resolver gives them a default only where none is held.
 */
export function evidenceDefaultClaims(options: readonly CliOption[], weight: number, argumentNames: readonly string[] = [], entries: readonly Entry[] = []): Claim<'default'>[] {
  const texts = entryTexts(entries);
  const valueLongs = new Set(options.filter((other) => other.takes_value && other.long !== null).map((other) => other.long));
  const claims: Claim<'default'>[] = [];
  const claim = (option: CliOption, value: string | number | boolean, type?: CliValueType): void => {
    claims.push({ field: 'default', option, value, source: EVIDENCE_DEFAULTS_SOURCE, weight, ...(type === undefined ? {} : { type }) });
  };
  for (const option of options) {
    if (!option.takes_value || option.default !== null || option.description === null || option.repeatable) continue;
    const description = (option.long !== null ? texts.byLong.get(option.long) : option.short !== null ? texts.byShort.get(option.short) : undefined) ?? option.description;
    const marked = closingBracketChoice(description, option.choices);
    if (marked !== null) {
      claim(option, marked);
      continue;
    }
    // (round 18: depcruise `--affected [revision] … (when not specified revision defaults to 'main')`: an
    // optional value left out is the bare flag's meaning, no default)
    if (option.value_optional === true && OMISSION_CLAUSE.test(description)) continue;
    const fact = evidenceDefaultFact(description, option.value_name);
    if (fact === null) continue;
    const counted = fact.quoted ? null : unitCountedNumber(fact.text, description);
    const text = counted === null ? fact.text.replace(/^(\d{1,3}(?:,\d{3})+)$/, (all) => all.replace(/,/g, '')) : String(counted);
    const type: CliValueType = option.type === 'string' ? (typeFromDefault(text, fact.quoted) ?? 'string') : option.type;
    const names = [option.long, option.value_name].filter((name): name is string => name !== null);
    if (isProseDefault(text, fact.quoted, true, type, option.choices, names) || isEveryItemDefault(text, fact.quoted, description, option.choices)) continue;
    // `(default: SOURCE_DIR)`: an argument of the program, a value only when it runs
    if (!fact.quoted && argumentNames.some((name) => /^[A-Z][A-Z0-9_]+$/.test(name) && text.startsWith(name))) continue;
    // a value `--other` takes (`defaults to \`github\`` beside `--github <x>`) names that option's value
    if (valueLongs.has(text) && text !== option.long) continue;
    const choice = option.choices?.find((item) => item === text) ?? option.choices?.find((item) => item.toLowerCase() === text.toLowerCase());
    claim(option, choice ?? coerceDefault(text, type), type);
  }
  return claims;
}
