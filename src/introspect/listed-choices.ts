/**
 * Choices stated around an option's description, read by the option-list passes (option-entry.ts,
 * go-flag.ts, description-values.ts): a placeholder's prose list (`levels: a, b or c`, `MODE is one
 * of …`, `(merge, diff3, or zdiff3)`), a description that is only values, examples after `like`,
 * and value lists written as definition lists under a line ending in `:`.
 */
import { namesAnyKindOfValue, namesPlaceholderKinds } from './option-head.ts';
import { EXAMPLE_CUE, EXAMPLE_OPENING, LIST_ITEM, starredList } from './prose-list.ts';

const LIST = String.raw`(${LIST_ITEM}(?:(?:,\s*or|,|\s+or)\s+${LIST_ITEM}){1,30})(?=\s*(?:[.;)(]|$))`;
/** picocli: `Valid values: xml, sarif, plain for XMLLogger, SarifLogger, and DefaultLogger respectively`. */
const LIST_FOR = String.raw`(${LIST_ITEM}(?:(?:,\s*or|,|\s+or)\s+${LIST_ITEM}){1,30})(?=\s*(?:[.;)(]|$)|\s+for\s)`;
const LIST_AFTER_NOUN = new RegExp(String.raw`\b(?:modes?|values?|types?|styles?|formats?|levels?|kinds?|methods?)\s*(?:is|are|can be)?:\s+` + LIST_FOR);
const CONSTANTS_AFTER_NOUN = new RegExp(String.raw`\b(?:modes?|values?|types?|styles?|formats?|levels?|kinds?|methods?)\s*(?:is|are|can be)?:\s+([A-Z][A-Z0-9_]{1,30}(?:(?:,\s*or|,|\s+or)\s+[A-Z][A-Z0-9_]{1,30}){1,30})(?=\s*(?:[.;)(]|$))`);

/**
 * Choices written as a plain list after a colon: `coverage mode: set, count, atomic`, `optional
 * modes: all, normal, no.`, or GNU's `show time as WORD instead of modification time: atime,
 * access, use, ctime or status` (the value name earlier in the sentence). Only for options that
 * take a value and state no choices otherwise.
 */
/** `word: a, b, c` ending the sentence (or before a parenthesis). */
// …or after a parenthesis (optparse gprof2dot `(can be specified multiple times): self-time, …`)
const AFTER_COLON_LIST = new RegExp(String.raw`([\w)]):\s+` + LIST);
/** ` (subtest parents always pass)` after a list item, before the next item's comma or `or`, or ending the text. */
const ITEM_GLOSS = /(?<=[\w-]) \([^()]{1,80}\)(?=,\s|\s+or\s|\.?$)/g;
const SUFFIXED_ITEM = String.raw`${LIST_ITEM}(?:\[[a-z]{1,10}\])?`;
const SUFFIXED_COMMA_LIST = new RegExp(String.raw`\w:\s+(${SUFFIXED_ITEM}(?:,\s?${SUFFIXED_ITEM}){2,30})\.?$`);
const GLOSSED_SEMICOLON_ITEM = String.raw`${LIST_ITEM} \([^()]{1,80}\)`;
const GLOSSED_SEMICOLON_LIST = new RegExp(String.raw`\w:\s+(${GLOSSED_SEMICOLON_ITEM}(?:;\s+${GLOSSED_SEMICOLON_ITEM}){2,30})\.?$`);
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
// (sade microbundle `(any of modern,esm,cjs,umd or iife)`: `any of` / `one of` may open it)
// (argp dvbv5-scan `--lna=LNA (0, 1, -1)`: a negative number is an item too)
const PAREN_ITEM = String.raw`(?:${LIST_ITEM}|-\d{1,9})`;
const PAREN_LIST = new RegExp(String.raw`\((?:(?:any|one) of\s+)?(${PAREN_ITEM}(?:,\s*${PAREN_ITEM}){1,30}(?:,?\s+or\s+${PAREN_ITEM})?)\)`);
// (pbzip2 `(1 - ignored; 0 - forbidden)`: a spaced dash for the `=`, a semicolon between the items)
const ASSIGNED_MEANING = String.raw`[A-Za-z0-9][\w.-]{0,30}(?:=| - )[a-z][\w-]{0,30}`;
const ASSIGNED_MEANINGS = new RegExp(String.raw`\((${ASSIGNED_MEANING}(?:[,;]\s*${ASSIGNED_MEANING}){1,30})\)`);
/** esbuild `(iife | cjs | esm, no default…)`: a parenthesized `a | b` list, maybe followed by a comma. */
/** oclif apollo `(swift | typescript | json-modern (exposes raw json types))`: the last item may carry a parenthesized gloss. */
const PAREN_PIPE_LIST = new RegExp(String.raw`\((${LIST_ITEM}(?:\s*\|\s*${LIST_ITEM}){1,30})\s*(?:\([^()|]{1,80}\)\s*)?[,)]`);


