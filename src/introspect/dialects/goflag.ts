/**
 * The Go `flag` dialect (fingerprint `goflag`). Three parts, each read as the help shows it:
 *
 * Flag lines (`looksLikeGoFlag`, `extractGoFlags`):
 * Go's standard `flag` package help: `Usage of NAME:` then entries such as
 *
 *     -addr address
 *     	listen address for the HTTP server (default ":8080")
 *     -v	enable verbose logging
 *
 * Options are single-dash (`prefix: '-'`); descriptions follow on tab-indented lines.
 *
 * DefValues without placeholders (`applyGoDefValues`):
 * Go programs with a usage of their own (ffuf) print every flag as `-name   Description (default:
 * DefValue)`, with no placeholder for any. Go's `flag` gives every bool flag a DefValue (`false` or
 * `true`), and such usages print it; a string flag's DefValue is empty and is left out. So where
 * Go-style flags (`-ignore-body`, one dash before a long name) show no placeholder and switches
 * state `(default: false)`, a flag without any stated default is a string flag: it takes a value.
 *
 * Colon-default heads (`isColonDefaultHelp`, `applyColonDefaultHead`):
 * Go's `flag` package before Go 1.5, and pflag forks of that age (reflex), print every flag with its
 * default after `=` and a colon closing the head: `  -c, --config="": ` / `      --all=false: `,
 * the usage on the next line (or after the colon). What follows `=` is the default, never a
 * placeholder: `false` / `true` mark a switch, `[]` (a slice) a repeatable value with no default,
 * `""` a value with none, anything else (`500ms`, `"plain"`) a value and its default. kubectl's
 * templates print the same heads with the string in single quotes (`--dry-run='none':`, `--output='':`).
 */
import { extractDescriptionFacts } from '../annotations.ts';
import { definitionListChoices, listedChoices } from '../listed-choices.ts';
import { clampDescription, indentOf, MAX_OPTIONS } from '../limits.ts';
import { isProseDefault } from '../option-entry.ts';
import { isOpenValueSet } from '../open-value-set.ts';
import type { CliOption, CliValueType } from '../spec.ts';
import { coerceDefault, typeFromDefault, typeFromValueName } from '../value-type.ts';
import type { Claimer } from '../reader/claims.ts';
import { claimTakesValue } from '../reader/option-claims.ts';

const GO_OPTION_LINE = /^ {2}-([A-Za-z0-9][\w.-]{0,80})(?: ([^\s\t]{1,40}))?(?:\t(.*))?$/;
const GO_DESCRIPTION_LINE = /^ {4}\t(.*)$/;

export interface GoFlagExtraction {
  options: CliOption[];
  /** Indexes of the lines that belonged to Go flag entries. */
  consumed: Set<number>;
}

/**
 * Go flag lists name an open set as often as other helps do (gomodifytags `i.e: "column:{field}",
 * "field_name={field}"`: templates): the same open-set test as option entries, or no choices.
 */
function closedChoices(choices: string[] | null, tagged: boolean): string[] | null {
  return choices !== null && isOpenValueSet(choices, tagged) ? null : choices;
}

/**
 * deadcode `-filter string  report only packages matching this regular expression (default: module of
 * first package) (default "<module>")`: the `(default "…")` that Go's flag package closes the line
 * with is the value itself, even where the author's usage text told the default in prose before it.
 */
