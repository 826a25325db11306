/**
 * From a scanned option entry (head + description lines) to a `CliOption`: whether it takes a
 * value, its type, choices and default; then the pass that drops `--help`/`--version` and merges
 * the several lines one option can take (`-save-temps` and `-save-temps=<arg>`, zstd's
 * `--format=zstd` / `--format=gzip`, GNU `--time` and `--time=WORD`).
 */
import { extractDescriptionFacts, quotedPipeChoices, type DescriptionFacts } from './annotations.ts';
import { definitionListChoices, exampleListChoices, listedChoices, wholeListChoices } from './listed-choices.ts';
import type { Entry } from './help-scan.ts';
import { clampDescription, joinWrapped, MAX_OPTIONS } from './limits.ts';
import type { OptionHead } from './option-head.ts';
import { withUsageBareFlag } from './usage-bare-flags.ts';
import { setSources } from './reader/claims.ts';
import type { CliOption, CliValueType } from './spec.ts';
import { coerceDefault, isExplicitStringName, isNumberText, typeFromDefault, typeFromValueName } from './value-type.ts';
import { valueSeparatorOf } from './value-list.ts';
import { isOpenValueSet, namesFileContents, offersOpenAlternative } from './open-value-set.ts';
import { readValueDefinitionLine } from './value-definition-line.ts';
import { setValueListChoices } from './set-value-list.ts';
import { sentenceOpeningChoices } from './sentence-values.ts';
import { applyColonDefaultHead } from './dialects/goflag.ts';
import { statesBareFlagValue } from './preset-value.ts';

const NO_VALUE_WORDS = /^(none|null|unset|undefined|undef|n\/a)$/i;
/** codespell `Defaults to empty/disabled.`: nothing given, in words (`empty`, or it joined by a slash to another word). */
const EMPTY_WORDS = /^(?:empty(?:\/[a-z]+)?|[a-z]+\/empty)$/i;
/**
 * (round 18) `(default: auto-discovery)`, puma `Default: inferred`: words saying the program finds the
 * value itself when it runs (by discovery, inference, a guess); no value to pass.
 */
const FOUND_BY_PROGRAM_WORDS = /^(?:inferred|guessed|deduced|derived|discovered|auto-?discovery|auto-?discovered)$/i;
/**
 * (round 18) grub `[default=/usr/lib/grub/<platform>]`: a placeholder in angle brackets inside the value
 * makes it a template the program fills in, no value to pass (bounded: one name between the brackets).
 */
const ANGLE_PLACEHOLDER = /(?:^|[/._-])<[A-Za-z][\w-]{0,30}>/;
/** pflag's `(default true)` closing a bool flag's line: its own value, spelled without a colon. */
const PFLAG_TRUE = /\(default true\)$/;
/** pyftpdlib `--max-cons-per-ip MAX_CONS_PER_IP … (default: unlimited)`: no limit, in words; no value the option takes. */
const NO_LIMIT_WORDS = /^(?:unlimited|infinite|unbounded|no-limit)$/i;
/** `(default: stdin)` on a file option means standard input, not a file of that name. */
const STREAM_WORDS = /^(stdin|stdout|stderr)$/i;
/** Words that start a sentence, not a value: `defaults to the first tab`, `default: whatever is set`, `defaults to at most one`. */
/**
 * argparse sqlacodegen `--tables TABLES  tables to process (comma-delimited, default: all)`: a bare
 * `all` as the default of a comma-separated list says every item is taken, no word to pass (a
 * quoted `"all"`, Go's `(default "all")`, or `all` among the stated choices is the program's keyword).
 */
export function isEveryItemDefault(text: string, quoted: boolean, description: string, choices: readonly string[] | null): boolean {
  return (!quoted && /^all$/i.test(text) && /\bcomma[- ]?(?:delimited|separated)\b/i.test(description) && matchingChoice(text, choices) === undefined) || isListDefaultItem(text, description);
}

/**
 * click (deptry) `TUPLE … [default: dev-requirements.txt, requirements-dev.txt]`: a bracketed or
 * parenthesized default of several comma-separated items is a list (no single default, as the corpus
 * reads `[]`); its first item is no default of its own.
 */
function isListDefaultItem(text: string, description: string): boolean {
  if (text.length === 0 || text.length > 80) return false;
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const list = new RegExp(String.raw`[[(]default:?\s+["'\`]?${escaped}["'\`]?((?:,\s*[^\s,()[\]]{1,80}){1,20})\s*[\])]`, 'i').exec(description);
  if (list === null) return false;
  // (docopt `(default: 0, disabled)`: a number glossed by a word; the items of a list are of one kind)
  const number = /^[+-]?\d+(?:\.\d+)?$/;
  return (list[1] ?? '').split(',').slice(1).every((item) => number.test(item.trim()) === number.test(text));
}

/** `If set to an empty string, …`, `an empty STR means …`: the empty string is a value the option takes. */
const EMPTY_STRING_VALUE = /\b(?:set|sets|setting|pass|passing|given|give)\s+(?:it\s+)?(?:to\s+)?an empty (?:string|value)\b|\ban empty (?:string|value)\s+(?:means|disables|turns|selects|keeps)\b/i;

/**
 * subliminal `The (exclusive) categories are: hi (…), fo (…) and n (…). … If set to an empty string
 * (the default), no filtering …`: a list the prose gives that leaves out the empty string the help
 * says is taken would refuse it (a tagged `[choices: "", "text"]` lists it).
 */
function takesEmptyString(description: string, choices: readonly string[]): boolean {
  return !choices.includes('') && EMPTY_STRING_VALUE.test(description);
}

/** argparse's `(default: 0)` closing a flag's description: action='count' starts at 0 (store_true says `False`). */
function isCountFlagDefault(text: string): boolean {
  return /\(default: 0\)$/.test(text.trim());
}

/** A lone printf conversion (`%s`, `%d`, `%lu`): what a C help's `printf` should have replaced. */
const UNFILLED_CONVERSION = /^%(?:l{0,2}|z|h)[sdiuc]$/;
/** Names of options whose value is a format template (`--output-format`, `--printf`, `FMT`). */
const FORMAT_OPTION = /fmt|format|printf|template/i;
/** (pyinotify `(defaults to everything)`: a quantifier, every value at once, unless it is one of the choices) */
const PROSE_WORDS = /^(the|a|an|this|that|these|those|its|their|your|whatever|whichever|same|no|not|nothing|at|up|about|approximately|either|both|everything|anything)$/i;
/** An option whose value is a file (by type or name), where `stdin` / `stdout` name a stream. */
const FILE_OPTION = /file|path|input|output|^in$|^out$|dest|log/i;
/** A file suffix (`.css`) or a path (`./dist`, `~/.config/x`, `/etc/x.conf`). */
const FILE_LIKE_DEFAULT = /^(?:\.[a-z0-9]{1,8}|(?:\.{1,2}|~)?\/[\w.@/-]{1,200})$/i;
/** A path alone in a closed parenthesis, for an option taking a value and listing no choices. */
function wrappedPath(wrapped: RegExpExecArray, takes: boolean, choices: readonly string[] | null): string | null {
  const inner = (wrapped[1] ?? '').trim();
  return takes && choices === null && wrapped[0].endsWith(')') && FILE_LIKE_DEFAULT.test(inner) ? inner : null;
}
/** `(default: cwd)` on a directory option names the current directory, not a directory called `cwd`. */
const CURRENT_DIRECTORY_WORD = /^cwd$/i;
const DIRECTORY_OPTION = /dir|folder|path/i;
/** An option or value name for a network address or host: `--listen`, `<addr>`, `--bind`, `HOST`. */
const ADDRESS_OPTION = /^(?:addr|address|host|hostname|ip|listen|bind|interface|iface)$|(?:^|[-_.])(?:addr|address|host|ip)$/i;
/** An option or value name for a thing no fixed word stands for (`server_name`, `FILE`, `addr`): `auto` there says the program picks one. */
const OPEN_THING_OPTION = /(?:^|[-_.])(?:name|file|filename|path|dir|directory|host|hostname|addr|address|url|uri|id)$/i;
/** `(default: whitespace)` on a separator option names a class of characters, not the value's spelling. */
const CHARACTER_CLASS_WORD = /^(whitespace|white-space|space|spaces|blank|blanks|tab|tabs|newline|newlines)$/i;
const SEPARATOR_OPTION = /sep|delim/i;
/** A function call (`process.cwd()`, `os.cpus().length`): a default the program computes when it runs. */
const CALL_EXPRESSION = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\([^()]*\)(?:\.[\w$]+)*$/;
/**
 * argparse `(default: sys.executable)`: an attribute of the language runtime's own modules (Python
 * `sys` / `os`, Node's `process`), which the program reads when it runs; not a value to pass.
 */
