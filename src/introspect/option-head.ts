/**
 * Parses the "head" of an option entry — the flag spellings and value placeholder that start a
 * line such as `-n, --lines=[-]NUM`, `-d DELIM, --delimiter DELIM`, `--format {a,b}`,
 * `--color / --no-color`, `-b, --bucket <name>`, `-l, --label strings` — and splits off the
 * description that follows on the same line.
 */
import { typeFromValueName } from './value-type.ts';

const MAX_HEAD_CHARS = 300;
const MAX_HEAD_TOKENS = 24;

export interface ParsedFlag {
  /** `--`, or `-` for a single-dash spelling. */
  dashes: '--' | '-';
  name: string;
}

export interface OptionHead {
  longs: ParsedFlag[];
  shorts: string[];
  /** Extra spellings with dashes (including literal-value spellings like `--check=quiet`). */
  aliases: string[];
  negation: string | null;
  valueName: string | null;
  valueOptional: boolean;
  choices: string[] | null;
  repeatable: boolean;
  /** How many values one use of the option takes (argparse `nargs=2`, jq `--arg name value`). */
  valueCount: number;
  /** The last value may be repeated (`-c <name> [<file> ...]`). */
  variadicValues: boolean;
  /** Text after the head on the same line. */
  rest: string;
}

/** Words that pflag/cobra, Go flag and typer print as the value placeholder. */
const LOWERCASE_TYPE_WORDS = new Set([
  'string', 'strings', 'int', 'ints', 'int8', 'int16', 'int32', 'int64', 'uint', 'uints', 'uint8', 'uint16', 'uint32',
  'uint64', 'float', 'float32', 'float64', 'float32Slice', 'float64Slice', 'duration', 'durationSlice', 'bool', 'bools',
  'boolSlice', 'stringArray', 'stringSlice', 'stringToString', 'stringToInt64', 'intSlice', 'int32Slice', 'int64Slice',
  'uintSlice', 'ip', 'ipSlice', 'ipMask', 'ipNet', 'bytesHex', 'bytesBase64', 'count', 'value', 'list', 'path', 'file',
  'dir', 'number', 'text',
]);
/** Value types optionator (eslint) prints after the flag. */
const OPTIONATOR_TYPES = new Set(['String', 'Int', 'Number', 'Boolean', 'Object', 'Array', 'Date', 'RegExp', 'Float', 'Path']);
const REPEATABLE_TYPE_WORDS = new Set([
  'strings', 'ints', 'uints', 'bools', 'stringArray', 'stringSlice', 'intSlice', 'int32Slice', 'int64Slice', 'uintSlice',
  'float32Slice', 'float64Slice', 'durationSlice', 'boolSlice', 'ipSlice',
]);

/** Splits at spaces and commas outside brackets; `/` and `|` at depth 0 become their own tokens. */
function tokenize(head: string): { tokens: string[]; starts: number[] } {
  const tokens: string[] = [];
  const starts: number[] = [];
  let current = '';
  let currentStart = 0;
  let depth = 0;
  const flush = (): void => {
    if (current.length > 0) {
      tokens.push(current);
      starts.push(currentStart);
    }
    current = '';
  };
  let quoted = false;
  let quote = '"';
  for (let position = 0; position < head.length; position += 1) {
    const character = head[position] ?? '';
    // cog `--markers='START END END-OUTPUT'`: a single-quoted placeholder after `=` is one token too
    if (character === "'" && ((quoted && quote === "'") || (!quoted && current.endsWith('=')))) {
      quoted = !quoted;
      quote = quoted ? "'" : '"';
      current += character;
      continue;
    }
    if (quoted && quote === "'") {
      current += character;
      continue;
    }
    // kong `--padding="0 0"`: a quoted default is one token
    if (character === '"' && (quoted || current.endsWith('='))) quoted = !quoted;
    if (quoted || (character === '"' && current.length > 0)) {
      current += character;
      continue;
    }
    if (character === '<' || character === '[' || character === '{' || character === '(') depth += 1;
    if ((character === '>' || character === ']' || character === '}' || character === ')') && depth > 0) depth -= 1;
    // iperf `--affinity n/n,m`: a comma inside a value pattern (`n/n,m`) joins its parts
    // (eleventy `--formats=liquid,md`: a comma glued inside a value given after `=` joins the list, an example value)
    const inValue =
      character === ',' &&
      ((/^[a-z](?:\/[a-z])+$/.test(current) && /[a-z]/.test(head[position + 1] ?? '')) || (/^--?[A-Za-z][\w-]*=[\w.*]+$/.test(current) && /[\w.*]/.test(head[position + 1] ?? '')));
    if (depth === 0 && (character === ' ' || (character === ',' && !inValue && !continuesListPlaceholder(current, head, position)))) {
      flush();
      continue;
    }
    // timeit `-n/--number N:`: a slash glued between a short and a long spelling joins them like a comma
    // (inotifywait `-m|--monitor`: a bar glued there too)
    if (depth === 0 && (character === '/' || character === '|') && /^-[A-Za-z0-9]$/.test(current) && head.startsWith('--', position + 1)) {
      flush();
      continue;
    }
    // irb `--sample-book-mode/--simple-prompt`: a slash glued between two long spellings joins them the same way
    if (depth === 0 && character === '/' && /^--[A-Za-z][\w-]*$/.test(current) && /^--[A-Za-z]/.test(head.slice(position + 1, position + 4))) {
      flush();
      continue;
    }
    // rougify `--input-file|-i <filename>`: the same bar after the long spelling, before the short one
    // (rdfind `-dryrun|-n`: a single-dash long spelling too)
    if (depth === 0 && character === '|' && /^--?[A-Za-z][\w-]*$/.test(current) && /^-[A-Za-z0-9](?![^\s,|])/.test(head.slice(position + 1, position + 4))) {
      flush();
      continue;
    }
    if (depth === 0 && (character === '/' || character === '|') && current.length === 0) {
      tokens.push(character);
      starts.push(position);
      continue;
    }
    if (current.length === 0) currentStart = position;
    current += character;
    if (tokens.length >= MAX_HEAD_TOKENS) break;
  }
  flush();
  return { tokens, starts };
}

/** The items of a list placeholder before a comma: `CODE1`, `check1,check2`. */
const LIST_PLACEHOLDER_ITEMS = /^[A-Za-z][\w-]{0,20}(?:,[A-Za-z][\w-]{0,20}){0,3}$/;
/** What follows that comma: more items, then the ellipsis that closes the list (`CODE2..`, `...`). */
const LIST_PLACEHOLDER_REST = /^(?:[A-Za-z][\w-]{0,20},){0,3}(?:[A-Za-z][\w-]{0,20})?\.{2,3}(?=\s|$)/;

/**
 * shellcheck (Haskell GetOpt) `-i CODE1,CODE2..`, `-o check1,check2..`: items joined by commas and
 * closed by an ellipsis are one placeholder, a list of values (the comma joins no spellings).
 */
function continuesListPlaceholder(current: string, head: string, position: number): boolean {
  return LIST_PLACEHOLDER_ITEMS.test(current) && !/^[-,]/.test(head.slice(position + 1, position + 2)) && LIST_PLACEHOLDER_REST.test(head.slice(position + 1, position + 80));
}