function frameworkDefault(description: string, proseDefault: string | null): string | null {
  if (proseDefault === null) return null;
  const printed = /\(default "((?:[^"\\]|\\.){1,200})"\)$/.exec(description.trim());
  return printed === null ? null : (printed[1] ?? '').replace(/\\(["\\])/g, '$1');
}

/** True when the lines look like Go `flag` output. */
export function looksLikeGoFlag(lines: readonly string[]): boolean {
  let entries = 0;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (GO_OPTION_LINE.test(line)) {
      const next = lines[index + 1] ?? '';
      if (GO_DESCRIPTION_LINE.test(next) || line.includes('\t')) entries += 1;
    }
  }
  return entries > 0 && (/^usage of \S+(?: [a-z][\w-]*){0,3}:$/i.test(lines[0]?.trim() ?? '') || entries >= 2);
}

function goValueType(valueName: string | null, defaultText: string | null, defaultQuoted: boolean): CliValueType {
  if (valueName === null) return 'boolean';
  switch (valueName) {
    case 'int':
    case 'uint':
      return 'integer';
    case 'float':
      return 'number';
    case 'string':
    case 'duration':
      return 'string';
    // a custom flag.Value: only its default hints at a type (vegeta `-max-body value … (default -1)`)
    case 'value':
      return defaultText === null ? 'string' : (typeFromDefault(defaultText, defaultQuoted) ?? 'string');
    default: {
      const hinted = typeFromValueName(valueName);
      // benchstat `-confidence level … (default 0.95)`: a decimal default makes an integer-sounding name a number
      if (hinted === 'integer' && defaultText !== null && typeFromDefault(defaultText, defaultQuoted) === 'number') return 'number';
      if (hinted !== null) return hinted;
      return defaultText === null ? 'string' : (typeFromDefault(defaultText, defaultQuoted) ?? 'string');
    }
  }
}

export function extractGoFlags(lines: readonly string[]): GoFlagExtraction {
  const options: CliOption[] = [];
  const consumed = new Set<number>();
  for (let index = 0; index < lines.length && options.length < MAX_OPTIONS; index += 1) {
    const match = GO_OPTION_LINE.exec(lines[index] ?? '');
    if (!match) continue;
    const name = match[1] ?? '';
    const valueName = match[2] ?? null;
    const descriptionParts: string[] = [];
    if (match[3] !== undefined) descriptionParts.push(match[3]);
    consumed.add(index);
    while (index + 1 < lines.length) {
      const next = GO_DESCRIPTION_LINE.exec(lines[index + 1] ?? '');
      if (!next) break;
      descriptionParts.push(next[1] ?? '');
      index += 1;
      consumed.add(index);
    }
    const facts = extractDescriptionFacts(descriptionParts.join(' '));
    const type = goValueType(valueName, facts.defaultText, facts.defaultQuoted);
    const single = name.length === 1;
    const isBoolean = valueName === null;
    // mockgen `Output file; defaults to stdout.`, `defaults to the package of the input`: prose, as in any other help
    const names = [name, ...(valueName === null ? [] : [valueName])];
    const proseStated = facts.defaultText !== null && !isProseDefault(facts.defaultText, facts.defaultQuoted, !isBoolean, type, null, names) ? facts.defaultText : null;
    const stated = proseStated ?? frameworkDefault(descriptionParts.join(' '), facts.defaultText);
    const defaultValue = stated === null ? null : coerceDefault(stated, type);
    options.push({
      long: single ? null : name,
      short: single ? name : null,
      aliases: [],
      takes_value: !isBoolean,
      value_name: valueName,
      type,
      default: defaultValue,
      // benchstat `print results in format:` over `  text - plain text` / `  csv  - comma-separated values`
      choices: closedChoices(facts.choices ?? (isBoolean ? null : (listedChoices(facts.description, valueName) ?? definitionListChoices(descriptionParts.map((part) => part.trim()), descriptionParts.map(indentOf)))), facts.choicesTagged === true),
      repeatable: facts.repeatable,
      required: facts.required,
      // A Go bool flag that defaults to true is switched off with `-name=false`.
      negation: isBoolean && defaultValue === true ? `-${name}=false` : null,
      description: facts.description.length > 0 ? clampDescription(facts.description) : null,
      prefix: '-',
    });
  }
  return { options, consumed };
}

/** At least this many flags stating a boolean default before the rule holds. */
const MIN_BOOLEAN_DEFAULTS = 2;

/** True when the options are Go flags printed with their DefValues and no placeholders. */
function printsGoDefValues(options: readonly CliOption[]): boolean {
  if (!options.some((option) => option.prefix === '-' && option.long !== null)) return false;
  if (options.some((option) => option.value_name !== null || option.choices !== null || option.negation !== null)) return false;
  return options.filter((option) => typeof option.default === 'boolean').length >= MIN_BOOLEAN_DEFAULTS;
}

/**
 * Marks the flags that state no default as value-taking, in a Go usage that prints DefValues; a
 * value-taking flag's prose list (`Available modes: clusterbomb, pitchfork`) then gives its choices
 * when it holds the stated default, or when there is none.
 */
export function applyGoDefValues(options: CliOption[], claim: Claimer): void {
  if (!printsGoDefValues(options)) return;
  for (const option of options) {
    if (!option.takes_value && option.default === null) claimTakesValue(claim, option);
    if (!option.takes_value || option.choices !== null || option.description === null) continue;
    const listed = listedChoices(option.description, null);
    if (listed !== null && (option.default === null || listed.includes(String(option.default)))) claim(option, 'choices', listed);
  }
}

const COLON_DEFAULT_LINE = /^\s*(?:-[A-Za-z0-9], )?--?[A-Za-z][\w-]*=(?:"[^"]*"|'[^']*'|\[[^\]\s]*\]|[^\s"'[]*):(?:\s|$)/;
const COLON_DEFAULT_HEAD = /^(?:-[A-Za-z0-9], )?--?[A-Za-z][\w-]*=("[^"]*"|'[^']*'|\[[^\]\s]*\]|[^\s"'[]*):(?=\s|$)/;
/** A help of this format prints every flag so: a few such lines say the format, not a stray line. */
const MIN_LINES = 3;
/**
 * Go prints a switch's default (`--all=false:`) or a string's quoted (`--config="":`): a help with
 * none of them is hand-written with placeholders after `=` (zopflipng `--iterations=[number]:`,
 * `--keepchunks=nAME,nAME,...:`), which are no defaults.
 */
const GO_DEFAULT_LINE = /^\s*(?:-[A-Za-z0-9], )?--?[A-Za-z][\w-]*=(?:"[^"]*"|'[^']*'|true|false):(?:\s|$)/;

/** True when the help prints its flags as `--name=DEFAULT:` heads. */
export function isColonDefaultHelp(lines: readonly string[]): boolean {
  return (
    lines.filter((line) => COLON_DEFAULT_LINE.test(line)).length >= MIN_LINES &&
    lines.some((line) => GO_DEFAULT_LINE.test(line))
  );
}

/** Reads an option's head `--name=DEFAULT:` (in such a help) into value-taking and its default. */
export function applyColonDefaultHead(option: CliOption, head: string): void {
  const match = COLON_DEFAULT_HEAD.exec(head.trim());
  const value = match?.[1];
  if (match === null || value === undefined) return;
  option.value_name = null;
  // Go 1.4 `  -verbose=false: log more`: the usage after the colon, one space on, is no placeholder
  const usage = head.trim().slice(match[0].length).trim();
  if (usage.length > 0 && option.description === null) option.description = usage;
  if (value === 'true' || value === 'false') {
    option.takes_value = false;
    option.type = 'boolean';
    option.choices = null;
    option.default = value === 'true';
    // a switch that is on is turned off with `--name=false`
    if (value === 'true' && option.long !== null) option.negation = `${option.prefix ?? '--'}${option.long}=false`;
    return;
  }
  option.takes_value = true;
  if (value.startsWith('[')) {
    option.repeatable = true;
    option.default = null;
    return;
  }
  const quoted = /^"(.*)"$/.exec(value) ?? /^'(.*)'$/.exec(value);
  const text = quoted === null ? value : (quoted[1] ?? '');
  if (text.length === 0) {
    option.default = null;
    return;
  }
  if (option.type === 'string' && quoted === null) option.type = typeFromDefault(text, false) ?? 'string';
  const typed = coerceDefault(text, option.type);
  option.default = option.choices !== null && !option.choices.includes(String(typed)) ? null : typed;
}

/**
 * The line of Go's `Usage of NAME:` title: the first line, or the third under a one-line headline and
 * a blank line (cfssl `\tcfssl gencert -- generate a new key and signed certificate`); 0 otherwise.
 */
function goUsageLineIndex(lines: readonly string[]): number {
  const title = /^usage of \S/i;
  if (title.test(lines[0]?.trim() ?? '')) return 0;
  return (lines[0]?.trim() ?? '').length > 0 && (lines[1]?.trim() ?? '') === '' && title.test(lines[2] ?? '') && /:$/.test(lines[2] ?? '') ? 2 : 0;
}

/** Go's `Usage of NAME:` title: its line, the name it quotes (`'go tool cover'`) or the plain one. */
export function goUsageOf(lines: readonly string[]): { index: number; quoted: string | null; plain: string | null } | null {
  const index = goUsageLineIndex(lines);
  const title = goUsageTitle(lines[index] ?? '');
  return title === null ? null : { index, quoted: title[1] ?? null, plain: title[2] ?? null };
}

/**
 * Go: `Usage of NAME:` or `Usage of 'go tool cover':`, or `Usage of vegeta attack:` (a subcommand's
 * own FlagSet named with its path): [1] the quoted name, [2] the plain one; null for another line.
 */
function goUsageTitle(line: string): RegExpExecArray | null {
  return /^usage of (?:'([^']{1,80})'|(\S+(?: [a-z][\w-]*){0,3})):$/i.exec(line.trim());
}