const RUNTIME_REFERENCE = /^(?:sys|os|process)\.[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** The choice a default names, in the choice's spelling (`[Default: Physical]` → `physical`). */
function matchingChoice(text: string, choices: readonly string[] | null): string | undefined {
  return choices?.find((choice) => choice === text) ?? choices?.find((choice) => choice.toLowerCase() === text.toLowerCase());
}

/**
 * True when a stated "default" is prose, not a value the option could be given: `(default: all
 * interfaces)`, `(default STDOUT)`, `(default: !process.env.CI)`, `defaults to # of CPUs`,
 * `[Default: Random]` on a number, or `false` on an option whose value is not boolean.
 */
/** djlint `[default: {code} {line} {message} {match}]`: a format template of `{field}`s is one value, spaces and all. */
const FIELD_TEMPLATE = /^\{[\w.-]{1,30}\}(?:[^\w{}]{1,3}\{[\w.-]{1,30}\}){1,20}$/;
/** A value that is a command line: `--doctorTest <command>  (default: npm test)`. */
const COMMAND_VALUE = /^<?(command|cmd|script|shell|command[-_]line)>?$/i;
/** English function words: `npm install or the equivalent for your package manager` is prose. */
const FUNCTION_WORDS = /(^|\s)(the|a|an|or|and|of|for|to|in|on|with|by|if|when|no|not|your|its|their|is|are|be)(\s|$)/i;

/**
 * argparse bump2version `(default: Bump version: {current_version} → {new_version})`: a message
 * template with two or more `{field}`s the program fills in, no function words around them, is one value.
 */
function isFieldMessage(text: string): boolean {
  return (text.match(/\{[A-Za-z_][\w.]{0,30}\}/g) ?? []).length >= 2 && !FUNCTION_WORDS.test(text.replace(/\{[^{}]*\}/g, ' '));
}

function isCommandLine(text: string, names: readonly string[]): boolean {
  return names.some((name) => COMMAND_VALUE.test(name)) && text.split(/\s+/).length <= 6 && !FUNCTION_WORDS.test(text);
}

/** Capitalized words that describe rather than name: `Current Directory`, `Not Set`, `All Files`. */
const DESCRIBING_WORDS = /^(?:the|a|an|of|and|or|to|in|on|for|by|not|no|none|all|any|every|each|current|working|same|default|system|auto|automatic|unset|empty|set|disabled|enabled|directory|folder|file|files|path|value|see|use|uses|from|is|are|if|when|only|first|last|input|output|standard|stdin|stdout|stderr|home|user)$/i;

/**
 * resvg `--cursive-family FAMILY … [default: Comic Sans MS]`: a few capitalized words, none of them
 * describing (`Current Directory`, `Not Set`), name one thing: a font, a voice, a locale's name.
 */
function isProperName(text: string): boolean {
  const words = text.split(' ');
  return words.length >= 2 && words.length <= 4 && words.every((word) => /^[A-Z][A-Za-z0-9-]{0,20}$/.test(word) && !DESCRIBING_WORDS.test(word));
}

export function isProseDefault(text: string, quoted: boolean, takesValue: boolean, type: CliValueType, choices: readonly string[] | null, names: readonly string[] = []): boolean {
  // `[default: ""]` says nothing; `[default: []]`, `(Default: ['.svn', …])`: a list or object, no one value
  if (text.length === 0) return true;
  if (matchingChoice(text, choices) !== undefined) return false;
  if (choices !== null && choices.length > 0) return true;
  if (quoted) return false;
  // a list, an object, or alternatives in braces (busybox `(default {/etc,HOME}/httpd.conf)`);
  // not a regular expression's character class with its quantifier (docformatter `[!"#…~]{4,}`);
  // nor a file-name template whose `{}` the program fills in (docopt xsv `[default: {}.csv]`)
  const characterClass = /^\[.*\](?:[*+?]|\{\d+(?:,\d*)?\})$/.test(text);
  if (!characterClass && /^\[|^\{\s*(?:["']|\}$)|\{[^{}]*,[^{}]*\}/.test(text)) return true;
  // watchmedo `--shell SHELL_EXECUTABLE  … (default: system default)`: words ending in `default` name another's default
  // (a lone `default` is a value: a profile called `default`)
  if (/\s+defaults?$/i.test(text)) return true;
  if (/\s/.test(text) && !isCommandLine(text, names) && !FIELD_TEMPLATE.test(text) && !isFieldMessage(text) && !isProperName(text)) return true;
  // restic `(default: $RESTIC_KEY_HINT)`: the environment variable it is read from, not a value
  if (/^\$\{?[A-Za-z_]\w*\}?$/.test(text)) return true;
  // cobra `(default is $HOME/.cobra-example.yaml)`: a path the program expands when it runs (no shell expands an argument)
  if (/^\$\{?[A-Za-z_]\w*\}?\//.test(text)) return true;
  // hugo `(default is hugo.yaml|json|toml)`: alternatives, not one value
  if (/\|/.test(text) && !characterClass && !/^[\^(\/]|[$)\/]$/.test(text)) return true;
  // (radon `(default to A)`: a capital `A` standing alone, the whole value, is a letter grade, not an article:
  // a phrase going on from it was refused before)
  if (text.startsWith('!') || text.startsWith('#') || NO_VALUE_WORDS.test(text) || NO_LIMIT_WORDS.test(text) || EMPTY_WORDS.test(text) || (PROSE_WORDS.test(text) && text !== 'A')) return true;
  // flake8 `--stdin-display-name NAME (Default: stdin)` is the word itself
  if (STREAM_WORDS.test(text) && (type === 'path' || names.length === 0 || names.some((name) => FILE_OPTION.test(name)))) return true;
  if (CURRENT_DIRECTORY_WORD.test(text) && (type === 'path' || names.some((name) => DIRECTORY_OPTION.test(name)))) return true;
  if (CALL_EXPRESSION.test(text) || RUNTIME_REFERENCE.test(text)) return true;
  if (FOUND_BY_PROGRAM_WORDS.test(text) || (ANGLE_PLACEHOLDER.test(text) && /[/.]/.test(text))) return true;
  // (round 18: kingpin acmetool `--service.debugserveraddr=""  Address for debug server … (default: disabled)`:
  // a value the help lists no choices for, left `disabled`, is a feature left off, no value to pass)
  if (takesValue && type !== 'boolean' && choices === null && /^disabled$/i.test(text)) return true;
  // `--server_name <server_name>  Server name (default: auto)`: a name, path or address left `auto` is one the program makes up
  if (/^auto$/i.test(text) && names.some((name) => OPEN_THING_OPTION.test(name))) return true;
  // memcached `-l, --listen=<addr>  interface to listen on (default: INADDR_ANY)`: no host or address is
  // spelled in capitals with an underscore; that is the C constant the program binds to
  if (/^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(text) && names.some((name) => ADDRESS_OPTION.test(name))) return true;
  // datamash `--filler=X  fill missing values with X (default %s)`: a bare printf conversion is the
  // help's own template left unfilled, no value (a format option's `%.8g` is one)
  if (UNFILLED_CONVERSION.test(text) && !names.some((name) => FORMAT_OPTION.test(name))) return true;
  // optparse `(default=0.001%)`: a percentage says how the value reads, not whether the option takes `0.001` or `0.001%`
  if (/^[+-]?\d+(?:\.\d+)?%$/.test(text)) return true;
  // tabulate `--sep REGEXP … (default: whitespace)`: the separator is any whitespace, not that word
  if (CHARACTER_CLASS_WORD.test(text) && names.some((name) => SEPARATOR_OPTION.test(name))) return true;
  // prettier `--range-end <int>  Defaults to Infinity.`
  if ((type === 'integer' || type === 'number') && /^[+-]?Infinity$/.test(text)) return false;
  if ((type === 'integer' || type === 'number') && !isNumberText(text)) return true;
  return takesValue && type !== 'boolean' && /^(true|false)$/i.test(text);
}


export function isHelpOrVersion(option: CliOption): boolean {
  // oclif readme's `--version=<value>  Version to use in readme links` is an option of its own
  // (Getopt::Long matches names in any case: xml_grep `--Version  display the tool version`)
  if (option.long === 'help' || (option.long?.toLowerCase() === 'version' && !option.takes_value)) return true;
  // kubernetes' verflag `--version version[=true]  --version, --version=raw prints version information and
  // quits; --version=vX.Y.Z... sets the reported version`: given bare, it prints the version (an
  // optional value only picks how); oclif's required `--version=<value>` stays
  if (option.long === 'version' && option.value_optional === true && /\bprints?\s+(?:the\s+)?version\b/i.test(option.description ?? '')) return true;
  // (round 17: AutoOpts `-v, --version[=MODE]  output version information and exit`: an optional value
  // says how much version to print; it prints and exits all the same)
  if (option.long?.toLowerCase() === 'version' && option.value_optional === true && /\bversion\b[^.;]{0,40}\band\s+exit\b/i.test(option.description ?? '')) return true;
  if (option.long === 'usage' && /usage message/i.test(option.description ?? '')) return true;
  // xxd `-h  print this summary.`
  // (diffstat `-h  print this message`)
  if (option.long === null && (option.short === 'h' || option.short === '?') && /\b(help|usage)\b|^(?:print|show|display) this (?:summary|message)\b/i.test(option.description ?? '')) return true;
  // cwebp `-H / -longhelp ......... long help`: another length of the help (the slash joins two spellings)
  const spellings = [option.long ?? '', (option.negation ?? '').replace(/^-+/, '')];
  // (gengetopt `--detailed-help  Print help, including all details and hidden options, and exit`, `--full-help
  // Print help, including hidden options, and exit`: a help named by its length, described as printing help)
  if (spellings.some((spelling) => /help$/i.test(spelling)) && (/^(?:short|long|full|extended|detailed|more)\s+help\.?$/i.test(option.description ?? '') || (!option.takes_value && /^(?:full|detailed|extended|long|more)[-_]help$/i.test(option.long ?? '') && /^(?:print|show|display)\s+help\b/i.test(option.description ?? '')))) return true;
  // plumbum `--help-all  Prints help messages of all sub-commands and quits`, lame `--longhelp  full
  // list of options`: a wider help, named so and described so
  const listsAllOptions = /^(?:full|complete|whole|long)\s+list\s+of\s+(?:all\s+)?options\b/i.test(option.description ?? '');
  if (/^help[-_](?:all|long|full|more|extended|verbose)$/i.test(option.long ?? '') && !option.takes_value && (/\bhelp\b/i.test(option.description ?? '') || listsAllOptions)) return true;
  // (round 17: llvm `--help-list  Display list of available options`: the help printed as a list;
  // nats `--help_tls  TLS help`: the help on one topic, named after `help`)
  if (/^help[-_]list$/i.test(option.long ?? '') && !option.takes_value && /^(?:-\s+)?(?:(?:display|print|show)\s+)?(?:a\s+|the\s+)?list\s+of\s+(?:all\s+)?(?:the\s+)?(?:available\s+)?options\b/i.test(option.description ?? '')) return true;
  const helpTopic = /^help[-_]([a-z]{2,20})$/i.exec(option.long ?? '')?.[1];
  if (option.short === null && !option.takes_value && helpTopic !== undefined && helpTopic.toLowerCase() === /^([\w-]{2,20})\s+help\.?$/i.exec(option.description ?? '')?.[1]?.toLowerCase()) return true;
  if (/help$/i.test(option.long ?? '') && !option.takes_value && listsAllOptions) return true;
  // gocryptfs `-hh  Long help text with all options`: the doubled help letter (zip `-h2  show more
  // help`: the help letter numbered, after a verb)
  if (option.short === null && /^h(?:h|\d)$/.test(option.long ?? '') && /^(?:(?:show|print|display)\s+)?(?:short|long|full|extended|detailed|more)\s+help\b/i.test(option.description ?? '')) return true;
  // (socat `-hh  like -h, plus a list of all common address option names`, `-hhh  like -hh, plus …`:
  // the help letter doubled or tripled, described as the help before it and more)
  if (option.short === null && /^h{2,3}$/.test(option.long ?? '') && /^(?:like|same as)\s+-h{1,2}\b/i.test(option.description ?? '')) return true;
  // `-V  Print version`, `-V  display version information`; busybox sort's `-V  Sort version` (another verb governing it) is an option
  const description = option.description ?? '';
  const otherVerb = /^([a-z]+)\s+versions?\b/i.exec(description)?.[1];
  // mosquitto `-V : specify the version of the MQTT protocol to use`: the version of another thing is a value
  const otherThing = /\bversions? of (?:the |a )?(?!(?:this |the )?(?:program|tool|application|software|utility|command)\b)[A-Za-z]/i.test(description) && !/^(?:print|show|display|output|report)\b/i.test(description);
  if (option.long === null && option.short === 'V' && /\bversion\b/i.test(description) && !otherThing && (otherVerb === undefined || /^(print|show|display|output|report|echo|the|its|program'?s?)$/i.test(otherVerb))) return true;
  // xxd `-v  show version: "xxd 2022-01-14 …"`: a lower-case `-v` only when the description opens so
  // (ruby `-v  print the version number, then turn on verbose mode`: a switch doing more after it is an option)
  const goesOn = /\bversion\b[^.;]{0,40}\bthen\b/i.test(description);
  // (round 17: lwp-request `-v  Show program version`, pdftotext `-v  print copyright and version info`)
  if (option.long === null && option.short === 'v' && !option.takes_value && !goesOn && /^(?:print|show|display|output)\s+(?:the\s+)?(?:program(?:'s)?\s+|copyright\s+and\s+)?version\b/i.test(description)) return true;
  return false;
}

interface ValueShape {
  takes: boolean;
  type: CliValueType;
}

/**
 * yargs mjml `-i, --stdin  Compiles MJML from input stream`, `-s, --stdout  Output HTML to stdout`
 * (untagged): an option named after a standard stream switches the data to it; the stream is no value to pass.
 */
const STREAM_SWITCH = /^(?:stdin|stdout|stderr)$/i;
/**
 * yargs browser-sync `--https   Enable SSL for local development` (untagged): a description opening
 * with `Enable` / `Disable` turns a feature on or off, a switch's doing; `Enable … for <host>` or
 * `… with <value>` still names no value the option takes, so the verb alone decides.
 */
const TOGGLING_VERB = /^(?:enable|disable)s?\s/i;

/** Whether the option takes a value, and its type; yargs/optionator state it only in tags. */
/** A size with its suffix: `1m`, `64k`, `2G`, `512KiB`. */
const SIZE_WITH_SUFFIX = /^\d{1,9}(?:\.\d{1,3})?[kKmMgGtT](?:i?[bB])?$/;

/** `-vvv` for `-v`: the option's own short spelling, its letter repeated. */
function countsOwnFlag(stated: string, shorts: readonly string[]): boolean {
  const spelled = /^-([A-Za-z])\1*$/.exec(stated);
  return spelled !== null && shorts.includes(spelled[1] ?? '');
}

/** `as an integer or a level name`, `a number or a string`: the description says the value may be a word too. */
const NUMBER_OR_NAME = /\b(?:integer|number)\s+or\s+(?:an?\s+)?(?:[\w-]{1,20}\s+)?(?:name|string|word)\b/i;

function valueShapeOf(head: OptionHead, facts: DescriptionFacts, choices: string[] | null, text: string, style: OptionStyle, valueSection = false): ValueShape {
  const placeholder = head.valueName !== null || head.choices !== null;
  if (placeholder) {
    if (choices !== null) return { takes: true, type: 'string' };
    // argparse's default metavar repeats the option's name (`-j JOBS, --jobs JOBS`): it names the
    // option, not a type, so a word default (`(Default: auto)`) makes the value a string
    const long = head.longs[0]?.name;
    const metavarIsName = long !== undefined && head.valueName === long.toUpperCase().replace(/-/g, '_');
    if (metavarIsName && facts.defaultText !== null && !facts.defaultQuoted && /^[a-z][a-z-]{1,30}$/.test(facts.defaultText) && !PROSE_WORDS.test(facts.defaultText)) {
      return { takes: true, type: 'string' };
    }
    // …and Python prints a bool default capitalized: sqlformat `--compact COMPACT  … (default False)`
    // is a value of type bool (argparse `type=bool`), its default off
    if (metavarIsName && facts.defaultText !== null && !facts.defaultQuoted && /^(True|False)$/.test(facts.defaultText)) return { takes: true, type: 'boolean' };
    const hinted =
      typeFromValueName(head.valueName) ??
      (facts.typeHint !== null && facts.typeHint !== 'boolean' ? facts.typeHint : null) ??
      (facts.defaultText !== null && !isExplicitStringName(head.valueName) ? typeFromDefault(facts.defaultText, facts.defaultQuoted) : null) ??
      // ptw `--spool <delay>  … (in milliseconds) … (default: 200 ms)`: a default counted in the unit the description names
      (facts.defaultText !== null ? typeFromDefault(String(unitGluedNumber(facts.defaultText, 'number', text, head.valueName) ?? ''), false) : null) ??
      'string';
    // `-s N … (default 1.0)`: a generic integer-looking name with a decimal default is a number
    const type = hinted === 'integer' && facts.defaultText !== null && !facts.defaultQuoted && isNumberText(facts.defaultText) && !/^[+-]?\d+$/.test(facts.defaultText) ? 'number' : hinted;
    // aria2 `--listen-port=PORT…  … Default: 6881-6999`: a range as the default shows the value is no single number
    if ((type === 'integer' || type === 'number') && facts.defaultText !== null && /^\d{1,9}-\d{1,9}$/.test(facts.defaultText)) return { takes: true, type: 'string' };
    // docopt instalooter `-l LEVEL  … as an integer or a level name. [default: INFO]`: a value that may be a
    // name as well is a string, and a word default one of the names
    if ((type === 'integer' || type === 'number') && facts.defaultText !== null && /^[A-Za-z][\w-]{0,30}$/.test(facts.defaultText) && NUMBER_OR_NAME.test(facts.description)) return { takes: true, type: 'string' };
    // memcached `-I, --max-item-size=<num>  adjusts max item size (default: 1m, min: 1k, max: 1024m)`: a size
    // written with its suffix shows the value is written so (not pigz's `mmmK`, the suffix glued to the placeholder)
    if ((type === 'integer' || type === 'number') && facts.defaultText !== null && SIZE_WITH_SUFFIX.test(facts.defaultText) && /\bsize\b/i.test(`${head.longs[0]?.name.replace(/[-_]/g, ' ') ?? ''} ${facts.description}`) && !defaultInValueUnits(head.valueName, facts.defaultText, facts.description)) return { takes: true, type: 'string' };
    return { takes: true, type };
  }
  // click gitlint `-v, --verbose  … (e.g.: -v, -vv, -vvv). [default: -vvv]`: a default spelling the
  // option's own short flag repeated counts its uses; no value is taken
  if (facts.defaultText !== null && countsOwnFlag(facts.defaultText, head.shorts)) return { takes: false, type: 'boolean' };
  if (choices !== null && (wholeListChoices(facts.description) !== null || setValueListChoices(facts.description) !== null)) return { takes: true, type: 'string' };
  // sade (publint) `('suggestion' | 'warning' | 'error')`: quoted values offered as alternatives are a value's
  if (choices !== null && quotedPipeChoices(facts.description) !== null) return { takes: true, type: 'string' };
  if (valueSection) return { takes: true, type: facts.defaultText !== null ? (typeFromDefault(facts.defaultText, facts.defaultQuoted) ?? 'string') : 'string' };
  // tsc prints no placeholder: `one of: a, b` or `one or more: a, b` under the option says a value is taken
  if (facts.choices !== null && /\bone of:/i.test(text)) return { takes: true, type: 'string' };
  if (/\bone or more:/i.test(text)) return { takes: true, type: 'string' };
  // yargs prints no placeholder; its `[string]`/`[number]`/`[array]` tags say a value is taken.
  // …but `[count]` marks a flag repeated to count (`-LLL`): no value
  if (facts.typeHint !== null && facts.typeHint !== 'boolean' && !/\[count\]/i.test(text)) return { takes: true, type: facts.typeHint };
  if (facts.repeatable && /\[array\]/i.test(text)) return { takes: true, type: 'string' };
  // yargs `--mode [choices: …] [default: "fit"]` without a placeholder still takes a value.
  if (/\[(choices|default):/i.test(text) && !head.negation) {
    if (facts.choices !== null) return { takes: true, type: 'string' };
    const stated = facts.defaultText;
    // (round 17: gitlint `-v, --verbose  … use multiple times … [default: -vvv]`: the flag's own letter
    // repeated is how often it is given, no value)
    const ownRepeat = stated === null ? undefined : /^-([A-Za-z])\1*$/.exec(stated)?.[1];
    if (stated !== null && !/^(true|false)$/i.test(stated) && !isProseDefault(stated, facts.defaultQuoted, true, 'string', null) && !(ownRepeat !== undefined && head.shorts.includes(ownRepeat))) {
      return { takes: true, type: typeFromDefault(stated, facts.defaultQuoted) ?? 'string' };
    }
    // meow tsd `[Default: "types" property in package.json]`, `[Default: 'a' or 'b']`: a bracketed
    // default in prose opening with a literal value still says a value is taken
    if (stated !== null && opensWithLiteralValue(stated)) return { takes: true, type: 'string' };
  }
  // (cwebp `-lossless ....... encode image losslessly, default=off`: a switch's state is no value)
  if (style.statedDefaultTakesValue === true && facts.defaultText !== null && head.negation === null && !/^(true|false|on|off)$/i.test(facts.defaultText)) {
    const stated = facts.defaultText;
    // (wait-on `Interval to poll resources in ms, default 250ms`: a number glued to the unit the description counts in is a number)
    const glued = unitGluedNumber(stated, 'number', text, head.valueName);
    if (glued !== null) return { takes: true, type: typeFromDefault(String(glued), false) ?? 'number' };
    if (!isProseDefault(stated, facts.defaultQuoted, true, 'string', null, head.longs.map((long) => long.name))) return { takes: true, type: typeFromDefault(stated, facts.defaultQuoted) ?? 'string' };
    if (opensWithLiteralValue(stated)) return { takes: true, type: 'string' };
    // (round 18: plackup `--socket  … Defaults to undef.`: Perl's null is no default, but only a value is left undef)
    if (stated === 'undef') return { takes: true, type: 'string' };
  }
  // stylus `--ext   Specify custom file extension for compiled file, default .css`: a default that is a
  // file suffix or a path is no state of a switch, in any help
  // (`--no-config   … (default: ~/.foorc)` tells what the negation turns off)
  if (facts.defaultText !== null && head.negation === null && !(head.longs[0]?.name ?? '').startsWith('no-') && FILE_LIKE_DEFAULT.test(facts.defaultText)) return { takes: true, type: 'string' };
  if (style.untaggedTakesValue === true && facts.typeHint === null && !/\[count\]/i.test(text) && !TOGGLING_VERB.test(facts.description) && head.negation === null && !(head.longs[0]?.name ?? '').startsWith('no-') && !STREAM_SWITCH.test(head.longs[0]?.name ?? '') && !head.longs.some((long) => style.listedNegations?.has(long.name) === true)) {
    const stated = facts.defaultText;
    // `[default: true]` without a tag is still a switch
    if (stated === null || !/^(true|false)$/i.test(stated)) return { takes: true, type: stated !== null ? (typeFromDefault(stated, facts.defaultQuoted) ?? 'string') : 'string' };
  }
  return { takes: false, type: 'boolean' };
}

/**
 * meow np `(default: '%s' with npm and 'v%s' with yarn)`, `(default: package.json packageManager)`:
 * a default in prose (no value of its own) that opens with a literal value — quoted, or a word with
 * a `.`, `/` or `%` in it — still says a value is taken; `(default: log as debug)` says nothing.
 */
function opensWithLiteralValue(stated: string): boolean {
  const first = stated.trim().split(/\s+/)[0] ?? '';
  return /^(["'`])[^"'`]{1,60}\1$/.test(first) || /^[\w@-]*[./%][\w./%@-]*\w$/.test(first);
}

/** `On by default.` / `Off by default.` (or enabled / disabled) as a whole sentence. */
const NEGATABLE_STATE_SENTENCE = /(?:^|[.!?]\s+)(on|off|enabled|disabled) by default(?:\.|$)(?=\s|$)/i;

/** `Enabled by default.` on a `<true|false>` option: the choice `true` (or the boolean, for a `<bool>` value). */
function stateDefaultOf(state: 'true' | 'false', shape: ValueShape, choices: string[] | null): string | boolean | null {
  if (shape.type === 'boolean') return state === 'true';
  return matchingChoice(state, choices) ?? null;
}

const UNIT_WORDS: Record<string, string> = { ms: 'milliseconds', s: 'seconds', m: 'minutes', h: 'hours', d: 'days' };

/**
 * lz4 `-i#  minimum evaluation time in seconds (default : 3s)`: a number glued to the abbreviation of
 * the unit the description names (`in seconds`) is that number; the option itself takes bare numbers.
 * So is one with the unit after a space, spelled out or not (docopt ptw `--spool <delay>  … (in
 * milliseconds) … (default: 200 ms)`), or with the unit the value is named after (`--timeout
 * <seconds>  … (default: 15 seconds)`).
 */
/** `true` or `false` as the only value: a switch's state, never a set of one. */
const LONE_SWITCH_STATE = /^(?:true|false)$/i;
/**
 * cucumber `--format <TYPE[:PATH]>`, `--order <TYPE[:SEED]>`, `KIND=PATH`: one value of parts in
 * capitals joined by `:` or `=` (maybe optional); a list the prose gives is one part's values, and an
 * enum of them would refuse `random:42`.
 */
const PARTED_PLACEHOLDER = /^[A-Z][A-Z0-9_]{0,30}(?:\[?[:=][A-Z][A-Z0-9_]{0,30}\]?){1,4}$/;
/**
 * argparse `nargs=2` (`-H NAME TYPE  … where <type> is one of "lexer", "formatter" or "filter"`),
 * `-e <a> <b>`: one use takes several values, and a list the prose gives is the values of one of them,
 * never of the whole option (click's `INTEGER RANGE` is one value).
 */
function takesSeveralPlaceholders(head: OptionHead): boolean {
  if (head.valueCount > 1) return true;
  if (PARTED_PLACEHOLDER.test(head.valueName ?? '')) return true;
  return /^[A-Z][A-Z0-9_]*(?: [A-Z][A-Z0-9_]*)+$/.test(head.valueName ?? '') && !/ RANGE$/.test(head.valueName ?? '');
}

function unitGluedNumber(stated: string, type: CliValueType, text: string, valueName: string | null = null): number | null {
  if (type !== 'integer' && type !== 'number') return null;
  const match = /^(\d+(?:\.\d+)?)(?:(ms|s|m|h)|\s(ms|s|m|h|d|(?:milli)?seconds?|minutes?|hours?|days?))$/.exec(stated);
  const written = match?.[2] ?? match?.[3] ?? '';
  const unit = UNIT_WORDS[written] ?? (written.length > 2 ? written.replace(/s?$/, 's') : undefined);
  if (match === null || unit === undefined) return null;
  const named = valueName?.replace(/[<>[\]]/g, '').toLowerCase() === unit;
  // (wait-on `in ms, default 250ms`: the description may name the unit by the same abbreviation)
  return named || new RegExp(String.raw`\bin ${unit}\b`, 'i').test(text) || (written.length > 0 && written === match[2] && new RegExp(String.raw`\bin ${written}\b`).test(text)) ? Number(match[1]) : null;
}

/**
 * click (check-jsonschema) `--traceback-mode [full|short]  … Defaults to shortened tracebacks.`,
 * `--color [auto|always|never]  … Defaults to autodetection.`: the default told in a word formed from
 * exactly one choice (the choice begins it) is that choice.
 */
function derivedChoiceDefault(description: string, choices: readonly string[] | null): string | null {
  if (choices === null) return null;
  const word = /\bDefaults to ([a-z]{4,30})\b/i.exec(description)?.[1]?.toLowerCase();
  if (word === undefined) return null;
  const formers = choices.filter((choice) => choice.length >= 4 && word.startsWith(choice.toLowerCase()) && word !== choice.toLowerCase());
  return formers.length === 1 ? (formers[0] ?? null) : null;
}

/**
 * stylelint `The modes are as follows:` over `  strict   only fixing when there are no syntax errors
 * (default)` / `  lax   attempting to fix…`: the line of a definition list of the choices whose
 * meaning ends in `(default)` names the default.
 */
function definitionLineDefault(lines: readonly string[], choices: readonly string[] | null): string | null {
  // bunyan `One of` over `long: (the default) pretty`, `json-N: JSON output, N-space indent`: a list left
  // open by a patterned item (no choices) still names its default, when its items are colon-glossed names
  const items = choices ?? (lines.filter((line) => COLON_DEFINITION_LINE.test(line.trim())).length >= 3 ? null : []);
  if (items !== null && items.length === 0) return null;
  const marked = lines
    // …rimraf writes a colon after the name: `rimraf: choose the best option (default)`
    .map((line) => /^([a-z0-9][\w.-]{0,30})(?:\s{2,}|:\s+)\S.{0,200}\((?:the )?default\)\.?$/i.exec(line.trim())?.[1] ?? LEADING_DEFAULT_MARK.exec(line.trim())?.[1])
    .filter((item): item is string => item !== undefined && (items === null ? /^[a-z][a-z0-9-]{0,30}$/.test(item) : items.includes(item)));
  return marked.length === 1 ? (marked[0] ?? null) : null;
}

/** bunyan `long: (the default) pretty`: the marker opening the meaning. */
const LEADING_DEFAULT_MARK = /^([a-z0-9][\w.-]{0,30}):\s+\((?:the )?default\)(?:\s|$)/i;
/** `json: JSON output, 2-space indent`: a value's name, a colon, its meaning. */
const COLON_DEFINITION_LINE = /^[a-z0-9][\w.-]{0,30}:\s+\S/i;

/**
 * pigz `-b, --blocksize mmm  Set compression block size to mmmK (default 128K)`: the description
 * writes the value glued to a unit (`mmmK`), so the value counts in that unit and a default shown
 * with the unit (`128K`) is for reading, not a value to pass.
 */
function defaultInValueUnits(valueName: string | null, defaultText: string, description: string): boolean {
  if (valueName === null || !/^[A-Za-z]{1,20}$/.test(valueName)) return false;
  const unit = new RegExp(`\\b${valueName}([A-Za-z]{1,3})\\b`).exec(description)?.[1];
  return unit !== undefined && new RegExp(`^\\d+(?:\\.\\d+)?${unit}$`).test(defaultText);
}

/** A list item naming a key: `- maxconns_fast: …`, `* hashpower: …`. */
const SUB_KEY_ITEM = /(?:^|\s)[-*]\s+[a-z][\w.-]{0,40}:\s/;

/** Whether the first `default` of the text stands under a list item naming a key. */
function statedUnderSubKey(text: string): boolean {
  const at = text.search(/\bdefault/i);
  return at > 0 && SUB_KEY_ITEM.test(text.slice(0, at));
}

function defaultOf(head: OptionHead, facts: DescriptionFacts, shape: ValueShape, choices: string[] | null, text: string): string | number | boolean | null {
  const long = head.longs[0]?.name ?? null;
  // zstd `--format=zstd   … [Default]`: the line's own literal value is the default
  if (facts.defaultText === null && head.choices?.length === 1 && /\[default\]/i.test(text)) return head.choices[0] ?? null;
  // click `-c, --clean / --dirty   Remove old files … (the default).`: the first spelling of the pair is the one in effect
  if (facts.defaultText === null && !shape.takes && head.negation !== null && /\(the default\)\.?$/i.test(text.trim())) return true;
  // click sqlfmt `--dialect [polyglot|clickhouse]  … supported by the default polyglot dialect`: one of
  // the stated choices right after `the default` names it
  // (autocannon `the default filename value can be overridden`: `X value` is the default of a field X, no value X)
  const namedChoice = facts.defaultText === null && shape.takes && choices !== null ? /\bthe default ([a-z0-9][\w.-]{0,30})(?=[\s,.;)]|$)(?!\s+values?\b)/i.exec(text) : null;
  const theDefault = namedChoice === null ? undefined : matchingChoice(namedChoice[1] ?? '', choices);
  if (theDefault !== undefined) return theDefault;
  // waitress `--[no-]log-socket-errors  … On by default.`: a switch written with its negation has a
  // state to state, in a sentence of its own (not `On by default inside GitHub Actions.`)
  const negatableState = facts.defaultText === null && !shape.takes && head.negation !== null ? NEGATABLE_STATE_SENTENCE.exec(facts.description) : null;
  if (negatableState !== null) return /^(?:on|enabled)$/i.test(negatableState[1] ?? '');
  // Getopt::Long xml_grep `--date  when on (by default) the wrapping element … with "--nodate" this
  // attribute is not added`: a switch whose description names its negation states its state in words
  const ownNegation = facts.defaultText === null && !shape.takes && long !== null && facts.description.includes(long) && new RegExp(String.raw`(?:^|[\s"'\`(])--no-?${long.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\b`).test(facts.description);
  const namedState = ownNegation ? /\b(on|off) \(by default\)|\((on|off) by default\)/i.exec(facts.description) : null;
  if (namedState !== null) return /^on$/i.test(namedState[1] ?? namedState[2] ?? '');
  if (facts.defaultText === null) return shape.takes && facts.stateDefault !== null ? stateDefaultOf(facts.stateDefault, shape, choices) : null;
  // memcached `-o, --extended  … - maxconns_fast: … (default: enabled) - hashpower: …`: a switch's
  // default stated inside a list of keys (`- name: …`) is that key's
  if (!shape.takes && statedUnderSubKey(text)) return null;
  // rustc `-L [<KIND>=]<PATH> … KIND can be one of <…|all> (default: all)`: the default of a part
  const part = (head.valueName ?? '').includes('=]') ? /^\[?<?([A-Z][A-Z_]{1,20})\b/.exec(head.valueName ?? '')?.[1] : undefined;
  if (part !== undefined && new RegExp(`\\b${part}\\b`).test(text)) return null;
  // yargs `[default: (default)]` and click `[default: (dynamic)]` name a computed default; typer
  // prints an enum's default as `[default: (model)]`: only one of the choices counts
  // (a regex such as `(\.pyi?|\.ipynb)$` only starts with a parenthesis)
  const wrapped = /^\(([^()]*)\)?$/.exec(facts.defaultText);
  // (round 18: click's own string shown for a default, `[default: (~/.cache/tool)]`: a path in the
  // parenthesis, which no enum member's name is, is the value)
  if (wrapped) return matchingChoice(wrapped[1] ?? '', shape.takes ? choices : null) ?? wrappedPath(wrapped, shape.takes, choices);
  if (defaultInValueUnits(head.valueName, facts.defaultText, facts.description)) return null;
  // commander (jscpd) `-g, --gitignore   respect .gitignore files (default: enabled, use --no-gitignore
  // to disable)`: a switch's stated state, maybe followed by a note
  const state = !shape.takes && head.negation === null && !(long ?? '').startsWith('no-') ? /^(enabled|disabled)(?=[,;]\s|$)/i.exec(facts.defaultText) : null;
  if (state !== null) return /^enabled$/i.test(state[1] ?? '');
  const glued = shape.takes ? unitGluedNumber(facts.defaultText, shape.type, text, head.valueName) : null;
  if (glued !== null) return glued;
  // cac (bumpp) `-c, --commit [msg]  Commit message (default: true)`: an optional value's `true` is
  // the bare flag's state, on unless `--no-commit` (a value the option takes too); `(default: false)`
  // (vitest `--changed [since]`) only says it is off when left out, which is no default to state;
  // unocss `--split-css [mode]  Options: true, false, …` names its choice
  if (shape.takes && head.valueOptional && facts.defaultText === 'true' && matchingChoice('true', choices) === undefined) return true;
  const names = [long, head.valueName].filter((name): name is string => name !== null);
  // streamzip `-zip64  Create a Zip64-compliant zip file [Default: No]`: a switch's state in yes / no
  if (!shape.takes && head.negation === null && !(long ?? '').startsWith('no-') && /^(?:yes|no)$/i.test(facts.defaultText)) return /^yes$/i.test(facts.defaultText);
  // docopt sumy `It may be count of sentences or percentage of input text. [default: 20%]`: where the
  // description says a value may be a percentage, the percent sign is written in the value
  if (shape.takes && shape.type === 'string' && choices === null && /^\d{1,6}(?:\.\d{1,6})?%$/.test(facts.defaultText) && /\b(?:a|or|as) percentage\b/i.test(facts.description)) return facts.defaultText;
  if (isProseDefault(facts.defaultText, facts.defaultQuoted, shape.takes, shape.type, shape.takes ? choices : null, names)) return null;
  if (shape.takes && isEveryItemDefault(facts.defaultText, facts.defaultQuoted, text, choices)) return null;
  if (!shape.takes) {
    if (head.negation !== null && long !== null) {
      // click `--x / --no-x  [default: x]` or `[default: no-x]`; black's `--fast / --safe  [default: --safe]`
      const negationName = head.negation.replace(/^-+/, '');
      const stated = facts.defaultText.replace(/^--?(?=[A-Za-z])/, '');
      // …unified-args `--[no-]color   specify color in report (on by default)`: the switch's state in words
      // (not `Default is off.` nor `[Default: Enabled]`, which the corpus reads as no stated value)
      // (dart `args` prints a negatable flag's `defaultsTo` as `(defaults to on)` / `(defaults to off)` closing its help)
      const byDefault = (/\((on|off) by default\)/i.exec(text) ?? /\(defaults to (on|off)\)$/.exec(text.trim()))?.[1]?.toLowerCase();
      // (click subliminal `-z, --archives / -Z, --no-archives  [default: z]`: a short spelling names its side too)
      if (stated === long || head.shorts.includes(stated) || /^true$/i.test(stated) || byDefault === 'on') return true;
      if (stated === negationName || head.aliases.some((alias) => alias.replace(/^-+/, '') === stated) || /^false$/i.test(stated) || byDefault === 'off') return false;
      return null;
    }
    // `--no-color  … (default: true)` says what the negation does, not a value to set; but a
    // `--no-deps … (default: False)` is off: were it the positive's default, the flag would do nothing
    // pflag prints a bool's own value (`--no-color  disable color output (default true)`, no colon):
    // there `no-color` is the flag's name and true its value, switched off with `--no-color=false`
    if (long?.startsWith('no-')) return /^false$/i.test(facts.defaultText) ? false : PFLAG_TRUE.test(text.trim()) ? true : null;
    // argparse `-v, --verbose  … supply multiple times to increase verbosity (default: 0)`: a count starts at a number
    // (argparse bump2version `--verbose  Print verbose logging to stderr (default: 0)`: ArgumentDefaultsHelpFormatter
    // prints a store_true flag's `False`; a flag whose default is 0 is a count)
    if (facts.repeatable || isCountFlagDefault(text)) return /^\d{1,6}$/.test(facts.defaultText) ? Number(facts.defaultText) : /^(true|false)$/i.test(facts.defaultText) ? coerceDefault(facts.defaultText, 'boolean') : null;
    return /^(true|false)$/i.test(facts.defaultText) ? coerceDefault(facts.defaultText, 'boolean') : null;
  }
  const choice = matchingChoice(facts.defaultText, choices);
  if (choice !== undefined) return choice;
  return coerceDefault(facts.defaultText, shape.type);
}

export interface OptionStyle {
  /** kong prints an option's default in place of its placeholder (`--spinner="dot"`, `--timeout=0s`). */
  defaultInPlaceholder?: boolean;
  /**
   * yargs (`--help  Show help  [boolean]`) prints no placeholder, only type tags; an option without
   * a `[boolean]` (or `[count]`) tag is parsed with a value.
   */
  untaggedTakesValue?: boolean;
  /**
   * The long names the help lists as `--no-x` options of their own (postcss `-m, --map` over
   * `--no-map`): with `untaggedTakesValue`, an untagged `--x` whose negation is listed is a switch.
   */
  listedNegations?: ReadonlySet<string>;
  /**
   * The boolean type the help prints for `--help` itself (fastapi's typer panels: `--help -h <bool>`):
   * a type column printed for every option, flags included, so an option showing only it is a flag.
   */
  flagPlaceholder?: string;
  /**
   * No option of the help shows a placeholder (sade): an option stating a default other than a
   * boolean (`Port to bind  (default 8080)`) takes a value.
   */
  statedDefaultTakesValue?: boolean;
  /** etcdctl's template (`--help[=false]`): flags print their default as `[=false]`, values as `=value` (see `bracketedBoolHead`). */
  bracketedBoolDefaults?: boolean;
  /** Go flag before 1.5 (reflex): every head is `--name=DEFAULT:` (see colon-default-heads.ts). */
  colonDefaults?: boolean;
  /** The flags the usage forms show bare (`[-v]`): see usage-bare-flags.ts. */
  usageBareFlags?: ReadonlySet<string>;
  /** The dialect reading the entries (the fingerprinted framework): its name prefixes the claims' sources. */
  reader?: string;
}

/** A word naming a kind of value, no value itself: `text`, `string`, `value`, `path`, `num`. */
const QUOTED_KIND_WORD = /^(?:text|string|str|value|val|word|name|file|filename|path|dir|directory|number|num|int|integer|float|url|arg)$/i;

/** `--name=<value>` / `--name=[value]` ending the head: a bracketed placeholder, not a value. */
const AUTHOR_PLACEHOLDER = /--[\w-]+=(?:<[^<>]+>|\[[^[\]]+\])(?:\s*\.{3})?$/;

/**
 * A default written as the placeholder: quoted (`--config="~/dasel.yaml"`, any framework), or, in a
 * kong help, any value that is not an upper-case name (`--timeout=0s`). The empty string says nothing.
 */
function placeholderDefault(valueName: string | null, style: OptionStyle, rawHead = ''): string | null {
  // kingpin `--web.external-url=  The URL under which …`: nothing after the `=` states nothing
  if (valueName === null || valueName.length === 0) return null;
  // kingpin `--requests=[pos. int.]`, `--print=<spec>`: a value set off in brackets after the `=` is
  // the author's placeholder (the framework writes a default bare or quoted), never a default
  if (AUTHOR_PLACEHOLDER.test(rawHead.split(/\s{2,}/)[0] ?? '')) return null;
  // optparse mid3v2 `-a "ARTIST", --artist="ARTIST"`: the quoted word after the short spelling too is the metavar
  if (/^"\S+"$/.test(valueName) && rawHead.split(/[\s,]+/).includes(valueName)) return null;
  const quoted = /^"(.*)"$/.exec(valueName);
  // (round 18: siege `-H, --header="text"`, `-A, --user-agent="text"`: outside a help whose framework
  // writes defaults in the head (kingpin, etcd), a quoted word naming a kind of value is the placeholder)
  if (quoted && style.defaultInPlaceholder !== true && QUOTED_KIND_WORD.test(quoted[1] ?? '')) return null;
  if (quoted) return (quoted[1] ?? '').length > 0 ? (quoted[1] ?? null) : null;
  if (style.defaultInPlaceholder === true && !/^[A-Z<[{(]/.test(valueName) && !/^[A-Z][A-Z0-9_-]*$/.test(valueName)) return valueName;
  return null;
}

/**
 * kingpin `--web.listen-address=:9091 ...`: a repeatable flag (the ` ...` kingpin appends) whose
 * placeholder has no ellipsis of its own shows its one default; kingpin writes `vendor...` for the
 * first of several defaults, which is no one default.
 */
function isOneRepeatedDefault(rawHead: string, style: OptionStyle): boolean {
  if (style.defaultInPlaceholder !== true) return false;
  const shown = /=(\S{1,200}) \.\.\.$/.exec(rawHead.trim().split(/\s{2,}/)[0] ?? '');
  return shown !== null && !(shown[1] ?? '').endsWith('...');
}

/** kong `--telemetry=undecided` is no literal spelling (a one-value choice) but the default written as the placeholder. */
function kongHead(head: OptionHead, style: OptionStyle): OptionHead {
  if (style.flagPlaceholder !== undefined && head.valueName === style.flagPlaceholder) return { ...head, valueName: null };
  if (style.defaultInPlaceholder !== true || head.valueName !== null || head.choices?.length !== 1) return head;
  return { ...head, valueName: head.choices[0] ?? null, choices: null };
}

/**
 * yargs typeorm `--dr, --dryrun`, `--ch, --check`: a long spelling of at most three letters before a
 * longer one it abbreviates (the same first letter) is the alias; the full word names the option, as
 * the yargs helps that print the full word first (`--kill-signal, --ks`) do (clipanion's
 * `--js,--js-binding` names two options' worth of words: only yargs).
 */
function fullWordHead(head: OptionHead, style: OptionStyle): OptionHead {
  const first = head.longs[0];
  if (style.untaggedTakesValue !== true || first === undefined || head.longs.length !== 1 || first.name.length > 3) return head;
  const full = head.aliases.find((alias) => alias.startsWith(`${first.dashes}${first.name[0] ?? ''}`) && alias.length > first.dashes.length + 3 && /^--?[A-Za-z][\w-]*$/.test(alias) && [...first.name].every((letter) => alias.includes(letter)));
  if (full === undefined) return head;
  const dashes = full.startsWith('--') ? '--' : '-';
  return { ...head, longs: [{ dashes, name: full.slice(dashes.length) }], aliases: [`${first.dashes}${first.name}`, ...head.aliases.filter((alias) => alias !== full)] };
}

/**
 * pod2text `--errors=style   Set the error handling style. "die" says …`, optparse `--select=errors
 * select errors and warnings`: a one-value spelling whose word the description (on the head's line
 * or below it) uses as a plain noun names the value (a placeholder, as `-f FILE  write to FILE`),
 * not a literal value. A word a noun follows is an adjective (esbuild `--sourcemap=inline  Emit
 * the source map with an inline data URL`): that literal stays one.
 */
function describedLiteralHead(head: OptionHead, descriptionLines: readonly string[]): OptionHead {
  const word = head.valueName === null && head.choices?.length === 1 ? head.choices[0] : undefined;
  if (word === undefined || !/^[a-z][a-z-]{2,30}$/.test(word)) return head;
  const noun = new RegExp(`(?:^|\\s)${word}(?=[.,;:)]|\\s*$|\\s+(?:and|or|to|for|of|in|on|with|that|which|from)\\b|\\s+[^a-z\\s])`);
  return noun.test(joinWrapped([head.rest, ...descriptionLines])) ? { ...head, valueName: word, choices: null } : head;
}

/**
 * qrencode `-l {LMQH}  … from L (lowest) to H (highest). (default=L)`: one braced word of distinct
 * letters is a character class (each letter a value, as GNU od's `[doxn]`) when the description
 * names two of its letters on their own; `{FILE}` with `write to FILE` stays one word.
 */
function letterClassChoices(choices: string[] | null, text: string): string[] | null {
  const word = choices?.length === 1 ? choices[0] : undefined;
  if (word === undefined || !/^[A-Za-z0-9]{2,16}$/.test(word)) return choices;
  const letters = [...word];
  if (new Set(letters).size !== letters.length) return choices;
  const named = letters.filter((letter) => new RegExp(String.raw`(?<![\w-])${letter}(?![\w-])`).test(text));
  return named.length >= 2 ? letters : choices;
}

/**
 * Older GNU helps quote with a backquote and an apostrophe (argp cflow `` `gnu' (default), `posix' ``): the same as `'gnu'`.
 * reStructuredText literals in double backquotes (rotate-backups ``` ``rm -fR`` ```) quote their text too.
 */
function withPlainQuotes(text: string): string {
  return text.replace(/`([^`'\s]{1,60})'/g, "'$1'").replace(/(?<!`)``([^`"\s](?:[^`"]{0,58}[^`"\s])?)``(?!`)/g, '"$1"');
}

/**
 * etcdctl's template prints every flag with its default as the value: `--limit=0`, `--order=""`,
 * and a bool as `--keys-only[=false]` (its default in brackets, as pflag shows a value that may be
 * left out). In such a help (marked by `--help[=false]`) a bracketed `true` / `false` is a flag's
 * default, and a bracketed list (`--endpoints=[127.0.0.1:2379]`) a value with no one default.
 */
function bracketedBoolHead(head: OptionHead, style: OptionStyle): { head: OptionHead; flagDefault: boolean | null; listDefault: boolean } {
  if (style.bracketedBoolDefaults !== true || !head.valueOptional || head.valueName === null) return { head, flagDefault: null, listDefault: false };
  if (/^(true|false)$/.test(head.valueName)) return { head: { ...head, valueName: null, valueOptional: false }, flagDefault: head.valueName === 'true', listDefault: false };
  return { head: { ...head, valueOptional: false }, flagDefault: null, listDefault: true };
}

/**
 * xz / streamzip `-0 ... -9  compression preset [Default: 6]`: the ellipsis between two numbered
 * flags is no value and `-9` no alias; the first flag is listed as a switch, and the level's default
 * belongs to the range, not to it. Undefined for any other head.
 */
function ellipsisRangeFlag(entry: Entry, style: OptionStyle): CliOption | null | undefined {
  const range = /^-(\d)\s+\.{3}\s+-\d\b/.exec(entry.head);
  if (range === null || entry.option === null) return undefined;
  const first = `-${range[1] ?? ''}`;
  const option = optionFromEntry({ ...entry, head: first, option: { ...entry.option, aliases: entry.option.aliases.filter((alias) => !/^-\d$/.test(alias)), repeatable: false } }, style);
  return option === null ? null : { ...option, takes_value: false, value_name: null, type: 'boolean', default: null, choices: null, repeatable: false };
}

/**
 * wait-on `Simultaneous / Concurrent connections to a resource, default Infinity` / `Setting this to 1
 * would …`: a hand-wrapped line ending in `default` and one value, the next line opening with a
 * capital, ends a sentence whose period was left out; the value ends there.
 */
function sentenceEndedDefaultLines(lines: readonly string[]): readonly string[] {
  return lines.map((line, index) => (/(?:^|[,;]\s+)default\s+[\w.+-]{1,40}$/i.test(line) && /^[A-Z][a-z]/.test(lines[index + 1] ?? '') ? `${line}.` : line));
}

/** `--ignore-[OPTION]`, `--penthouse-<name>`: a spelling that is a prefix for options the help does not list. */
const PREFIX_FAMILY_HEAD = /^\s*--[A-Za-z0-9][\w-]{0,40}-(?:\[[A-Za-z_]{1,20}\]|<[A-Za-z_]{1,20}>)(?=\s|$)/;

export function optionFromEntry(given: Entry, style: OptionStyle = {}): CliOption | null {
  const entry = style.usageBareFlags === undefined ? given : withUsageBareFlag(given, style.usageBareFlags);
  if (entry.option === null) return null;
  // pigz `-0 to -9, -11`, bzip2 `-1 .. -9`: a range of numbered flags, not one option
  if (/^-\d{1,2}\s+(?:to|\.\.)\s+-\d{1,2}\b/.test(entry.head)) return null;
  // meow critical `--ignore-[OPTION]  Pass options to postcss-discard`: a long name ending in a dash
  // glued to a placeholder names a family of pass-through options (`--ignore-atrule`), not one option
  if (PREFIX_FAMILY_HEAD.test(entry.head)) return null;
  const ellipsisRange = ellipsisRangeFlag(entry, style);
  if (ellipsisRange !== undefined) return ellipsisRange;
  const bracketed = bracketedBoolHead(entry.option, style);
  const definition = readValueDefinitionLine(bracketed.head, entry.description);
  const descriptionLines = sentenceEndedDefaultLines(definition?.lines ?? entry.description);
  const head = fullWordHead(describedLiteralHead(kongHead(definition?.head ?? bracketed.head, style), descriptionLines), style);
  // cwebp `-q <float> ............. quality factor`: the dot leader only leads the eye to the text
  const text = withPlainQuotes(joinWrapped([head.rest, ...descriptionLines])).replace(/^\.{3,}\s+/, '');
  // optipng `-o7   <=>   -zc1-9 -zm8-9 -zs0-3 -f0-5`: a spelling defined as equal to others is a shorthand, not an option
  if (/^<=>\s/.test(text.trim())) return null;
  // gitingest's reflowed docstring `  -t ghp_token     $ GITHUB_TOKEN=ghp_token gitingest`: a flag line whose
  // text opens with a shell prompt is the tail of one example and the start of the next, no option
  if (/^\$\s+\S/.test(text.trim())) return null;
  const facts = extractDescriptionFacts(text);
  const placeholder = head.valueName !== null || head.choices !== null;
  // stylelint `--globby-options=<json>  … Supported options are "braceExpansion", … and "ignore".`: a
  // JSON value is a document, and the words its prose lists are its keys, never whole values
  const jsonValue = /^[<[{=]*(?:json|object|obj)[>\]}]*$/i.test(head.valueName ?? '');
  const severalValues = takesSeveralPlaceholders(head);
  const prose = placeholder && !jsonValue && !severalValues
    ? (listedChoices(facts.description, head.valueName) ?? definitionListChoices([head.rest, ...descriptionLines]) ?? exampleListChoices(facts.description, facts.defaultText) ?? sentenceOpeningChoices(facts.description))
    : null;
  // urfave `(docs.go, swagger.json, swagger.yaml) like go,json,yaml (default: "go,json,yaml")`: a
  // list in prose that leaves out the quoted default is no list of the option's values
  // (pflag's `(default "")` states no default: d2 `(svg, png, ascii, …) … (default "")` keeps its list)
  const provenProse = prose !== null && offersOpenAlternative(facts.description) ? null : prose !== null && facts.defaultQuoted && facts.defaultText !== null && facts.defaultText !== '' && matchingChoice(facts.defaultText, prose) === undefined ? null : prose;
  // (argparse xlsx2csv `'tab' or 'x09' for a tab (default: comma ',')`: prose alternatives that leave it out are special values too)
  const provenFacts = facts.choices !== null && facts.choicesTagged !== true && facts.defaultQuoted && facts.defaultText !== null && facts.defaultText !== '' && matchingChoice(facts.defaultText, facts.choices) === undefined ? null : facts.choices;
  const sentenceChoices = severalValues && facts.choicesTagged !== true ? null : provenFacts;
  // ranger `--copy-config=which  … Possible values: all, rc, …`: a lone word after `=` that the list the
  // description states leaves out names the value, as a placeholder would
  const headChoices = head.choices?.length === 1 && provenProse !== null && provenProse.length >= 2 && !provenProse.includes(head.choices[0] ?? '') ? null : head.choices;
  const stated = definition?.choices ?? letterClassChoices(headChoices, text) ?? sentenceChoices ?? (placeholder ? provenProse : (wholeListChoices(facts.description) ?? setValueListChoices(facts.description)));
  // `[possible values: ]` names none: an empty list is no list; nor are examples of an open set
  // (terraform `-list=false  Don't list …`: a switch's state shown in its head is no one-value set)
  const choices = stated !== null && stated.length > 0 && !LONE_SWITCH_STATE.test(stated.length === 1 ? (stated[0] ?? '') : '') && !isOpenValueSet(stated, stated === facts.choices && facts.choicesTagged === true) && !(facts.choicesTagged !== true && namesFileContents(stated, head.valueName)) && !takesEmptyString(facts.description, stated) ? stated : null;
  const shape = valueShapeOf(head, facts, choices, text, style, entry.valueSection === true);
  const long = head.longs[0] ?? null;
  const option: CliOption = {
    long: long?.name ?? null,
    short: head.shorts[0] ?? null,
    aliases: head.aliases,
    takes_value: shape.takes,
    value_name: head.valueName,
    type: shape.type,
    default: defaultOf(head, facts, shape, choices, text) ?? (shape.takes ? (derivedChoiceDefault(facts.description, choices) ?? definitionLineDefault(descriptionLines, choices)) : null),
    choices: shape.takes ? choices : null,
    repeatable: head.repeatable || facts.repeatable || (!shape.takes && head.negation === null && isCountFlagDefault(text)),
    required: facts.required,
    negation: head.negation,
    description: facts.description.length > 0 ? clampDescription(facts.description) : null,
  };
  if (bracketed.flagDefault !== null && !shape.takes) option.default = bracketed.flagDefault;
  if (MARKED_DEFAULT.test(text.trim())) linesMarkedDefault.add(option);
  if (definition?.defaultText != null && option.default === null) option.default = definition.defaultText;
  literalLineStatedDefault(option, entry.head, facts);
  // kingpin `--ignored-dirs=vendor... ...`: a repeated option's placeholder shows the first of its defaults, no one default
  const fromPlaceholder = shape.takes && option.default === null && !bracketed.listDefault && (!head.repeatable || isOneRepeatedDefault(entry.head, style)) ? placeholderDefault(head.valueName, style, entry.head.trim()) : null;
  if (fromPlaceholder !== null) {
    // kong `--workers=4`: an unquoted number types the option
    if (option.type === 'string' && !/^"/.test(head.valueName ?? '')) option.type = typeFromDefault(fromPlaceholder, false) ?? 'string';
    const typed = coerceDefault(fromPlaceholder, option.type);
    option.default = choices !== null && !choices.includes(String(typed)) ? null : typed;
  }
  if (long !== null && long.dashes === '-') option.prefix = '-';
  if (head.valueOptional) option.value_optional = true;
  if (head.valueOptional && statesBareFlagValue(entry.head, head.valueName, option.description ?? '')) option.default = null;
  const separator = option.takes_value && option.choices !== null ? valueSeparatorOf(option.description) : undefined;
  if (separator !== undefined) option.value_separator = separator;
  // `--arg name value`, argparse `nargs=2`: one use of the option takes several values
  if (shape.takes && head.valueCount >= 2) {
    option.value_count = head.valueCount;
    if (head.variadicValues) option.variadic_values = true;
  } else if (shape.takes && head.variadicValues) {
    // argparse `nargs='+'`: `-i PKG [PKG ...]`: one use takes one or more values
    option.variadic_values = true;
  }
  // pflag (cobra) prints `(default true)` for a bool that is on unless `--name=false` is given
  if (!shape.takes && option.default === true && option.negation === null && long !== null && (/\(default true\)/.test(text) || bracketed.flagDefault === true)) {
    option.negation = `${long.dashes}${long.name}=false`;
  }
  if (style.colonDefaults === true) applyColonDefaultHead(option, entry.head);
  // the rule behind each field the entry decided, named for the claim's source (`help:clap.default-bracket`)
  const rules: Record<string, string> = {};
  if (option.default !== null) {
    rules.default = style.colonDefaults === true && option.value_name === null ? 'colon-default-head' : fromPlaceholder !== null && option.default !== null ? 'default-in-placeholder' : (facts.defaultRule ?? 'option-entry');
  }
  if (option.choices !== null) {
    rules.choices = option.choices === facts.choices ? (facts.choicesRule ?? 'option-entry') : option.choices === head.choices ? 'choices-placeholder' : option.choices === definition?.choices ? 'choices-definition-list' : option.choices === provenProse ? 'choices-listed' : 'option-entry';
  }
  if (option.takes_value && head.valueName !== null) rules.takes_value = 'placeholder';
  const reader = style.reader ?? 'generic';
  if (Object.keys(rules).length > 0) setSources(option, Object.fromEntries(Object.entries(rules).map(([field, rule]) => [field, `help:${reader}.${rule}`])));
  return option;
}

/**
 * eleventy `--to=json` / `--to=ndjson  Change the output to JSON or NDJSON (default: \`fs\`)`: lines
 * spelling one literal value each (zstd's `--format=zstd` lines) list the values the help writes out;
 * a one-word default stated beside them is one more value (the lines are merged later).
 */
function literalLineStatedDefault(option: CliOption, head: string, facts: DescriptionFacts): void {
  const literal = option.choices?.length === 1 ? option.choices[0] : undefined;
  if (literal === undefined || option.default !== null || facts.defaultText === null || option.long === null) return;
  if (!LITERAL_WORD.test(facts.defaultText) || facts.defaultText === literal) return;
  if (!new RegExp(String.raw`^\s*--?${option.long.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=${literal}\s*$`).test(head)) return;
  option.choices = [literal, facts.defaultText];
  option.default = facts.defaultText;
}

/** Folds a later line of the same option into the first (value forms, extra choices, default). */
function mergeInto(existing: CliOption, later: CliOption): void {
  if (!existing.takes_value && later.takes_value) {
    // `-save-temps` then `-save-temps=<arg>`: the value is optional
    existing.takes_value = true;
    existing.value_optional = true;
    existing.value_name = later.value_name;
    existing.type = later.type;
    existing.choices = later.choices;
    existing.default = later.default;
    return;
  }
  if (literalValueLines(existing, later)) return;
  if (existing.choices !== null && later.choices !== null) {
    existing.choices = [...new Set([...existing.choices, ...later.choices])];
  }
  if (existing.default === null && later.default !== null) existing.default = later.default;
}

const LITERAL_WORD = /^[a-z][a-z0-9-]{0,30}$/;
/** A description closed by `(default)`: the line's own value is the default. */
const MARKED_DEFAULT = /\(default\)\.?$/i;
/** The options read from lines closed by `(default)` (its annotation leaves the description). */
const linesMarkedDefault = new WeakSet<CliOption>();

/**
 * libjpeg `-copy none     Copy no extra markers` / `-copy comments Copy only comment markers
 * (default)` / `-copy all …`: one spelling on several lines, each with a lower-case word of its own,
 * lists the values (as zstd's `--format=zstd` lines do); the line closed by `(default)` names the
 * default. Returns whether `later` was folded in so.
 */
function literalValueLines(existing: CliOption, later: CliOption): boolean {
  const [first, next] = [existing.value_name ?? '', later.value_name ?? ''];
  if (!existing.takes_value || !later.takes_value || later.choices !== null || !LITERAL_WORD.test(next) || next === first) return false;
  if (existing.choices === null) {
    if (!LITERAL_WORD.test(first)) return false;
    existing.choices = [first];
    if (linesMarkedDefault.has(existing)) existing.default = first;
  } else if (!existing.choices.includes(first)) {
    return false;
  }
  existing.choices.push(next);
  if (existing.default === null && linesMarkedDefault.has(later)) existing.default = next;
  return true;
}

/** Drops help/version, merges repeated spellings, keeps the help's order; at most MAX_OPTIONS. */
/**
 * ack `-p, --proximate=LINES` then `-P, --proximate=0  Negates --proximate.`, `-T X, --type=noX`:
 * another short letter spelling the same long with a fixed value is an option of its own (the short
 * only); a literal value (`0`) makes it a flag, a placeholder (`X`) keeps the value.
 */
function ownShortSpelling(option: CliOption): CliOption {
  const literal = option.value_name !== null && /^(?:\d+(?:\.\d+)?|[a-z][a-z0-9-]*)$/.test(option.value_name);
  if (!literal) return { ...option, long: null, aliases: [], default: null };
  return { ...option, long: null, aliases: [], takes_value: false, value_name: null, type: 'boolean', default: null, choices: null };
}

/**
 * waitress `--[no-]ipv4  Toggle on/off IPv4 support.  Example:  --no-ipv4`: a bare line spelling
 * the negation an option listed above already has (an example under it) is that option again.
 */
function isRepeatedNegation(option: CliOption, listed: readonly CliOption[]): boolean {
  if (option.long === null || !option.long.startsWith('no-') || option.short !== null || option.takes_value || option.description !== null) return false;
  const spelling = `${option.prefix ?? '--'}${option.long}`;
  return listed.some((other) => other.negation === spelling);
}

/**
 * nats-server `-ms,--https_port`, `-DV  Debug and trace`: single-dash names of several letters that
 * repeat no one letter say one dash stands before every name (Go's flag package), so `-VV` there is a
 * name of its own, no flag given twice.
 */
function namesSeveralLettersAfterOneDash(parsed: readonly CliOption[]): boolean {
  return parsed.some((option) => ((option.short?.length ?? 0) > 1 && !/^(.)\1+$/.test(option.short ?? '')) || (option.prefix === '-' && /^[A-Za-z]{2,3}$/.test(option.long ?? '') && !/^(.)\1+$/.test(option.long ?? '') && option.short === null));
}

export function collectOptions(parsed: readonly CliOption[]): CliOption[] {
  const goNames = namesSeveralLettersAfterOneDash(parsed);
  const byLong = new Map<string, CliOption>();
  const seenShorts = new Set<string>();
  const options: CliOption[] = [];
  for (const option of parsed) {
    if (isHelpOrVersion(option)) continue;
    if (isRepeatedNegation(option, options)) continue;
    const sameLong = option.long !== null ? byLong.get(option.long) : undefined;
    if (sameLong !== undefined && sameLong.short !== null && option.short !== null && sameLong.short !== option.short && !seenShorts.has(option.short)) {
      options.push(ownShortSpelling(option));
      seenShorts.add(option.short);
      continue;
    }
    if (sameLong !== undefined) {
      mergeInto(sameLong, option);
      continue;
    }
    // inotifywait `-q|--quiet` then `-qq   Print nothing`: the letter of a flag with a `--long` spelling
    // (getopt, where one dash before several letters is a cluster) doubled is that flag given twice (a
    // count); Go's `-v` then `-vv` (one dash for every name) stays an option
    // (round 17: memcached `-vv  very verbose`, `-vvv  extremely verbose`: tripled too)
    const doubled = option.prefix === '-' && !option.takes_value && !goNames ? /^([A-Za-z])\1{1,2}$/.exec(option.long ?? '')?.[1] : undefined;
    const single = doubled === undefined ? undefined : options.find((other) => other.short === doubled && other.long !== null && other.prefix === undefined && !other.takes_value);
    if (single !== undefined) {
      single.repeatable = true;
      continue;
    }
    if (option.long === null && option.short !== null && seenShorts.has(option.short)) {
      // lzop `-p  write output to current dir` then `-pDIR  write to path 'DIR'`: the value is optional
      const sameShort = options.find((other) => other.long === null && other.short === option.short);
      // xxd `-r` then `-r -s off  revert with <off> added`: a line naming another flag too is a combination, no value of `-r`
      const combination = option.aliases.some((alias) => /^-[A-Za-z0-9]$/.test(alias));
      if (sameShort !== undefined && !sameShort.takes_value && option.takes_value && !combination) mergeInto(sameShort, option);
      continue;
    }
    if (options.length >= MAX_OPTIONS) break;
    if (option.long !== null) byLong.set(option.long, option);
    if (option.short !== null) seenShorts.add(option.short);
    options.push(option);
  }
  return options;
}