function isFlagToken(token: string): boolean {
  // `-5`, `-1.5` are numbers, but `-0` and double-dash digits (`--100`, shasum's `--01`) are flags
  return /^--?(?:[A-Za-z0-9?#@[]|\(no-?\)[A-Za-z])/.test(token) && !/^-\d+(\.\d+)?$/.test(token.replace(/^-(\d)$/, 'x'));
}

function stripBrackets(text: string): string {
  // nc `addr[:port]`: a name's own optional part keeps its closing bracket
  if (/^[a-z][\w:.,=/@-]*(?:\[[^[\]]*\])+$/.test(text)) return text;
  return text.replace(/^[<[{]+|[>\]}]+$/g, '');
}

interface ValueInfo {
  valueName: string | null;
  optional: boolean;
  choices: string[] | null;
  repeatable: boolean;
}

/** Interprets a value placeholder: `NUM`, `<name>`, `[seconds]`, `{a,b}`, `[a|b]`, `<x...>`, `FILE...`. */
/**
 * Miller `{comma-separated field names}`: two to eight words in braces, no `,` or `|` between them,
 * describe one value in words (a set of values is `{a,b}` or `{a|b}`, one value `{tmpfs+symlink}`).
 */
const BRACED_WORDS = /^\{[A-Za-z][\w-]{0,30}(?: [A-Za-z][\w-]{0,30}){1,7}\}$/;

function readValue(raw: string): ValueInfo {
  let text = raw;
  let repeatable = false;
  // pyinotify `EVENT[,...]`: one value, a comma-joined list of EVENTs
  const commaList = /^([A-Z][A-Z0-9_]*)\[,\.{3}\]$/.exec(text);
  if (commaList !== null) return { valueName: commaList[1] ?? text, optional: false, choices: null, repeatable: false };
  // go-flags `-t=<timestamp format>[a|ad|d]`: the value name, then the choices it writes glued on in brackets
  const namedChoices = /^<([^<>]{1,60})>\[([^\][|\s]{1,40}(?:\|[^\][|\s]{1,40}){1,60})\]$/.exec(text);
  if (namedChoices !== null) return { valueName: namedChoices[1] ?? null, optional: false, choices: (namedChoices[2] ?? '').split('|'), repeatable: false };
  if (/\.{2,3}$/.test(text)) {
    repeatable = true;
    text = text.replace(/\.{2,3}$/, '');
  }
  if (/\.{2,3}[>\]]$/.test(text)) {
    repeatable = true;
    text = text.replace(/\.{2,3}([>\]])$/, '$1');
  }
  // GNU `[-]NUM`: a sign prefix, not an optional value.
  text = text.replace(/^\[[-+]\]/, '');
  if (/^\(.*\|.*\)$/.test(text)) {
    // git: `--track[=(direct|inherit)]`
    return { valueName: null, optional: false, choices: text.slice(1, -1).split('|').map((choice) => choice.trim()).filter(Boolean), repeatable };
  }
  if (text.startsWith('{') && text.endsWith('}')) {
    // unicorn `-l {HOST:PORT|PATH}`: placeholders in capitals naming kinds of value, as click's `[PATH|URI]` below
    if (text.includes('|') && namesPlaceholderKinds(text.slice(1, -1).split('|'))) return { valueName: text.slice(1, -1), optional: false, choices: null, repeatable };
    // mlr `{comma-separated field names}`: one phrase of words in braces, no separator, describes the value
    // (pnpm `{<dir>}`: a placeholder in angle brackets, braced, is one too)
    if (/^\{[^,|{}\s]*\s[^,|{}]*\}$/.test(text) || /^\{<[^,|{}<>]+>\}$/.test(text)) return { valueName: text.slice(1, -1), optional: false, choices: null, repeatable };
    const choices = text.slice(1, -1).split(/[,|]/).map((choice) => choice.trim()).filter((choice) => choice.length > 0);
    return { valueName: null, optional: false, choices, repeatable };
  }
  if (text.startsWith('[') && text.endsWith(']')) {
    const inner = text.slice(1, -1);
    if (inner.startsWith('=')) {
      // GNU `--follow[={name|descriptor}]`, git `--track[=(direct|inherit)]`: an optional value
      const nested = readValue(inner.slice(1));
      return { ...nested, optional: true, repeatable: repeatable || nested.repeatable };
    }
    if (inner.includes('|')) {
      // click `--schemafile [PATH|URI]`: placeholders in capitals naming kinds of value are one placeholder
      if (namesPlaceholderKinds(inner.split('|'))) return { valueName: inner, optional: false, choices: null, repeatable };
      // click `--sort [a|b]`, getopts `--emit [files|stdout]`: the choices of a value
      return { valueName: null, optional: false, choices: inner.split('|').map((choice) => choice.trim()).filter(Boolean), repeatable };
    }
    const nested = readValue(inner.replace(/^=/, ''));
    return { ...nested, optional: true, repeatable: repeatable || nested.repeatable };
  }
  if (text.startsWith('<') && text.endsWith('>')) {
    const inner = text.slice(1, -1);
    if (/\.{2,3}$/.test(inner)) return { valueName: inner.replace(/\.{2,3}$/, ''), optional: false, choices: null, repeatable: true };
    // rustc: `--edition <2015|2018|2021>`; not `<KEY=VALUE|PATH>` (alternative placeholders)
    const alternatives = inner.split('|');
    // …but commander `<path|glob>` (every one a kind of value) is a placeholder
    // …and so is cspell `<module|path>`, markdownlint `<file|directory|glob|package>`: half or more name where a value comes from
    // (citty `<Fragment|React.Fragment>`: values in mixed case too; an all-capitals item is a placeholder)
    const literal = (choice: string): boolean => /^[a-z0-9][\w.-]*$/.test(choice) || (/^[A-Z][\w.-]*$/.test(choice) && /[a-z]/.test(choice));
    if (alternatives.length >= 2 && alternatives.every(literal) && !alternatives.map((choice) => choice.toLowerCase()).every(isKindOfValue) && !namesValueSources(alternatives)) {
      return { valueName: null, optional: false, choices: alternatives, repeatable };
    }
    return { valueName: inner, optional: false, choices: null, repeatable };
  }
  // busybox `-Y on/off`
  if (/^[a-z0-9]{1,10}(\/[a-z0-9]{1,10})+$/.test(text)) return { valueName: null, optional: false, choices: text.split('/'), repeatable };
  // unified-args `--ignore-path-resolve-from cwd|dir`: literal values joined by bare pipes, no brackets
  // (unless every one names a kind of value, `path|glob`)
  if (BARE_PIPE_VALUES.test(text)) {
    const alternatives = text.split('|');
    return alternatives.every(isKindOfValue) ? { valueName: text, optional: false, choices: null, repeatable } : { valueName: null, optional: false, choices: alternatives, repeatable };
  }
  return { valueName: stripBrackets(text), optional: false, choices: null, repeatable };
}

/** A placeholder word naming a kind of value (`path`, `glob`, `date`, `n`), not one value: fd `<date|dur>`. */
function isKindOfValue(word: string): boolean {
  return typeFromValueName(word) !== null || /^(glob|regexp?|pattern|url|uri|name|id|expr|spec|json|value|str|date|time|dur|size|user|group|host|addr|email|key|val|ref|rev|hash|tag|branch|commit|version)$/.test(word);
}

/** Nouns for where a value comes from (a path, a glob, a URL), never a literal value of an option. */
const VALUE_SOURCE = /^(?:path|paths|file|files|dir|dirs|directory|directories|folder|glob|globs|url|uri|regex|regexp|pattern)$/;

/** Any alternative names a kind of value or where one comes from (`file or directory`, `name or id`): no literal values. */
export function namesAnyKindOfValue(alternatives: readonly string[]): boolean {
  return alternatives.some((choice) => VALUE_SOURCE.test(choice.toLowerCase()) || isKindOfValue(choice.toLowerCase()));
}

/** Half or more of the alternatives are value-source nouns: the group lists kinds of value, not values. */
function namesValueSources(alternatives: readonly string[]): boolean {
  return alternatives.filter((choice) => VALUE_SOURCE.test(choice)).length * 2 >= alternatives.length;
}

/**
 * click `[PATH|URI]`: every alternative a placeholder in capitals, and they name where a value comes
 * from (`PATH`, `URI`) or kinds of value; `[DEBUG|INFO]` (capital values) names neither.
 */
export function namesPlaceholderKinds(alternatives: readonly string[]): boolean {
  const words = alternatives.map((choice) => choice.trim());
  // (unicorn `{HOST:PORT|PATH}`: a shape of capitals joined by `:` counts by its parts)
  if (words.length < 2 || !words.every((word) => /^[A-Z][A-Z0-9_]*(?::[A-Z][A-Z0-9_]*){0,3}$/.test(word))) return false;
  const lower = words.flatMap((word) => word.toLowerCase().split(':'));
  return namesValueSources(lower) || lower.every(isKindOfValue);
}

/** Lower-case words joined by bare pipes, no brackets around them: `cwd|dir`. */
const BARE_PIPE_VALUES = /^[a-z0-9][\w.-]{0,20}(?:\|[a-z0-9][\w.-]{0,20}){1,10}$/;

/** iperf `--time #`, `--bitrate #[KMG][/#]`: `#` stands for a number, maybe with bracketed suffixes. */
const NUMBER_SIGN_PLACEHOLDER = /^#(?:\[[^\]\s]{1,10}\]){0,3}$/;

