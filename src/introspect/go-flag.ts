/**
 * Go's standard `flag` package help: `Usage of NAME:` then entries such as
 *
 *     -addr address
 *     	listen address for the HTTP server (default ":8080")
 *     -v	enable verbose logging
 *
 * Options are single-dash (`prefix: '-'`); descriptions follow on tab-indented lines.
 */
import { extractDescriptionFacts } from './annotations.ts';
import { definitionListChoices, listedChoices } from './listed-choices.ts';
import { clampDescription, indentOf, MAX_OPTIONS } from './limits.ts';
import { isProseDefault } from './option-entry.ts';
import { isOpenValueSet } from './open-value-set.ts';
import type { CliOption, CliValueType } from './spec.ts';
import { coerceDefault, typeFromDefault, typeFromValueName } from './value-type.ts';

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