/** A parenthesized group (from `start`, its `(`, to `end`, just past its `)` or `,`) glued to a word, `.` or `:` around it. */
function isGluedGroup(text: string, start: number, end: number): boolean {
  const before = text[start - 1] ?? ' ';
  const closed = text[end - 1] === ')';
  const after = closed ? (text[end] ?? ' ') : ' ';
  return /[\w.]/.test(before) || /[\w:.]/.test(after) && !/^\.(?:\s|$)/.test(text.slice(end));
}

/**
 * yamlfmt `Paths to exclude in the chosen format (standard or doublestar)`: a description that opens
 * by naming its value a path, file or pattern takes any spelling; a pair in it glosses another word.
 */
const OPENS_WITH_VALUE_SOURCE = /^(?:paths?|files?|file ?names?|dir(?:ectorie)?s|directory|dir|folders?|globs?|patterns?)\s+(?:to|of|for|that|which|in|from)\b/i;

/**
 * semver `-n <base>  … Can be either 0 or 1, or false to omit the number altogether.`: a sentence
 * whose subject is the value, left unsaid (`Can be`, `Must be`, `May be`), listing values joined by
 * `or`; an item may go on to say what it is for (`… or false to omit …`).
 */
/** A value named as a path (`<path>`, `DIR`, `FILE`), or a description opening with one (`Path to …`). */
const PATH_VALUE = /^(?:paths?|files?|dirs?|directory|directories|folders?)$/i;
const PATH_DESCRIPTION = /^(?:(?:an?|the)\s+)?(?:(?:relative|absolute|optional|custom)\s+)?(?:paths?|files?|directory|directories|folders?)\b/i;
// (radon `The ordering function. Can be SCORE, LINES or ALPHA.`: upper-case constants too, as etcdctl's after a semicolon)
const SUBJECTLESS_ITEM = String.raw`(?:${LIST_ITEM}|${CONSTANT})`;
const SUBJECTLESS_CAN_BE = new RegExp(
  String.raw`(?:^|[.;]\s+)(?:Can|Must|May|Should) be (?:either |one of:? )?(${SUBJECTLESS_ITEM}(?:(?:,\s*or|,|\s+or)\s+${SUBJECTLESS_ITEM}){1,30})(?=\s*(?:[.;)(]|$)|\s+(?:to|for)\s)`,
);