function isValueToken(token: string, remaining: number, splitByGap: boolean): boolean {
  if (/^[<[{]/.test(token)) return true;
  // optparse mid3v2 `-a "ARTIST", --artist="ARTIST"`, `-c "DESCRIPTION":"COMMENT":"LANGUAGE"`: a
  // metavar written in double quotes (parts joined by `:`), no spaces inside
  if (/^"[^"\s]{1,40}"(?::"[^"\s]{1,40}"){0,5}$/.test(token)) return true;
  // clipanion numbers its placeholders: `--mode #0`
  if (/^#\d{1,2}$/.test(token)) return true;
  if (NUMBER_SIGN_PLACEHOLDER.test(token)) return true;
  // potrace `-C, --color #rrggbb`: a colour's hex digits spelled by letters (`#rgb`, `#RRGGBBAA`) stand for the value
  if (/^#(?:[rgb]{3}|[rgba]{4}|(?:rr|gg|bb|aa){3,4})$/i.test(token)) return true;
  // babeltrace `-n, --names name1<,name2,...>`: a lower-case name, then more of it after a comma in brackets, is a list placeholder
  if (/^[a-z][\w-]{0,20}[<[],[^\s<>[\]]{0,40}\.{3}[>\]]$/.test(token)) return true;
  // shellcheck `-i CODE1,CODE2..`: items joined by commas, closed by an ellipsis (continuesListPlaceholder)
  if (/^(?:[A-Za-z][\w-]{0,20},){1,4}(?:[A-Za-z][\w-]{0,20})?\.{2,3}$/.test(token)) return true;
  // iperf `-A, --affinity n/n,m`: one-letter placeholders joined by `/` and `,`
  if (/^[a-z](?:\/[a-z])+(?:,[a-z](?:\/[a-z])*)+$/.test(token)) return true;
  // …with a part the user may leave out marked `?` (click metavar `PATH:ENTRYPOINT?`)
  if (/^[A-Z][A-Z0-9_:.-]*\??$/.test(token)) return true;
  // libjpeg `-crop WxH+X+Y`, `-drop +X+Y filename`: an X11 geometry, capitals joined by `x`, `+` or `-`
  if (/^[+-]?[A-Z](?:(?:x|[+-])[A-Z]){1,5}$/.test(token)) return true;
  // busybox `-I IFACE/IP`: alternative upper-case placeholders joined by a slash
  if (/^[A-Z][A-Z0-9_]*(?:\/[A-Z][A-Z0-9_]*){1,5}$/.test(token)) return true;
  // busybox `-u USER[:GRP]`; argparse metavars naming a shape, the key in capitals: pygmentize
  // `-F FILTER[:options]`, `-P OPTION=value`, `-O OPTION=value[,OPTION=value,...]`
  if (/^[A-Z][A-Z0-9_]*\[[:.,=/@-]?[A-Z][A-Z0-9_]*\]$/.test(token)) return true;
  // pyinotify `-e EVENT[,...]`: a comma then an ellipsis in brackets, more of the same
  if (/^[A-Z][A-Z0-9_]*\[,\.{3}\]$/.test(token)) return true;
  // (whois `-i ATTR[,ATTR]...`: a list of them; genhtml `--rc SETTING=VALUE`, docopt `--scale SERVICE=NUM`: the value in capitals too)
  if (/^[A-Z][A-Z0-9_]*(?:=[a-z][\w-]{0,20}|=[A-Z][A-Z0-9_]{0,20})?(?:\[[:.,=/@-][A-Za-z][^\]\s]{0,40}\])?(?:\.{3})?$/.test(token)) return true;
  if (splitByGap && remaining <= 1 && (/^[a-z0-9]{1,10}(\/[a-z0-9]{1,10})+$/.test(token) || BARE_PIPE_VALUES.test(token))) return true;
  // optionator: `path::String`, `String`, `Int`, `Object`
  if (/^[a-z]*::[A-Z]\w*$/.test(token) || OPTIONATOR_TYPES.has(token)) return true;
  if (LOWERCASE_TYPE_WORDS.has(token)) return true;
  // pflag prints a custom value's Go type: `--dir-perms FileMode`, `--vfs-cache-mode CacheMode`, `--env stringArray`
  if (splitByGap && remaining <= 1 && /^[A-Za-z][a-z0-9]+(?:[A-Z][a-z0-9]+)+$/.test(token)) return true;
  // klog's pflag `-v, --v Level   number for the log level verbosity`: a custom type named by one
  // capitalized word, ending the head before the column gap
  if (splitByGap && remaining <= 1 && /^[A-Z][a-z]{2,20}$/.test(token)) return true;
  // pigz `-S, --suffix .sss   Use suffix .sss instead of .gz`: a file suffix stands for the value
  if (splitByGap && remaining <= 1 && /^\.[a-z]{1,8}$/.test(token)) return true;
  // tree `-H baseHREF   Prints out HTML…`: a lower-case word running into capitals names the value too
  if (splitByGap && remaining <= 1 && /^[a-z][a-z0-9]{1,20}[A-Z]{2,10}[a-z0-9]{0,10}$/.test(token)) return true;
  // BSD nc `-x addr[:port]`: a lower-case name with an optional part in brackets
  // (oras `os[/arch][/variant][:os_version]`, `host:port:address[:address_port]`: parts joined by
  // separators, several optional ones)
  if (splitByGap && remaining <= 1 && /^[a-z][\w-]{0,20}(?:[:.,=/@][a-z][\w-]{0,20}){0,4}(?:\[[:.,=/@-][a-z][\w-]{0,20}\]){1,4}$/.test(token)) return true;
  // pflag `-o, --option key=value`: a `key=value` pair names the value's shape
  if (splitByGap && remaining <= 1 && /^[a-z][\w-]{0,20}=[a-z][\w-]{0,20}$/.test(token)) return true;
  // ruby `-e 'command'    one line of script`: a quoted lower-case word ending the head names the value
  if (splitByGap && remaining <= 1 && /^'[a-z][\w-]{0,30}'$/.test(token)) return true;
  // Pod::Usage `--archive out.tgz`: an example file name stands for the value
  if (splitByGap && remaining <= 1 && /^[a-z][\w-]{0,30}\.[a-z][a-z0-9]{0,4}$/.test(token)) return true;
  // xsltproc `--path 'paths': provide …`: a quoted lower-case word ending the head names the value
  if (splitByGap && remaining <= 1 && /^'[a-z][\w-]{0,30}'$/.test(token)) return true;
  // jq-style `--arg name value`: lowercase placeholders only when the whole head is short and set off by a gap.
  return splitByGap && remaining <= 2 && /^[a-z][a-z0-9_-]{0,20}$/.test(token);
}

/**
 * A value named only as the description's first word, in a column of its own:
 * `-t          TIMEOUT  wait TIMEOUT seconds` (the name recurs, or is a type word like FILE).
 */
/** `<integer> Port where …`, `<a | b | c> Level of …`: a placeholder, one space, then a capitalized sentence. */
export const OPENING_PLACEHOLDER = /^<([\w-]{1,30}(?:\s?\|\s?[\w.-]{1,30}){0,30})>\s(?=[A-Z][a-z])(\S[\s\S]*)$/;

/**
 * rdfind `-checksum   md5 |(sha1)| sha256   checksum type`, `-ignoreempty  (true)| false  ignore …`: a
 * column of the values joined by `|`, the default the one item in parentheses (a common mark: rdfind
 * says `default choice within parentheses`), before the description. Each item is bounded and each
 * repeat consumes a `|`: linear.
 */
const MARKED_DEFAULT_BAR_COLUMN = /^((?:\(?[a-z0-9][\w.-]{0,20}\)? ?\| ?){1,10}\(?[a-z0-9][\w.-]{0,20}\)?)(?:\s+(\S[\s\S]*))?$/;

/** The values and the parenthesized default of a MARKED_DEFAULT_BAR_COLUMN, or null (not exactly one item marked). */
function markedDefaultBarColumn(rest: string): { values: string[]; marked: string; description: string } | null {
  const match = MARKED_DEFAULT_BAR_COLUMN.exec(rest);
  if (match === null) return null;
  const items = (match[1] ?? '').split('|').map((item) => item.trim());
  const marked = items.filter((item) => /^\(.+\)$/.test(item));
  if (marked.length !== 1 || items.some((item) => /^\(|\)$/.test(item) && !/^\(.+\)$/.test(item))) return null;
  const values = items.map((item) => item.replace(/^\((.+)\)$/, '$1'));
  return { values, marked: (marked[0] ?? '').slice(1, -1), description: match[2] ?? '' };
}

function valueFromDescriptionStart(result: OptionHead): void {
  const barColumn = markedDefaultBarColumn(result.rest);
  if (barColumn !== null) {
    result.choices = barColumn.values;
    // the mark states the default: said in words the description readers take
    result.rest = `${barColumn.description} (default: ${barColumn.marked})`.trim();
    return;
  }
  // typer's type column may name a container of a type: `<list[Path]>`; with no description the
  // type cell ends the line (`--cli-plugin   <str>`): a type word then
  // (jaq `--arg       <A> <V>   Set variable …`: several `<…>` placeholders, one use takes that many values)
  const match =
    /^(<[\w-]{1,30}(?:\[[\w-]{1,30}\])?>|[A-Z][A-Z0-9_]{1,20}|#(?:\[[^\]\s]{1,10}\]){0,3})((?: <[\w-]{1,30}>){0,2})\s{2,}(\S[\s\S]*)$/.exec(result.rest) ??
    /^(<[\w-]{1,30}(?:\[[\w-]{1,30}\])?>)()()$/.exec(result.rest);
  // …or an enum's values: `<none|poetry|setup>` (click's metavar in brackets in typer's type column:
  // `--organize-by  -b  [notebook|extension]  Whether to …`)
  const choices = /^<([a-z0-9][\w.-]{0,30}(?:\|[a-z0-9][\w.-]{0,30}){1,30})>\s{2,}(\S[\s\S]*)$/.exec(result.rest) ?? /^\[([a-z0-9][\w.-]{0,30}(?:\|[a-z0-9][\w.-]{0,30}){1,30})\]\s{2,}(\S[\s\S]*)$/.exec(result.rest);
  if (choices && result.valueName === null && result.choices === null && !(choices[1] ?? '').split('|').every(isKindOfValue)) {
    result.choices = (choices[1] ?? '').split('|');
    result.rest = choices[2] ?? '';
    return;
  }
  // Miller `-r  {comma-separated field names}  Lexical descending`: braced words opening the
  // description, a column gap after them, are the value's placeholder (round 18)
  const braced = /^(\{[^{}]{1,260}\})\s{2,}(\S[\s\S]*)$/.exec(result.rest);
  if (braced && BRACED_WORDS.test(braced[1] ?? '') && result.valueName === null && result.choices === null) {
    result.valueName = (braced[1] ?? '').slice(1, -1);
    result.rest = braced[2] ?? '';
    return;
  }
  // yargs karma `--log-level   <disable | error | warn | info | debug> Level of logging.`, `--port
  // <integer> Port where …`: the author's placeholder opening the description, one space before its
  // capitalized sentence (a bar list is the values; a single name recurs or is a type word, as below)
  const opening = OPENING_PLACEHOLDER.exec(result.rest);
  if (opening && result.valueName === null && result.choices === null) {
    const inner = opening[1] ?? '';
    const sentence = opening[2] ?? '';
    const values = inner.split(/\s?\|\s?/);
    if (values.length > 1 && values.every((value) => /^[a-z0-9][\w.-]{0,30}$/.test(value)) && !values.every(isKindOfValue)) {
      result.choices = values;
      result.rest = sentence;
      return;
    }
    if (values.length === 1 && (new RegExp(String.raw`\b${inner}\b`, 'i').test(sentence) || typeFromValueName(inner) !== null)) {
      result.valueName = `<${inner}>`;
      result.rest = sentence;
      return;
    }
  }
  // iperf `-f, --format   [kmgtKMGT] format to report: Kbits, Mbits, Gbits, Tbits`: a class of
  // letters, each the initial of a value the description lists, is the one-letter values
  const letters = /^\[([A-Za-z]{2,16})\]\s+(\S[\s\S]*)$/.exec(result.rest);
  if (letters && result.valueName === null && result.choices === null && lettersAreInitials(letters[1] ?? '', letters[2] ?? '')) {
    result.choices = [...(letters[1] ?? '')];
    result.rest = letters[2] ?? '';
    return;
  }
  // …or a list of an enum's values: `<list[BP001|BP002|BP003]>` (the option repeats)
  const listed = /^<list\[([A-Za-z0-9][\w.-]{0,30}(?:\|[A-Za-z0-9][\w.-]{0,30}){1,60})\]>\s{2,}(\S[\s\S]*)$/.exec(result.rest);
  if (listed && result.valueName === null && result.choices === null) {
    result.choices = (listed[1] ?? '').split('|');
    result.repeatable = true;
    result.rest = listed[2] ?? '';
    return;
  }
  if (!match) {
    columnValueWord(result);
    return;
  }
  const word = match[1] ?? '';
  const more = (match[2] ?? '').trim();
  const description = match[3] ?? '';
  const bare = word.replace(/[<>]/g, '');
  if (more.length > 0 && !word.startsWith('<')) return;
  if (!(/^[\w-]+$/.test(bare) && new RegExp(`\\b${bare}\\b`).test(description)) && typeFromValueName(bare) === null && !NUMBER_SIGN_PLACEHOLDER.test(bare)) return;
  result.valueName = word;
  if (more.length > 0) result.valueCount = 1 + more.split(' ').length;
  result.rest = description;
}

/**
 * rdfind's value column holds lower-case words and unit-suffixed letters too: `-outputname  name  sets
 * the results file name to "name"`, `-sleep  Xms  sleep for X milliseconds`. A word set off by gaps on
 * both sides is the value when the description names it as one: quoted or in angle brackets (`"name"`),
 * or, for a capital glued to a unit (`Xms`, `Ns`), the capital alone (`X milliseconds`).
 */
const COLUMN_VALUE_WORD = /^([a-z][a-z0-9_-]{0,20}|([A-Z])[a-z]{1,3})\s{2,}(\S[\s\S]*)$/;

function columnValueWord(result: OptionHead): void {
  const match = COLUMN_VALUE_WORD.exec(result.rest);
  if (match === null || result.valueName !== null || result.choices !== null) return;
  const word = match[1] ?? '';
  const letter = match[2];
  const description = match[3] ?? '';
  const named = letter !== undefined ? new RegExp(String.raw`(?:^|\s)${letter}\s+[a-z]`).test(description) : new RegExp(String.raw`(["'<])${word}["'>]`).test(description);
  if (!named) return;
  result.valueName = word;
  result.rest = description;
}

/** Whether every letter of `[kmgtKMGT]` (case aside, no repeats) starts a word of a list in the description (`Kbits, Mbits`). */
function lettersAreInitials(letters: string, description: string): boolean {
  const lower = letters.toLowerCase();
  if (new Set(letters).size !== letters.length) return false;
  const initials = new Set([...description.matchAll(/(?:^|[:,]\s*|\s)([A-Za-z])[A-Za-z]*(?=,|\s*$|\s+or\s|\.)/g)].map((match) => (match[1] ?? '').toLowerCase()));
  return [...lower].every((letter) => initials.has(letter));
}

/** Splits a line (already stripped of leading space and starting with `-`) into head and rest. */
export function splitHead(line: string): { head: string; rest: string; byGap: boolean } {
  // click prints every choice in the head (`--enable-unstable-feature [a|b|…]`, hundreds of
  // characters): one word running on past the cap is kept whole, to the line's own limit
  const wordEnd = /^\S*/.exec(line.slice(MAX_HEAD_CHARS))?.[0].length ?? 0;
  const kept = MAX_HEAD_CHARS + wordEnd;
  const limited = line.length > kept ? line.slice(0, kept) : line;
  const gap = /\s{2,}|\t/.exec(limited);
  if (gap) return { head: limited.slice(0, gap.index), rest: line.slice(gap.index).trim(), byGap: true };
  return { head: limited, rest: line.length > kept ? line.slice(kept) : '', byGap: line.length <= kept };
}

/**
 * typer's short column may hold several letters: `--extend-exclude   -ee   <str>   Like …`. After a
 * lone long spelling, a short spelling of two or three letters set off by gaps, followed by the type
 * column (`<str>`, `TEXT`), joins the head.
 */
function richShortColumn(head: string, rest: string): RegExpExecArray | null {
  if (!/^--[A-Za-z0-9][\w-]*$/.test(head)) return null;
  return /^(-[A-Za-z][A-Za-z0-9]{1,2})\s{2,}(?=<[^<>\s]{1,40}>(?:\s{2,}|$)|[A-Z][A-Z_]{1,20}(?:\s{2,}|$))/.exec(rest);
}

/**
 * The long spelling of a two-column table (`-p NUM  --strip=NUM`, gawk `-d[file]  --dump-variables[=file]`)
 * when it repeats the short spelling's placeholder word for word: the same option, not a description.
 */
function longColumnRepeatingValue(head: string, rest: string): RegExpExecArray | null {
  // rlwrap's placeholders may hold spaces: `-f <completion list>  --file=<completion list>`, `-a[password prompt]`
  const spaced = /^-[A-Za-z0-9] ([A-Za-z'<][^\s]{0,40}|<[^<>]{1,40}>)$/.exec(head)?.[1];
  const glued = /^-[A-Za-z0-9]\[([^\]]{1,40})\]$/.exec(head)?.[1];
  const value = spaced ?? glued;
  if (value === undefined) return null;
  const escapedValue = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const attached = spaced !== undefined ? `[= ]${escapedValue}` : `\\[=${escapedValue}\\]`;
  // rlwrap `--histsize=<N> (negative: readonly)`: a remark in parentheses may follow after one space
  return new RegExp(String.raw`^(--[A-Za-z0-9][\w-]*${attached})(?:\s{2,}|$|\s(?=\())`).exec(rest);
}

/**
 * rlwrap's table sets the short spelling's placeholder in a column of its own: `-b  <chars>
 * --break-chars=<chars>`. When the long column after it repeats that placeholder, the placeholder
 * joins the short spelling (`-b <chars>`) so the long column reads as the same option.
 */
function valueColumnBeforeLongColumn(head: string, rest: string): { head: string; rest: string } | null {
  if (!/^-[A-Za-z0-9]$/.test(head)) return null;
  const value = /^(<[^<>]{1,40}>|[A-Z][A-Z0-9_]{0,20})\s{2,}(?=--)/.exec(rest);
  if (value === null) return null;
  const joined = `${head} ${value[1] ?? ''}`;
  const remaining = rest.slice(value[0].length);
  return longColumnRepeatingValue(joined, remaining) === null ? null : { head: joined, rest: remaining };
}

/**
 * axel's table the other way round: `--max-speed=x<TAB>-s x<TAB>Specify…`, `--search[=n]<TAB>-S[n]`:
 * a short spelling column repeating the long spelling's placeholder word for word is the same option.
 */
function shortColumnRepeatingValue(head: string, rest: string): RegExpExecArray | null {
  const match = /^--[A-Za-z0-9][\w-]*(?:=([^\s=[\]]{1,40})|\[=([^\]\s]{1,40})\])$/.exec(head);
  const value = match?.[1] ?? match?.[2];
  if (value === undefined) return null;
  const escapedValue = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const attached = match?.[1] !== undefined ? ` ${escapedValue}` : `\\[${escapedValue}\\]`;
  return new RegExp(String.raw`^(-[A-Za-z0-9]${attached})(?:\s{2,}|\t|$)`).exec(rest);
}

/**
 * rich (typer, rich-click) prints one column per spelling: `--reload     --no-reload    Enable…`,
 * `--verbose  -v  INTEGER  …`. A negation or a one-letter short spelling set off by a gap after the
 * head joins the head.
 */
function absorbSpellingColumns(split: { head: string; rest: string; byGap: boolean }): { head: string; rest: string; byGap: boolean } {
  let { head, rest } = split;
  ({ head, rest } = valueColumnBeforeLongColumn(head, rest) ?? { head, rest });
  for (let guard = 0; guard < 3; guard += 1) {
    // Pod::Usage (perl prove) aligns the long spellings in a column too: `-v,  --verbose   Print…`, `-D   --dry   Dry run.`
    // …and a column overflowing by its value leaves one space before the description: `-a,  --archive out.tgz Store…`
    // (jpeginfo `-f<filename>,  --file<filename>`: a short spelling with its placeholder glued on, a comma
    // saying another spelling follows, and the long one with the same placeholder glued on)
    const afterShort = /^-[A-Za-z0-9?],?$|^-[A-Za-z0-9]<[^<>\s]{1,40}>,$/.test(head) ? /^(--[A-Za-z0-9][\w-]*(?:[= ][A-Za-z<[][^\s]*|<[^<>\s]{1,40}>)?)(?:\s{2,}|$|\s(?=[A-Z][a-z]))/.exec(rest) : null;
    // GNU patch: `-p NUM  --strip=NUM  Strip…`, `-F LINES  --fuzz LINES  Set…`: the long column repeats the short one's placeholder
    // (gawk's table in any case and with quotes: `-f progfile  --file=progfile`, `-e 'program-text'  --source='program-text'`,
    // and an optional one glued on: `-d[file]  --dump-variables[=file]`)
    const afterShortValue = longColumnRepeatingValue(head, rest) ?? shortColumnRepeatingValue(head, rest);
    const column = afterShort ?? afterShortValue ?? /^(--no-[A-Za-z0-9][\w-]*|-[A-Za-z0-9])(?:\s{2,}|$)/.exec(rest) ?? richShortColumn(head, rest);
    if (column === null) break;
    head = `${head.replace(/,$/, '')} ${column[1] ?? ''}`;
    rest = rest.slice(column[0].length);
  }
  return { head, rest, byGap: split.byGap };
}

/**
 * urfave/cli takes the placeholder from the first backquoted word of an option's usage and prints
 * the usage without the backquotes: `--packageName --output  … (check --output option)`. A second
 * spelling set off by one space (no comma), ending the head, that the description repeats word
 * for word, is that placeholder.
 */
function isBackquotedPlaceholder(head: string, tokens: readonly string[], starts: readonly number[], index: number, rest: string): boolean {
  const token = tokens[index] ?? '';
  const previousEnd = (starts[index - 1] ?? 0) + (tokens[index - 1] ?? '').length;
  if (index !== tokens.length - 1 || index === 0 || head.slice(previousEnd, starts[index]) !== ' ') return false;
  return new RegExp(String.raw`(^|[\s(])${token.replace(/[^\w-]/g, '')}(?=[\s).,]|$)`).test(rest) && /^--[\w-]+$/.test(token);
}

/** What a scan over the head's tokens has read so far; the passes below advance it token by token. */
interface HeadScan {
  readonly head: string;
  readonly tokens: readonly string[];
  readonly starts: readonly number[];
  readonly rest: string;
  readonly byGap: boolean;
  readonly result: OptionHead;
  index: number;
  afterSlash: boolean;
  lastWasFlag: boolean;
  lastWasBareValue: boolean;
  /** The first literal-value spelling (`--format=zstd`), kept in case the line has no other spelling. */
  literal: { dashes: '--' | '-'; name: string; value: string; token: string } | null;
  readonly seenLongs: Set<string>;
}

/** Whether the scan goes on to the next token or the head ends here. */
type HeadStep = 'next' | 'stop';

/** The first placeholder read names the value; later ones only add that the option repeats. */
function setValue(result: OptionHead, info: ValueInfo): void {
  if (result.valueName === null && result.choices === null) {
    result.valueName = info.valueName;
    result.valueOptional = info.optional;
    result.choices = info.choices;
  }
  if (info.repeatable) result.repeatable = true;
}

/**
 * dos2unix `-437   use DOS code page 437 (US)`: a head made of a dash and a number that its own
 * description repeats names that thing (a code page) and is a flag; a bare `-10` stays a number.
 */
function numberNamingFlag(scan: HeadScan, token: string): boolean {
  const digits = /^-(\d{2,6})$/.exec(token)?.[1];
  return scan.index === 0 && scan.tokens.length === 1 && digits !== undefined && new RegExp(String.raw`(^|\D)${digits}(\D|$)`).test(scan.rest);
}

/**
 * ruby's hand-written switches glue a lower-case placeholder to the letter: `-Cdirectory  cd to
 * directory before executing your script`, `-Eex[:in]`. The word counts as a placeholder only when
 * the description repeats it as a word, or an optional part in brackets follows it (a single-dash
 * long option, `-verbose`, has neither), and it is the whole head (gcc `-Xlinker <arg>` is a name).
 */
function gluedLowerCaseName(token: string, description: string): RegExpExecArray | null {
  const match = /^-([A-Za-z])([a-z]{2,20})(\[[:.,=/@-][a-z]{1,20}\])?$/.exec(token);
  if (match === null) return null;
  return match[3] !== undefined || new RegExp(String.raw`(?:^|[^\w-])${match[2] ?? ''}\b`).test(description) ? match : null;
}

/** Reads one token of the head: a separator, a flag spelling or a value placeholder. */
function readHeadToken(scan: HeadScan): HeadStep {
  const { result } = scan;
  // hand-written `-h: print this help`, `-d, -u: decode`: a colon right after a flag ends the head
  const colonEnd = /^(--?[A-Za-z0-9?#@][\w.?#@-]*):$/.exec(scan.tokens[scan.index] ?? '');
  const token = colonEnd?.[1] ?? scan.tokens[scan.index] ?? '';
  // binutils strings `-a - --all`: a lone dash between two spellings is a spelling of its own (the
  // bare `-`, read as `-a`), which no tool schema can name: a separator
  // (jpeginfo `-, --stdin  Read input from standard input`: the bare `-` first, before the long spelling)
  const loneDash = token === '-' && (scan.lastWasFlag || scan.index === 0) && isFlagToken(scan.tokens[scan.index + 1] ?? '');
  if (token === '/' || token === '|' || loneDash) {
    scan.afterSlash = token === '/';
    scan.lastWasFlag = false;
    scan.lastWasBareValue = false;
    return 'next';
  }
  const glued = /^-([A-Za-z0-9])#$/.exec(token);
  if (glued && result.shorts.length === 0) {
    // zstd `-T#`: a short option whose number is glued on
    result.shorts.push(glued[1] ?? '');
    setValue(result, { valueName: '#', optional: false, choices: null, repeatable: false });
    scan.lastWasFlag = false;
    return 'next';
  }
  if (token === '-#' && result.shorts.length === 0 && result.longs.length === 0) {
    // brotli, zstd `-#  compression level (0-9)`: the number itself is the option (`-9`): `#` is its value
    result.shorts.push('#');
    setValue(result, { valueName: '#', optional: false, choices: null, repeatable: false });
    scan.lastWasFlag = false;
    return 'next';
  }
  // lzop `-oFILE   write output to 'FILE'`, `-S.suf  use suffix .suf`: one letter with its placeholder glued on
  // (ruby `-Cdirectory  cd to directory …`, `-rlibrary  require the library`: a lower-case word the
  // description repeats; `-Eex[:in]`: a word with an optional part in brackets)
  const gluedName = /^-([a-z0-9])([A-Z][A-Z_]{1,20})$/.exec(token) ?? /^-([A-Za-z0-9])(\.[a-z]{1,8})$/.exec(token) ?? (scan.tokens.length === 1 ? gluedLowerCaseName(token, scan.rest) : null);
  if (gluedName && scan.index === 0) {
    result.shorts.push(gluedName[1] ?? '');
    setValue(result, { valueName: gluedName[2] ?? '', optional: false, choices: null, repeatable: false });
    scan.lastWasFlag = false;
    return 'next';
  }
  if (isFlagToken(token) || numberNamingFlag(scan, token)) return readFlagToken(scan, token, colonEnd !== null);
  return readPlaceholderToken(scan, token);
}

/**
 * Splits a flag token into dashes, name, a `...` mark and an attached value (`=x`, `[=x]`, `<x>`).
 * esbuild `--define:K=V`, `--external:M`: a name, then `:` and an upper-case key, is a value-taking
 * option; cac's dot-nested options keep their `.*` (`--env.* <value>`: `--env.NODE_ENV production`).
 */
function matchFlagSpelling(token: string): (string | undefined)[] | null {
  const keyed = /^(--?)([A-Za-z][\w.-]*):([A-Z][\w.]*(?:=\S*)?)$/.exec(token);
  return keyed ? [token, keyed[1], keyed[2], undefined, `=${keyed[3] ?? ''}`] : /^(--?)((?:\[no-?\]|\(no-?\))?[A-Za-z0-9?#@][\w.?#@:-]*?(?:\.\*)?)(\.\.\.)?(=.*|\[=.*|<.*|\[.*)?$/.exec(token);
}

/**
 * A lowercase word after `=` that names no kind of value is a literal value spelling
 * (`--check=quiet`), not a placeholder — unless it is one letter, or it repeats the placeholder a short spelling already
 * named (sed `-e script, --expression=script`); `--statefile=file`, `--rc=rcfile` name a kind of value.
 * `value`, `val` are the generic placeholder (pborman/getopt prints `-m, --message=value` for every
 * value-taking option), never a literal value (round 18).
 */
function isLiteralValueSpelling(attached: string, valueText: string, valueName: string | null): boolean {
  // a single letter is a placeholder, as in hand-written C helps (axel `--output=f`, `--max-redirect=x`)
  return attached.startsWith('=') && /^[a-z][a-z0-9-]+$/.test(valueText) && valueText !== valueName && typeFromValueName(valueText) === null && !/(file|dir|path|name)$|^(opts?|args?|options|arguments|expr|pattern|regexp?|spec|values?|val)$/.test(valueText);
}

/** Reads a flag spelling with whatever is attached to it, and files it as long, short, alias or negation. */
function readFlagToken(scan: HeadScan, token: string, endsHead: boolean): HeadStep {
  const { result } = scan;
  const match = matchFlagSpelling(token);
  if (!match) return 'stop';
  const dashes = match[1] === '--' ? '--' : '-';
  let name = match[2] ?? '';
  const attached = match[4];
  if (match[3]) result.repeatable = true;
  // (lcov genhtml `--(no-)sort`: the optional prefix in parentheses)
  if (/^(?:\[no-?\]|\(no-?\))/.test(name)) {
    name = name.replace(/^(?:\[no-?\]|\(no-?\))/, '');
    result.negation = `--no-${name}`;
  }
  if (attached !== undefined && attached === `[${name}]` && name.length === 1) {
    // busybox `-v[v]`: the flag may be doubled (`-vv`), no value
    result.repeatable = true;
  } else if (attached !== undefined) {
    const valueText = attached.startsWith('=') ? attached.slice(1) : attached;
    // oclif v1 names the value after the flag: `-c, --config=config`, `--endpoint=endpoint` (a placeholder)
    if (isLiteralValueSpelling(attached, valueText, result.valueName) && valueText !== name) {
      result.aliases.push(token);
      scan.literal ??= { dashes, name, value: valueText, token };
      scan.lastWasFlag = false;
      return 'next';
    }
    setValue(result, readValue(valueText));
  }
  if (!fileFlagSpelling(scan, dashes, name, token)) return 'next';
  scan.afterSlash = false;
  scan.lastWasFlag = true;
  scan.lastWasBareValue = false;
  if (endsHead) {
    scan.index += 1;
    return 'stop';
  }
  return 'next';
}

/** A long name that turns something off: `no-x`, `disable-x`, `without-x`, `dont-x`. */
const NEGATING_NAME = /^(?:no|non|not|dont|disable|without|skip)(?:-|$)/;

/**
 * Files a spelling as the negation (after `/`, or `--no-x` after `--x`), the long name, the short
 * name or an alias. Returns false when the spelling turned out to be urfave/cli's backquoted
 * placeholder, which is a value, not a flag.
 */
function fileFlagSpelling(scan: HeadScan, dashes: '--' | '-', name: string, token: string): boolean {
  const { result } = scan;
  // jsonnet `-J / --jpath <dir>`: a short letter then a long name that negates nothing, set apart
  // by a spaced slash, are one option's two spellings (click's `--x / --no-x` pairs a positive with its negation)
  const spellingPair = scan.afterSlash && dashes === '--' && result.longs.length === 0 && result.shorts.length === 1 && !NEGATING_NAME.test(name);
  if (scan.afterSlash && result.longs.length + result.shorts.length > 0 && !spellingPair) {
    result.negation = `${dashes}${name}`;
  } else if (dashes === '--' || name.length > 1) {
    if (scan.seenLongs.has(name)) {
      // same long spelled twice (e.g. once with a literal value): skip
    } else if (result.longs.length === 0) {
      result.longs.push({ dashes, name });
    } else if (dashes === '--' && result.shorts.length === 0 && result.longs.length === 1 && result.longs[0]?.dashes === '-') {
      // argparse `-nv, --no-version`: a single-dash spelling of several letters before a double-dash
      // one is the short spelling, the double-dash one the long name
      result.shorts.push(result.longs[0].name);
      result.longs = [{ dashes, name }];
    } else if (name === `no-${result.longs[0]?.name ?? ''}` && result.negation === null) {
      // argparse BooleanOptionalAction / optionator: `--color, --no-color`
      result.negation = `${dashes}${name}`;
    } else if (isBackquotedPlaceholder(scan.head, scan.tokens, scan.starts, scan.index, scan.rest) && result.valueName === null && result.choices === null) {
      // urfave/cli: `--packageName --output   … (check --output option)`: the usage's backquoted `--output` is the placeholder
      setValue(result, { valueName: token, optional: false, choices: null, repeatable: false });
      scan.lastWasFlag = false;
      return false;
    } else {
      result.aliases.push(`${dashes}${name}`);
    }
    scan.seenLongs.add(name);
  } else if (result.shorts.length === 0) {
    result.shorts.push(name);
  } else {
    result.aliases.push(`-${name}`);
  }
  return true;
}

/**
 * True when a lower-case word after a spelling comes back after the next spelling of the same head
 * (argparse prints the metavar after each: `-j n, --jobs n`; Pod::Usage `-m width, --left-margin=width`;
 * gawk's two columns `-e 'program-text'  --source='program-text'`):
 * it is the value's name, not prose.
 */
function repeatsAfterNextSpelling(tokens: readonly string[], index: number, token: string): boolean {
  const word = token.replace(/,$/, '');
  // sphinx-build `--define setting=value, -D setting=value`: a `key=value` pair too; gawk quotes
  // one with hyphens: `-e 'program-text'  --source='program-text'`
  if (!/^(['"]?)[a-z][a-z0-9_-]{0,20}(?:=[a-z][a-z0-9_]{0,20})?\1$/.test(word)) return false;
  const following = tokens.slice(index + 1);
  const nextFlag = following.findIndex(isFlagToken);
  if (nextFlag < 0 || !following.slice(0, nextFlag).every((between) => between.replace(/,$/, '') === word)) return false;
  // pod2text `-m width, --left-margin=width, --margin=width`: attached to the next spelling
  return following[nextFlag + 1]?.replace(/,$/, '') === word || following[nextFlag]?.replace(/,$/, '').endsWith(`=${word}`) === true;
}

/** pflag's `NoOptDefVal`: the type word, then the value the bare flag stands for, `string[="default"]`. */
const PFLAG_OPTIONAL_VALUE = /^([a-z][A-Za-z0-9]{0,20})\[=("[^"]*"|[^\]]*)\]$/;

/**
 * bup's option library (sshuttle, bup) prints `-r, --remote ...      hostname:/path` for every
 * option declared `remote=`: a spaced `...` ending a head right after a spelling stands for the
 * value (round 18). A repeated flag attaches its dots (`-v...`) or sits in a usage's brackets
 * (`[-v ...]`), and a `...` after a value (`FILE ...`) still marks the value repeated.
 */
function isDotsPlaceholder(scan: HeadScan): boolean {
  const { result } = scan;
  return scan.lastWasFlag && result.valueName === null && result.choices === null && scan.index === scan.tokens.length - 1;
}

/** Reads a token that is not a flag: a value placeholder, a `...`, a second value, or the description's start. */
function readPlaceholderToken(scan: HeadScan, token: string): HeadStep {
  const { result, tokens, index } = scan;
  const remaining = tokens.length - index;
  if (token === '...' && isDotsPlaceholder(scan)) {
    setValue(result, { valueName: token, optional: false, choices: null, repeatable: false });
    scan.lastWasFlag = false;
    return 'next';
  }
  if (token === '...' && (scan.lastWasFlag || scan.lastWasBareValue || result.valueName !== null)) {
    result.repeatable = true;
    return 'next';
  }
  if (scan.lastWasBareValue && result.valueName !== null && token === `[${result.valueName} ...]`) {
    // argparse `nargs='+'`: `-i PKG [PKG ...], --ignore-packages PKG [PKG ...]`: one or more values
    result.variadicValues = true;
    return 'next';
  }
  if (!scan.lastWasFlag && result.valueName !== null && /^(<[^>]*>|\[<[^>]*>( \.\.\.)?\])$/.test(token) && tokens.slice(index + 1).some(isFlagToken)) {
    // argparse `-e <zipfile> <output_dir>, --extract …`, `-c <name> [<file> ...]`: more values
    result.valueCount = Math.max(result.valueCount, 2);
    if (token.startsWith('[')) result.variadicValues = true;
    return 'next';
  }
  if ((scan.lastWasFlag || scan.lastWasBareValue) && repeatsAfterNextSpelling(tokens, index, token)) {
    // argparse lower-case metavars: `-j n, --jobs n`, `--line-range line line, --range line line`
    const word = token.replace(/,$/, '');
    if (scan.lastWasFlag) setValue(result, readValue(word));
    else result.valueCount = Math.max(result.valueCount, 2);
    scan.lastWasFlag = false;
    scan.lastWasBareValue = true;
    return 'next';
  }
  const optionalTyped = scan.lastWasFlag ? PFLAG_OPTIONAL_VALUE.exec(token) : null;
  if (optionalTyped !== null && LOWERCASE_TYPE_WORDS.has(optionalTyped[1] ?? '')) {
    // pflag `-t, --timestamps string[="default"]`: a value that may be left out (the bare flag means the quoted one)
    setValue(result, { valueName: optionalTyped[1] ?? null, optional: true, choices: null, repeatable: REPEATABLE_TYPE_WORDS.has(optionalTyped[1] ?? '') });
    scan.lastWasFlag = false;
    return 'next';
  }
  const alternative = tokens[index + 2];
  if (scan.lastWasFlag && tokens[index + 1] === '|' && alternative !== undefined && /^[^\s-]{1,3}$/.test(token) && !isFlagToken(alternative) && isValueToken(alternative, remaining - 2, scan.byGap)) {
    // argp iucode_tool `-s ! | [!]signature[,…]`: a literal or a placeholder, joined by `|`, is the value
    setValue(result, { valueName: `${token} | ${alternative}`, optional: false, choices: null, repeatable: false });
    scan.lastWasFlag = false;
    scan.index += 2;
    return 'next';
  }
  // pflag `--rerun-fails int[=2]`: the value's type, and the value used when the flag is given bare
  const optionalTypedBare = /^([a-z][A-Za-z0-9]{0,20})\[=[^\]\s]{1,30}\]$/.exec(token);
  if (scan.lastWasFlag && scan.byGap && remaining <= 1 && optionalTypedBare !== null) {
    setValue(result, { valueName: optionalTypedBare[1] ?? '', optional: true, choices: null, repeatable: false });
    scan.lastWasFlag = false;
    return 'next';
  }
  // (round 17: command-line-usage `--verbose.include string[]`: a type word marked `[]`, a list given by repeating the option)
  const listType = scan.lastWasFlag ? /^([a-z]{3,10})\[\]$/.exec(token)?.[1] : undefined;
  if (listType !== undefined && LOWERCASE_TYPE_WORDS.has(listType)) {
    setValue(result, { valueName: listType, optional: false, choices: null, repeatable: true });
    scan.lastWasFlag = false;
    return 'next';
  }
  const typedName = scan.lastWasFlag ? typedMetavar(token) : null;
  if (typedName !== null) {
    setValue(result, typedName);
    scan.lastWasFlag = false;
    return 'next';
  }
  if (scan.lastWasFlag && isValueToken(token, remaining, scan.byGap)) {
    setValue(result, readValue(token));
    scan.lastWasFlag = false;
    scan.lastWasBareValue = /^[A-Za-z]/.test(token);
    if (LOWERCASE_TYPE_WORDS.has(token) && REPEATABLE_TYPE_WORDS.has(token)) result.repeatable = true;
    return 'next';
  }
  if (scan.lastWasBareValue && /^[A-Z][A-Z0-9_]*$/.test(token) && result.valueName !== null) {
    // click's `INTEGER RANGE`, `FLOAT RANGE`
    result.valueName = `${result.valueName} ${token}`;
    return 'next';
  }
  if (scan.lastWasBareValue && scan.byGap && remaining <= 1 && /^[a-z][a-z0-9_-]{0,20}$/.test(token)) {
    // second jq-style placeholder (`--arg name value`): consumed, not described
    result.valueCount = 2;
    return 'next';
  }
  return 'stop';
}

/**
 * plumbum prints a value as its name and type joined by a colon: `VALUE:str`, `VARIABLE=VALUE:str`,
 * `PATH:ExistingFile`, a range as `VALUE:[0..65535]`, and a set of values as `SHELL:{bash, fish}` (the choices). A lower-case type
 * word (`int`, `float`) names the value for its type; any other type keeps the name.
 */
function typedMetavar(token: string): ValueInfo | null {
  const match = /^([A-Z][A-Z0-9_]*(?:=[A-Z][A-Z0-9_]*)?):(\{[^{}]{1,200}\}|[A-Za-z]\w{0,30}|\[-?\d{1,12}\.\.-?\d{1,12}\])$/.exec(token);
  if (match === null) return null;
  const name = match[1] ?? '';
  const type = match[2] ?? '';
  // round 18: plumbum's `cli.Range` prints its bounds, `VALUE:[0..65535]`: an integer in that range
  if (type.startsWith('[')) return { valueName: 'int', optional: false, choices: null, repeatable: false };
  if (type.startsWith('{')) return { ...readValue(type), valueName: null };
  return { valueName: LOWERCASE_TYPE_WORDS.has(type) && type !== 'str' ? type : name, optional: false, choices: null, repeatable: false };
}

/** The word used as a plain noun in the text: ending a phrase, or before a preposition or punctuation (`wait time for`, `format:`). */
function namesValueAsNoun(word: string, text: string): boolean {
  if (!/^[a-z][a-z-]{2,30}$/.test(word)) return false;
  return new RegExp(String.raw`(?:^|\s)${word}(?=[.,;:)]|\s*$|\s+(?:and|or|to|for|of|in|on|with|that|which|from)\b|\s+[^a-z\s])`, 'i').test(text);
}

/**
 * After the scan: a line with only a literal-value spelling becomes that option with one choice,
 * the unread part of the head goes back to the description, and a value named only by the
 * description's first word is taken. Null when the head named no option at all.
 */
function finishHead(scan: HeadScan): OptionHead | null {
  const { result, literal, tokens, head } = scan;
  // terraform `-list=false   Don't list files whose formatting differs`: a spelling given only a
  // boolean literal is a switch shown in the setting that turns it off (or on): no value of one
  // choice; `=false` is its negation
  if (result.longs.length === 0 && result.shorts.length === 0 && literal !== null && /^(?:true|false)$/.test(literal.value)) {
    result.longs.push({ dashes: literal.dashes, name: literal.name });
    result.aliases = result.aliases.filter((alias) => alias !== literal.token);
    if (literal.value === 'false') result.negation = literal.token;
  }
  if (result.longs.length === 0 && result.shorts.length === 0 && literal !== null) {
    // zstd `--format=zstd` on a line of its own: one choice of `--format` (lines are merged later)
    result.longs.push({ dashes: literal.dashes, name: literal.name });
    result.aliases = result.aliases.filter((alias) => alias !== literal.token);
    result.choices = [literal.value];
  }
  if (result.longs.length === 0 && result.shorts.length === 0) return null;
  if (scan.index < tokens.length) {
    const headRest = head.slice(scan.starts[scan.index] ?? head.length).trim();
    result.rest = `${headRest}${result.rest.length > 0 ? ` ${result.rest}` : ''}`;
  }
  if (result.longs.length === 0 && result.shorts.length === 1 && literal !== null && namesValueAsNoun(literal.value, result.rest)) {
    // argp dvbv5-scan `-W, --wait=time  adds additional wait time`, `-I, --input-format=format  Input
    // format: …`: the word after `=` that the description uses as a noun names the value (gnu ls
    // `-p, --indicator-style=slash` over `append / indicator to directories` stays a literal)
    result.longs.push({ dashes: literal.dashes, name: literal.name });
    result.aliases = result.aliases.filter((alias) => alias !== literal.token);
    setValue(result, { valueName: literal.value, optional: false, choices: null, repeatable: false });
  }
  // mosquitto `-A : bind the outgoing socket …`, `--will-topic : the topic …`: a colon set off by
  // spaces after the spellings ends the head, as a glued one does (`-h: print this help`)
  if (scan.lastWasFlag && /^:\s/.test(result.rest)) result.rest = result.rest.slice(1).trim();
  if (result.valueName === null && result.choices === null) valueFromDescriptionStart(result);
  return result;
}

/**
 * exa `--colo[u]r=WHEN`, `--colo[u]r-scale`: letters in brackets inside a long name spell two names;
 * the shorter is the option's, the longer an alias (`--color, --colour=WHEN`).
 */
function expandOptionalLetters(line: string): string {
  return line.replace(/^(--[a-z]+)\[([a-z]{1,3})\]([a-z][\w-]*)(\S*)(?=\s|$)/, (_whole, before: string, letters: string, after: string, value: string) => `${before}${after}, ${before}${letters}${after}${value}`);
}

/**
 * pwgen (getopt, hand-written) `-c or --capitalize`, `-r <chars> or --remove-chars=<chars>`: the word
 * `or` between a spelling (with its value) and the next spelling separates them like a comma.
 */
function orSeparatedSpellings(line: string): string {
  // (xsltproc `--output file or -o file:`: a bare lower-case placeholder too)
  return line.replace(/^(\s*-{1,2}[A-Za-z0-9?#@][\w?#@-]*(?:[ =](?:<[^<>\s]{1,40}>|[a-z][\w-]{0,20}))?) or (?=-{1,2}[A-Za-z0-9])/, '$1, ');
}

/**
 * xsltproc `--maxdepth val : increase the maximum depth`, `--param name value : pass …`, `--path
 * 'paths': provide …`, `--nonet : refuse …`: a colon after the spellings and at most two placeholder
 * words (lower case, capitals, quoted or bracketed), before any column gap, ends the head like a gap.
 */
function colonEndedHead(line: string): string {
  const value = String.raw`(?:[a-z][\w-]{0,20}|[A-Z][A-Z0-9_]{0,20}|'[^'\s]{1,30}'|"[^"\s]{1,30}"|<[^<>\s]{1,30}>)`;
  const spelling = String.raw`-{1,2}[A-Za-z0-9][\w-]*(?:[ =]${value}){0,2}`;
  return line.replace(new RegExp(String.raw`^(\s*${spelling}(?:, ${spelling}){0,3}) ?: (?=\S)`), '$1  ');
}

/**
 * Symfony Console (cleo) `-v|vv|vvv, --verbose`: the letter doubled and tripled after `|` says the
 * flag may be given several times, as `-v...` does.
 */
function stackedShortSpellings(line: string): string {
  // (socat `-d[ddd]  increase verbosity (use up to 4 times)`: the letter again in brackets, glued on)
  return line.replace(/^(\s*-([A-Za-z]))(?:\|\2{2,4}){1,3}(?=[,\s]|$)/, '$1...').replace(/^(\s*-([A-Za-z]))\[\2{1,4}\](?=[,\s]|$)/, '$1...');
}

/**
 * nodemon `-x, --exec app ........... execute script`, cwebp `-q <float> ...... quality factor`: a dot
 * leader after the head only leads the eye to the description; it sets the two apart as a gap does.
 */
function dotLeaderAsGap(line: string): string {
  // (spaces as wide as the leader: the description keeps its column)
  // (only right after the head: no gap before it; sort's `compare (unknown) < 'JAN' < ... < 'DEC'` is prose)
  return line.replace(/^(\s*-(?:\S| (?=\S)){1,80}?)( \.{3,})(?= \S)/, (_whole, head: string, leader: string) => `${head}${' '.repeat(leader.length)}`);
}

/**
 * typer's rich table cuts a long spelling column with an ellipsis: `--extension,--ext,--reload-…  <str>`.
 * The cut spelling is no name the program takes (its end is unknown); the whole ones stand.
 */
function withoutCutSpelling(line: string): string {
  return line.replace(/^(\s*-{1,2}[A-Za-z0-9][\w-]{0,40}(?:,-{1,2}[A-Za-z0-9][\w-]{0,40}){0,5}),-{1,2}[\w-]{0,40}…(?=\s|$)/, '$1');
}

/**
 * cleo 0.x (masonite-orm, old poetry) `-m (--migration)   Migration's name…`: the long spelling of the
 * short one in parentheses after it, read as `-m, --migration`.
 */
function parenthesizedLongSpelling(line: string): string {
  // (psql `-1 ("one"), --single-transaction`: the digit's name spelled out in quotes, a gloss, no value)
  return line.replace(/^(\s*-[A-Za-z0-9]) \((--[A-Za-z][\w-]{0,40})\)(?=\s|$)/, '$1, $2').replace(/^(\s*-[0-9]) \("[a-z]{3,6}"\)(?=, --?[A-Za-z])/, '$1');
}

export function parseOptionHead(line: string): OptionHead | null {
  const { head, rest, byGap } = absorbSpellingColumns(splitHead(expandOptionalLetters(colonEndedHead(orSeparatedSpellings(stackedShortSpellings(dotLeaderAsGap(parenthesizedLongSpelling(withoutCutSpelling(line)))))))));
  const { tokens, starts } = tokenize(head);
  const result: OptionHead = {
    longs: [],
    shorts: [],
    aliases: [],
    negation: null,
    valueName: null,
    valueOptional: false,
    choices: null,
    repeatable: false,
    valueCount: 0,
    variadicValues: false,
    rest,
  };
  const scan: HeadScan = {
    head, tokens, starts, rest, byGap, result,
    index: 0, afterSlash: false, lastWasFlag: false, lastWasBareValue: false, literal: null, seenLongs: new Set<string>(),
  };
  for (; scan.index < tokens.length; scan.index += 1) {
    if (readHeadToken(scan) === 'stop') break;
  }
  return finishHead(scan);
}