/** `(3x or latest)`: exactly two values joined by `or`, the whole parenthesis. */
const PAREN_OR_PAIR = new RegExp(String.raw`\((${LIST_ITEM}) or (${LIST_ITEM})\)`);
const PAREN_NAMED = String.raw`\((${LIST_ITEM})\)`;
// (`(?!\s)`: the words before each `(` start after the whole gap, the only split that can match — the class
// ends at the next `(` either way; a gap re-split in every repeat was exponential, ReDoS)
const PAREN_NAMED_ALTERNATIVES = new RegExp(
  String.raw`${PAREN_NAMED}(?:,\s+(?!\s)[^(),.;]{1,40}${PAREN_NAMED}){1,30},?\s+or\s+(?!\s)[^(),.;]{1,40}${PAREN_NAMED}(?=\s*(?:[.;]|$))`,
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
/**
 * Go flag (staticcheck): `(valid choices are 'stylish', 'text' and 'json')`: the valid values named as such;
 * argparse (sqlformat) `… language LANG, choices are "python", "php"`: `choices` says it after a comma too.
 * aria2 `Possible Values: none, prealloc, trunc, falloc` on a line of its own (a titled line such as
 * `Default: prealloc` may follow it in the joined description).
 */
const VALID_VALUES_ARE = new RegExp(
  String.raw`(?:\b(?:valid|possible|allowed|accepted|supported)\s+(?:choices|values|options)\s*(?:(?:are|is)\s*:?|:)|\bavailable\s+(?:choices|values|modes|formats|levels|types|styles|methods|kinds)\s+are\s*:?|(?:(?:^|[.!?]\s+)(?=[A-Z])|,\s+(?=(?:choices|options)\b))(?:choices|values|options)(?:\s+(?:are|is)\s*:?|:))\s+` +
    AND_OR_LIST +
    String.raw`(?=\s*(?:[.;)]|$)|\s(?:default|tags|type|env|examples?|aliases):\s)`,
  'i',
);
/**
 * click (interrogate) `extension (supported: ``pyi``)`: a parenthesis titled `supported:` (or
 * `valid:`, `allowed:`) holding only values, in any quoting (reST double backquotes too), states
 * them all, even one.
 */
const BACKQUOTED_ITEM = String.raw`(?:\`{1,2}${LIST_ITEM}\`{1,2}|"${LIST_ITEM}"|'${LIST_ITEM}'|${LIST_ITEM})`;
const SUPPORTED_PAREN = new RegExp(String.raw`\((?:supported|valid|allowed|accepted)(?: values)?:\s+(${BACKQUOTED_ITEM}(?:(?:,\s*(?:and|or)|,|\s+(?:and|or))\s+${BACKQUOTED_ITEM}){0,30})\)`, 'i');

/** urfave (sops): `currently json, yaml, dotenv and binary are supported.`: the description opens with the supported values. */
// (argparse html2text `What to do in case of decode errors.'ignore', 'strict' and 'replace' are acceptable
// values`: opening a later sentence too)
const SUPPORTED_LIST = new RegExp(String.raw`(?:^|[.!?]\s*)(?:(?:currently|only)\s+)?` + AND_OR_LIST + String.raw`\s+are\s+(?:(?:currently|the only ones?)\s+)?(?:supported|accepted|acceptable|allowed|valid)\b`, 'i');

/**
 * sade svelte-check `Possible values are \`js\` (includes TS), \`svelte\`, \`css\`.`: backquoted
 * items read as quoted ones, and a short note in parentheses after an item is no part of the list.
 */
function withoutItemNotes(text: string): string {
  return text.replace(/`([a-z0-9][\w.-]{0,30})`/g, "'$1'").replace(/(["'])\s+\([^()"']{1,30}\)(?=,|\s+(?:or|and)\s)/g, '$1');
}

/**
 * rougify `options are: …, html-table, null/raw/tokens, or tex.`: an item of three or more words
 * joined by slashes names as many values (aliases of one thing); two (`text/html`) stay one value.
 */
function withSlashAliasesSpread(text: string): string {
  return text.replace(/(?<=[\s,:])([a-z0-9][\w-]{0,30}(?:\/[a-z0-9][\w-]{0,30}){2,10})(?=,|\s+(?:or|and)\s|\.?$)/g, (item: string) => item.split('/').join(', '));
}

/** The values a description names as such (`Possible values are a, b, c`, `Options are a, b.`), or null. */
export function namedValuesChoices(text: string): string[] | null {
  const validValues = VALID_VALUES_ARE.exec(withSlashAliasesSpread(withoutItemNotes(text)));
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
/** Plain words in a parenthesis closing the description, the last joined by `or`: `(standard or Atari)`. */
// (any case: mkfs.fat's `Atari` is a value's own spelling)
const PLAIN_PAREN_ITEM = String.raw`[A-Za-z0-9][\w.-]{0,30}`;
const PLAIN_PAREN_LIST = new RegExp(String.raw`\((${PLAIN_PAREN_ITEM}(?:,\s*${PLAIN_PAREN_ITEM}){0,30},?\s+or\s+${PLAIN_PAREN_ITEM})\)\.?$`);

/**
 * mkfs.fat `--variant=TYPE  Select variant TYPE of filesystem (standard or Atari)`: a sentence naming
 * the placeholder in capitals, closed by a parenthesis of its alternatives, lists the values (not
 * kinds of value, `(file or directory)`, nor examples).
 */
function namedPlaceholderParenList(text: string, valueName: string | null): string[] | null {
  const name = valueName?.replace(/[<>[\]{}=]/g, '') ?? '';
  const list = /^[A-Z][A-Z_]{1,20}$/.test(name) ? PLAIN_PAREN_LIST.exec(text) : null;
  if (list === null || !new RegExp(String.raw`\b${name}\b`).test(text.slice(0, list.index))) return null;
  const items = splitAndOrList(list[1] ?? '');
  return namesAnyKindOfValue(items) || EXAMPLE_CUE.test(list[1] ?? '') ? null : items;
}

/**
 * exiv2 `-Q lvl  Set log-level to d(ebug), i(nfo), w(arning), e(rror) or m(ute).`: each value a letter
 * or two glued to the rest of its word in parentheses; the letters are what is typed.
 */
const ABBREVIATED_ITEM = String.raw`[A-Za-z]{1,2}\([a-z]{2,20}\)`;
const ABBREVIATED_LIST = new RegExp(String.raw`(?:^|\s)(${ABBREVIATED_ITEM}(?:(?:,\s*or|,|\s+or)\s+${ABBREVIATED_ITEM}){1,30})(?=\s*(?:[.;)]|$))`);

/** English function words: an item that is one is prose read as a list (psql `(or |pipe)`). */
// (not `in`, `to`, `on`, `not`: `(in|out)`, `not` are values some options take)
const FUNCTION_WORDS = new Set(['or', 'and', 'of', 'the', 'an', 'with', 'by', 'is', 'be']);
/** Letters of a size's unit (`k/m/g`, `KiB`, `MB`): glued onto a number, they are how a size is written. */
const SIZE_UNIT_ITEM = /^(?:[kmgtp]i?b?|b|bytes?)$/i;
/** A value named as an amount (`<max-size>`, `SIZE`, `BYTES`), not as the unit it is shown in. */
const AMOUNT_VALUE_NAME = /(?:^|[^a-z])(?:size|bytes|limit|amount|memory)(?:$|[^a-z])/i;

/**
 * Whether a list a rule read is no set of values: an item that is a function word (prose around a
 * bar or comma), or the unit letters of a value named as an amount (scdl `--max-size [max-size]  Skip
 * tracks larger than size (k/m/g)`: `10m` is taken; the letters are suffixes).
 */
function isNoValueList(items: readonly string[], valueName: string | null): boolean {
  if (items.some((item) => FUNCTION_WORDS.has(item.toLowerCase()))) return true;
  return items.length >= 2 && items.every((item) => SIZE_UNIT_ITEM.test(item)) && AMOUNT_VALUE_NAME.test(valueName ?? '') && !/unit/i.test(valueName ?? '');
}

export function listedChoices(text: string, valueName: string | null): string[] | null {
  const listed = firstListedChoices(text, valueName);
  return listed !== null && isNoValueList(listed, valueName) ? null : listed;
}

function firstListedChoices(text: string, valueName: string | null): string[] | null {
  // `abort (default), fail`: the marker is no part of the list; fd's `file (f), directory (d)`: nor
  // is a one-letter alias after an item
  const starred = starredList(text);
  if (starred !== null) return starred.choices;
  const abbreviated = ABBREVIATED_LIST.exec(text);
  if (abbreviated !== null) return [...(abbreviated[1] ?? '').matchAll(/([A-Za-z]{1,2})\(/g)].map((item) => item[1] ?? '');
  // pg_format `Values: 0=>unchanged, 1=>lowercase, 2=>uppercase.`: each value, an arrow, its meaning
  const arrows = [...text.matchAll(/(?:\bvalues?:\s+|,\s+)([a-z0-9][\w.-]{0,30})\s?=>\s?\w/gi)].map((item) => item[1] ?? '');
  if (arrows.length >= 2 && new Set(arrows).size === arrows.length) return arrows;
  // diffstat `-f NUM  format (0=concise, 1=normal, 2=filled, 4=values)`: a parenthesis of only
  // `value=meaning` items (not after an example cue: `(e.g. user=x, host=y)`)
  const meanings = ASSIGNED_MEANINGS.exec(text);
  const assignedValues = meanings === null ? [] : [...(meanings[1] ?? '').matchAll(/(?:^|[,;]\s*)([a-z0-9][\w.-]{0,30})(?:=| - )/gi)].map((item) => item[1] ?? '');
  // (cwebp `compression method (0=fast, 6=slowest), default=4`: a default outside them makes them a range's ends)
  const outsideDefault = /\bdefault\s*[=:]?\s*([\w.-]+)/i.exec(text)?.[1];
  if (meanings !== null && !EXAMPLE_CUE.test(/[^.]*$/.exec(text.slice(0, meanings.index))?.[0] ?? '') && new Set(assignedValues).size === assignedValues.length && (outsideDefault === undefined || assignedValues.includes(outsideDefault))) return assignedValues;
  const bracketPipe = LEADING_BRACKET_PIPE.exec(text) ?? ENDING_BRACKET_PIPE.exec(text);
  if (bracketPipe !== null) return (bracketPipe[1] ?? '').split('|');
  const quotedParen = QUOTED_PAREN_LIST.exec(text);
  if (quotedParen !== null) return splitAndOrList(quotedParen[1] ?? '');
  const namedParen = namedPlaceholderParenList(text, valueName);
  if (namedParen !== null) return namedParen;
  // potrace `-d, --debug <n>  produce debugging output of type n (n=1,2,3)`: the placeholder set to its values
  const placeholder = valueName?.replace(/[<>[\]{}=]/g, '') ?? '';
  const setTo = /^[A-Za-z][\w-]{0,20}$/.test(placeholder) && text.includes(`(${placeholder}=`) ? new RegExp(String.raw`\(${placeholder}=(${LIST_ITEM}(?:,\s?${LIST_ITEM}){1,30})\)`).exec(text) : null;
  if (setTo !== null) return (setTo[1] ?? '').split(/,\s?/);
  const validValues = VALID_VALUES_ARE.exec(withSlashAliasesSpread(withoutItemNotes(text))) ?? SUPPORTED_LIST.exec(text);
  if (validValues !== null) return splitAndOrList(validValues[1] ?? '');
  const supported = SUPPORTED_PAREN.exec(text);
  if (supported !== null) return splitAndOrList((supported[1] ?? '').replace(/`{1,2}/g, ''));
  // rake `OUT can be stderr (default) or stdout.`: nor before an `or`
  const description = text.replace(/ \(default\)(?=\s*(?:,|$)|\s+or\s)/g, '').replace(/\b([a-z0-9][\w.-]{0,30}) \([a-z0-9]\)(?=,|\s+or\s|\s*$)/g, '$1');
  // gh: `Filter by state: {open|closed|all}`
  const braced = /\{([a-z0-9][\w.-]{0,30}(?:\|[a-z0-9][\w.-]{0,30}){1,30})\}/.exec(description);
  if (braced !== null) return (braced[1] ?? '').split('|');
  // oclif: `<options: CommonJS|ESM>`
  // (hard-wrapped inside a word, `warn|e` / `rror|fatal>`, the lines joined by a space: one space inside an item is the wrap's)
  const oclif = /<options: ([^<>|\s]{1,40}(?: [^<>|\s]{1,40})?(?:\|[^<>|\s]{1,40}(?: [^<>|\s]{1,40})?){1,30})>/.exec(description);
  if (oclif !== null) return (oclif[1] ?? '').split('|').map((item) => item.replace(' ', ''));
  const name = valueName?.replace(/[<>[\]{}=]/g, '') ?? '';
  // GNU od: `RADIX is one of [doxn]`: a character class, each letter one value
  const characterClass = /^[A-Z][A-Z_]{1,20}$/.test(name) && description.includes(`${name} is one of [`) ? new RegExp(String.raw`\b${name} is one of \[([a-z0-9]{2,16})\]`).exec(description) : null;
  if (characterClass !== null) return [...new Set(characterClass[1] ?? '')];
  // typer (rstcheck) `LEVEL … Valid levels are: INFO | WARNING | ERROR.`: the value name in the plural, in
  // any case, then values joined by `|`
  const pipedItem = String.raw`[A-Za-z0-9][\w.-]{0,30}`;
  // (lizard `-l LANGUAGES … The available languages are: cpp, java, …, GDScript, go`: joined by commas and `or` too)
  const pluralPiped = /^[A-Z][A-Z_]{1,20}$/.test(name) && description.toLowerCase().includes(name.toLowerCase()) ? new RegExp(String.raw`\b${name}s?\b[^.:]{0,120}:\s+(${pipedItem}(?:(?:\s*\|\s*|(?:,\s*or|,|\s+or)\s+)${pipedItem}){1,30})(?=\s*(?:[.;)]|$))`, 'i').exec(description) : null;
  // (not optparse qrcode's `the following shortcuts to the built-in image factory classes: pil, png`, nor examples)
  const pluralIntroduction = pluralPiped === null ? '' : (/[^.]*$/.exec(description.slice(0, pluralPiped.index + pluralPiped[0].length - (pluralPiped[1] ?? '').length))?.[0] ?? '');
  if (pluralPiped !== null && !isCaseOrShortcutIntroduction(pluralIntroduction) && !/\b(e\.g|i\.e|examples?|such as|like|including)\b/i.test(pluralIntroduction)) return (pluralPiped[1] ?? '').split(/\s*\|\s*|\s*(?:,\s*or|,|\s+or)\s+/).map((item) => item.replace(/\.$/, ''));
  // rich-cli `--panel BOX  Set panel type to BOX. ascii, ascii2, double, heavy, none, rounded, square`: a
  // sentence naming the placeholder, then one made only of three or more values, closing the description
  const afterNamingSentence = /^[A-Z][A-Z_]{1,20}$/.test(name) && description.includes(`${name}.`) ? new RegExp(String.raw`\b${name}\.\s+(${LIST_ITEM}(?:(?:,\s*or|,|\s+or)\s+${LIST_ITEM}){2,30})\.?$`).exec(description) : null;
  if (afterNamingSentence !== null && !isOpenList(afterNamingSentence[1] ?? '')) return splitList(afterNamingSentence[1] ?? '');
  const assigned = assignedValueChoices(description, name);
  if (assigned !== null) return assigned;
  const aliased = ALIASED_CLAUSES.exec(description);
  if (aliased !== null) return [...(aliased[1] ?? '').matchAll(new RegExp(String.raw`(?:^|;\s+(?:and\s+)?)(${LIST_ITEM}) or (${LIST_ITEM})`, 'g'))].flatMap((clause) => [clause[1] ?? '', clause[2] ?? '']);
  // …but a path's qualities are no values (typer rstcheck `--sphinx-source-dir <path>  Path to the
  // sphinx 'source' directory. … May be relative or absolute.`)
  const subjectless = PATH_VALUE.test(name) || PATH_DESCRIPTION.test(description) ? null : SUBJECTLESS_CAN_BE.exec(description);
  // (constants name kinds only when all do, or half are sources, as in `[PATH|URI]`: radon's `LINES` is a value)
  const subjectlessItems = splitList(subjectless?.[1] ?? '');
  const constantsOnly = subjectlessItems.every((item) => /^[A-Z][A-Z0-9_]*$/.test(item));
  if (subjectless !== null && !(constantsOnly ? namesPlaceholderKinds(subjectlessItems) : namesAnyKindOfValue(subjectlessItems))) return subjectlessItems;
  // argp dvbv5-scan `Output format: VDR, CHANNEL, ZAP, DVBV5`: the values in capitals (unless they name kinds, `FILE or URL`)
  const constantsAfterNoun = CONSTANTS_AFTER_NOUN.exec(description);
  let match = LIST_AFTER_NOUN.exec(description) ?? (constantsAfterNoun !== null && !namesPlaceholderKinds(splitList(constantsAfterNoun[1] ?? '')) ? constantsAfterNoun : null);
  if (match === null && /^[A-Z][A-Z_]{1,20}$/.test(name) && description.includes(name)) {
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
  // go-junit-report `set subtest mode: ignore-parent-results (subtest parents always pass), exclude-parents (…)`:
  // each item glossed by a parenthesis of its own (read without the glosses)
  // getopt units `specify a CGS units system …: gauss[ian],esu,emu,hlu,natural,…`: a comma list closing the
  // description whose items may carry optional letters in brackets (`gauss[ian]` spells gauss and gaussian)
  const suffixed = SUFFIXED_COMMA_LIST.exec(description);
  if (suffixed !== null && /\[/.test(suffixed[1] ?? '')) {
    return (suffixed[1] ?? '').split(/,\s?/).flatMap((item) => {
      const optional = /^([^[]+)\[([a-z]{1,10})\]$/.exec(item);
      return optional === null ? [item] : [optional[1] ?? '', `${optional[1] ?? ''}${optional[2] ?? ''}`];
    });
  }
  // optparse landslide `Three options availables: no (no line numbers); inline (inside <pre> tag); table
  // (…)`: three or more items, each glossed, joined by semicolons, closing the description
  const semicolonGlossed = GLOSSED_SEMICOLON_LIST.exec(description);
  const semicolonIntroduction = semicolonGlossed === null ? '' : (/[^.]*$/.exec(description.slice(0, semicolonGlossed.index + 1))?.[0] ?? '');
  if (semicolonGlossed !== null && !/\b(e\.g|i\.e|examples?|such as|like|including|defaults?)\b/i.test(semicolonIntroduction)) {
    return [...(semicolonGlossed[1] ?? '').matchAll(/(?:^|;\s+)([a-z0-9][\w.-]{0,30}) \(/g)].map((item) => item[1] ?? '');
  }
  const afterColon = AFTER_COLON_LIST.exec(description) ?? AFTER_COLON_LIST.exec(description.replace(ITEM_GLOSS, ''));
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
  // (exiv2 `The format for commands is set|add|del <key> [[<type>] <value>].`: before placeholders, the words of a line's syntax)
  if (inlinePipe !== null && !/^\s*\[*</.test(description.slice(inlinePipe.index + inlinePipe[0].length))) return (inlinePipe[1] ?? '').split('|');
  const parenthesized = PAREN_LIST.exec(description);
  // black `add the given magic to the list of known python-magics (capture, prun, …)`: members of a
  // list the option adds to, or examples (`such as`, `e.g.`), are no list of its values
  // (nor is oxipng's `(zc, f, etc.)`: a list ending in `etc.` names examples, and text after it may still list the values)
  if (parenthesized !== null && (EXAMPLE_CUE.test(/[^.]*$/.exec(description.slice(0, parenthesized.index))?.[0] ?? '') || /,\s*etc\.?$/i.test(parenthesized[1] ?? '') || EXAMPLE_OPENING.test(parenthesized[1] ?? ''))) return null;
  // electron-packager `Properties supported: … - requested-execution-level (user, asInvoker, or
  // requireAdministrator)`: a list right after the name of a dashed sub-item holds that item's values
  if (parenthesized !== null && /(?:^|\s)- [A-Za-z][\w.-]{0,40}\s+$/.test(description.slice(Math.max(0, parenthesized.index - 60), parenthesized.index))) return null;
  // flake8 `(default, pylint, quiet-filename) or a format string`: an alternative outside the list opens it
  if (parenthesized !== null && /^\s*or\b/.test(description.slice(parenthesized.index + parenthesized[0].length))) return null;
  // help2man `-s, --section=SECTION  section number for manual page (1, 6, 8)`: numbers after a
  // description calling the value a number (not a level or mode) are some numbers it may be
  if (parenthesized !== null && /^-?\d+(?:,\s*-?\d+)*(?:,?\s+or\s+-?\d+)?$/.test(parenthesized[1] ?? '') && /\bnumber\b/i.test(description.slice(0, parenthesized.index))) return null;
  if (parenthesized !== null) {
    // optipng `(256,512,1k,2k,4k,8k,16k,32k)`: bare commas join the items too
    const content = parenthesized[1] ?? '';
    const items = /\s/.test(content) && !/,\S/.test(content) ? splitList(content) : content.split(/,\s*(?:or\s+)?|\s+or\s+/);
    // two without `or` (`(x, y)`) are an example more often than the choices
    if (items.length >= 3 || /\sor\s/.test(parenthesized[1] ?? '')) return items;
  }
  // citty nuxi `release channel (3x or latest)`: two values joined by `or` in parentheses, when neither names a kind of value (`(file or directory)`)
  const pairedOr = PAREN_OR_PAIR.exec(description);
  if (pairedOr !== null && !isGluedGroup(description, pairedOr.index, pairedOr.index + pairedOr[0].length) && !OPENS_WITH_VALUE_SOURCE.test(description)) {
    const pair = [pairedOr[1] ?? '', pairedOr[2] ?? ''];
    if (!namesAnyKindOfValue(pair) && !EXAMPLE_CUE.test(/[^.]*$/.exec(description.slice(0, pairedOr.index))?.[0] ?? '')) return pair;
  }
  // commander svgo: `Output as Data URI string (base64), URI encoded (enc) or unencoded (unenc)`:
  // three or more alternatives, each naming its value in parentheses
  const named = PAREN_NAMED_ALTERNATIVES.exec(description);
  if (named !== null) return [...named[0].matchAll(/\(([^()]+)\)/g)].map((item) => item[1] ?? '');
  // commander madge: `layout engine to use (dot/neato/fdp/sfdp/twopi/circo)`: three or more joined by slashes
  const slashed = PAREN_SLASH_LIST.exec(description);
  // (textlint `load modules(rules/presets/plugins)`: a group glued to a word names kinds of it)
  if (slashed !== null && !isGluedGroup(description, slashed.index, slashed.index + slashed[0].length)) return (slashed[1] ?? '').split('/');
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
  // (urfave kcptun `specify smux version, available 1,2 (default: 1)`: `available` names them too, two or more)
  const match =
    new RegExp(String.raw`\blike\s+(${LIST_ITEM}(?:,${LIST_ITEM}){2,30})(?=\s*(?:[.;(]|$))`).exec(description) ??
    new RegExp(String.raw`\bavailable:?\s+(${LIST_ITEM}(?:,${LIST_ITEM}){1,30})(?=\s*(?:[.;(]|$))`).exec(description);
  const items = match === null ? [] : (match[1] ?? '').split(',');
  return items.includes(defaultText) ? items : null;
}

/**
 * `json   machine-readable`, with a dash between (Go benchstat's `text - plain text`), with a colon
 * after the name (rimraf `native: the built-in implementation in Node.js`), or with an arrow (clap
 * oxipng `max =>   (stable alias for the max level)`).
 */
// (lessc `parens | strict     Math only …`: aliases joined by a spaced bar too)
// (exiv2 `s : print a summary`, `C : print ICC profile`: a letter code, either case, then a spaced colon)
const DEFINITION_LINE = /^([a-z0-9][\w.-]{0,30}(?:(?:,\s*|\s\|\s)[a-z0-9][\w.-]{0,30}){0,5}|[A-Za-z0-9](?= : ))(?:\s{2,}|\s+-\s+|\s?:\s+|\s*=>\s+)\S/;
/** A bullet item naming a value, maybe glossed in parentheses, then a comma: several values a line. */
const BULLET_OF_VALUES = /^- [a-z0-9][\w.-]{0,30}(?: \([^()]{0,60}\))?,\s/;
/** clap oxipng `0   => --zc 5 --fast`: a value mapped by an arrow to what it means. */
const ARROW_ITEM = /^[a-z0-9][\w.-]{0,30}\s*=>\s/;

/**
 * streamzip `Valid methods are` (then `store    Store without compression`…): a line naming the
 * valid values and ending in `are`, as a colon would end it, introduces the list the same way.
 */
const VALUES_ARE_TITLE = /^(?:the\s+)?(?:valid|supported|available|possible|allowed|accepted)\s+[a-z]+(?:\s+[a-z]+)?\s+are$/i;

/** How many parentheses a line leaves open (negative when it closes more than it opens). */
function openParentheses(line: string): number {
  return (line.match(/\(/g) ?? []).length - (line.match(/\)/g) ?? []).length;
}

/**
 * A value list written as a definition list under a line ending in `:` — in an option's own
 * description (`output format:` then `json   machine-readable`…) or in a paragraph after the
 * options (GNU `Here are the values:` then `none, off   never make backups`). Every listed name
 * (comma-separated aliases too) is a choice. Null unless at least two items follow the colon.
 * `indents` (one per line) lets an item's description run on over deeper lines.
 */
const GAPPED_DEFINITION_LINE = /^[a-z0-9][\w.-]{0,30}(?: \| [a-z0-9][\w.-]{0,30}){0,5}\s{2,}\S/;
/** `target(s)`, `flags`: an introduction naming the value in the plural. */
const PLURAL_CODES = /\b[a-z]{2,20}\(s\)|\bflags\b/i;

/** LLVM's CommandLine layout: `--opt=<value>   - Says what.` over `  =name   -   What name does.`, one line a value. */
const LLVM_VALUE_LINE = /^=([a-z0-9][\w.-]{0,30})\s+-\s+\S/;

/**
 * clang-format `--Wno-error=<value>  - If set don't error out …` then `=unknown  -   If set, …`: the
 * lines opening with `=` and a name, then LLVM's spaced dash, are the values (cl::values), even one.
 * Only under a description opening with that dash, as LLVM prints it.
 */
function llvmValueChoices(lines: readonly string[]): string[] | null {
  if (!/^-\s/.test(lines[0] ?? '')) return null;
  const values = lines.map((line) => LLVM_VALUE_LINE.exec(line.trim())?.[1]).filter((value): value is string => value !== undefined);
  return values.length > 0 ? [...new Set(values)] : null;
}

export function definitionListChoices(lines: readonly string[], indents?: readonly number[]): string[] | null {
  const llvm = llvmValueChoices(lines);
  if (llvm !== null) return llvm;
  const colon = lines.findIndex((line) => /:$/.test(line) || VALUES_ARE_TITLE.test(line));
  // clap oxipng `-o, --opt <level>  … returns.` then `0   => --zc 5 --fast` …: lines mapping values
  // by arrows are a value list of their own, with no line ending in `:` to introduce them
  // (lessc `-m=, --math=` alone on its line, then `always   Less will …` lines: a head with no words of
  // its own over definition lines introduces them as its colon would)
  const bareHead = colon === -1 && lines[0] === '' && lines.length > 2 ? 0 : -1;
  const arrows = lines.findIndex((line) => ARROW_ITEM.test(line));
  const first = colon !== -1 ? colon + 1 : arrows === -1 && bareHead !== -1 ? 1 : arrows;
  if (first === -1) return null;
  const choices: string[] = [];
  let itemIndent: number | undefined;
  // rimraf `windows: the Windows JS implementation (falls back to` / `move-remove on ENOTEMPTY)`: a
  // parenthesis an item leaves open continues it over the next lines, whatever their indent
  let open = 0;
  for (const [offset, line] of lines.slice(first).entries()) {
    if (open > 0) {
      open += openParentheses(line);
      continue;
    }
    // with indents known, a line deeper than the items continues the item above
    const indent = indents?.[first + offset];
    itemIndent ??= indent;
    if (indent !== undefined && itemIndent !== undefined && indent > itemIndent) continue;
    // clap long help: `Possible values:` then `- fast: Run swiftly`
    // …clipanion (yarn) backquotes them: `- \`skip-build\` will not run the build scripts`
    // (under a bare head only the table's own layout counts, a value then a wide gap: `default: 5` is prose)
    if (first === 1 && colon === -1 && arrows === -1 && !GAPPED_DEFINITION_LINE.test(line)) break;
    const match = DEFINITION_LINE.exec(line) ?? /^- ([a-z0-9][\w.-]{0,30})(?::|\s|$)/.exec(line) ?? /^- `([a-z0-9][\w.-]{0,30})`(?::|\s|$)/.exec(line);
    // gosec `- atlas (Atlas Cloud default), atlas-deepseek-v4-flash, atlas:<model-id>;`: a bullet whose
    // name a comma follows (after a gloss) opens a run of values, not a name and its meaning: the
    // first words of such lines are not all the values
    if (BULLET_OF_VALUES.test(line)) return null;
    // an item of the list that is no plain name (GNU od `d[SIZE]   signed decimal`) leaves it open
    if (!match && choices.length > 0 && /^\S{1,40}\s{2,}\S/.test(line) && (indent === undefined || indent === itemIndent)) return null;
    if (!match) break;
    open = Math.max(0, openParentheses(line));
    choices.push(...(match[1] ?? '').split(/,\s*|\s\|\s/));
  }
  // an upper-case item (`pBRE`, `N`) is a placeholder: the list is not closed
  // (unless every item is one character: exiv2's `s`, `C`, `X` are letter codes told apart by case)
  if (choices.some((choice) => /[A-Z]/.test(choice)) && !choices.every((choice) => choice.length === 1)) return null;
  // exiv2 `-P flgs  Print flags …:`, `-d tgt  Delete target(s) …:`: letter codes named in the plural are
  // combined into one value (`-PEkycv`), so no one letter is the whole value
  if (choices.every((choice) => choice.length === 1) && PLURAL_CODES.test(lines.slice(0, Math.max(first, 1)).join(' '))) return null;
  // stylelint `- a "stylelint" property…`, `- a ".stylelintrc" file`: a bullet list whose lines open
  // with the same word is prose, no list of values
  const distinct = [...new Set(choices)];
  return distinct.length >= 2 && distinct.length === choices.length ? distinct : null;
}
