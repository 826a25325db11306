/**
 * The usage-form option reader: options a usage form names with their values, whether or not the
 * options list shows them (one reader for the spellings below, each a case of "a spelling, maybe
 * a value word, inside a bracket group of a form"). New options are item-level claims (`exists`),
 * values given to listed options are field claims, all of `help:generic.usage-line`. Regexes are
 * bounded; forms are capped by the caller.
 *
 * - cwebp `[-preset <...>]`: a short option and its value word in a bracket (`addUsageOnlyOptions`);
 * - json2ts `[--input, -i] [IN_FILE]`, wuzz `[-H|--header HEADER]...`: spellings, then a value (`addUsageSpelledValueOptions`);
 * - doctoc `[--entryprefix prefix] [--notitle | --title title] [--syntax (md|mdx)]`: long groups, three or more unlisted (`addUsageLongOptions`);
 * - crudini `crudini --set [OPTION]...` / `crudini --get …`: one mode's long switch per form (`addUsageModeOptions`);
 * - mosquitto `{[-h host] … -t topic | -L URL}`: value words after a spelling inside a group (`applyGroupedUsageValues`);
 * - Pod::Usage `[ -e|-E perlexpr]*`: alternatives sharing a value word make a bare-listed option take it (`applyUsageValueWords`);
 * - mkcert `$ mkcert -install` over a sentence: a flag only an example shows (`addExampleOnlyFlags`).
 */
import { extractDescriptionFacts } from './annotations.ts';
import { statedChoices } from './description-values.ts';
import { listedChoices } from './listed-choices.ts';
import type { CliOption } from './spec.ts';
import type { Claimer, OptionClaims } from './reader/claims.ts';

/** An option a usage form or an example names: unset fields but those given. */
function namedOption({ long, short, takes_value, ...fields }: Partial<CliOption> & Pick<CliOption, 'long' | 'short' | 'takes_value'>): CliOption {
  const type = takes_value ? 'string' : 'boolean';
  return { long, short, aliases: [], takes_value, value_name: null, type, default: null, choices: null, repeatable: false, required: false, negation: null, description: null, ...fields };
}

/** Whether a long spelling is listed (as a name, an alias or a negation). */
function knownLong(options: readonly CliOption[], name: string): boolean {
  return options.some((option) => option.long === name || option.aliases.includes(`--${name}`) || option.negation === `--${name}`);
}

/** cwebp `[-preset <...>]`: a bracketed short option and its value word names an option taking a value. */
const VALUED_SHORT_GROUP = /\[(-[A-Za-z0-9]) ([a-z<][\w<>.-]{0,30})\]/g;

export function addUsageOnlyOptions(options: CliOption[], usageForms: readonly string[], emit: OptionClaims): void {
  for (const form of usageForms) {
    for (const group of form.matchAll(VALUED_SHORT_GROUP)) {
      const letter = (group[1] ?? '').slice(1);
      const known = options.some((option) => option.short === letter || option.aliases.includes(`-${letter}`) || (option.prefix === '-' && option.long === letter));
      if (known) continue;
      options.push(emit.exists(namedOption({ long: null, short: letter, takes_value: true, value_name: (group[2] ?? '').replace(/[<>]/g, '') })));
    }
  }
}

/**
 * json2ts `Usage: json2ts [--input, -i] [IN_FILE] [--output, -o] [OUT_FILE] [OPTIONS]`: a bracket of
 * one option's long and short spellings, then a bracketed placeholder in capitals, names an option
 * taking that value, even when no entry lists it (the placeholder may be given on its own too).
 */
const SPELLINGS_THEN_VALUE = /\[--([A-Za-z][\w-]{1,40}),\s*-([A-Za-z0-9])\]\s+\[([A-Z][A-Z0-9_]{1,30})\]/g;

/**
 * wuzz `Usage: wuzz [-H|--header HEADER]... [-d|--data|--data-binary DATA]`: a short spelling, then
 * long ones joined by `|`, then a value in capitals, all in one bracket, names options taking that
 * value; the short one spells the first long one (a letter spells one option), the others stand alone.
 */
const ALTERNATIVE_SPELLINGS_THEN_VALUE = /\[-([A-Za-z0-9])((?:\|--[A-Za-z][\w.-]{1,40}){1,3}) ([A-Z][A-Z0-9_]{1,30})\](\.{3})?/g;

function addAlternativeSpellingOptions(options: CliOption[], form: string, emit: OptionClaims): void {
  for (const group of form.matchAll(ALTERNATIVE_SPELLINGS_THEN_VALUE)) {
    const longs = (group[2] ?? '').split('|--').filter((name) => name.length > 0);
    const [letter, value, repeatable] = [group[1] ?? '', group[3] ?? '', group[4] !== undefined];
    longs.forEach((long, index) => {
      const short = index === 0 && !options.some((option) => option.short === letter) ? letter : null;
      if (options.some((option) => option.long === long || option.aliases.includes(`--${long}`))) return;
      options.push(emit.exists(namedOption({ long, short, takes_value: true, value_name: value, repeatable })));
    });
  }
}

export function addUsageSpelledValueOptions(options: CliOption[], usageForms: readonly string[], emit: OptionClaims): void {
  for (const form of usageForms) {
    addAlternativeSpellingOptions(options, form, emit);
    for (const group of form.matchAll(SPELLINGS_THEN_VALUE)) {
      const [long, letter, value] = [group[1] ?? '', group[2] ?? '', group[3] ?? ''];
      if (options.some((option) => option.long === long || option.short === letter || option.aliases.includes(`--${long}`))) continue;
      options.push(emit.exists(namedOption({ long, short: letter, takes_value: true, value_name: value })));
    }
  }
}

/**
 * `[ -e|-E perlexpr]`: short options joined by `|`, then one value word, all in one bracket; argh
 * `[--validate <validate>]`, `[-D <defines...>]`: one spelling and its `<value>`. Round 18, npm's option
 * synopsis: a short and a long spelling (`[-w|--workspace <workspace-name> [-w|--workspace …]]`, the group
 * opening its own repetition) and a value set (`[--omit <dev|optional|peer>]`).
 */
const VALUED_ALTERNATIVES = /\[\s*(-[A-Za-z0-9](?:\|-[A-Za-z0-9])+|-[A-Za-z0-9]\|--[A-Za-z0-9][\w-]{0,40}|--?[A-Za-z0-9][\w-]{0,40})\s+([a-z][\w-]{1,30}|[A-Z][A-Z0-9_]{0,30}|<[A-Za-z][\w-]{0,40}(?:\.{3})?>|<[a-z0-9][\w.-]{0,20}(?:\|[a-z0-9][\w.-]{0,20}){1,20}>|\[?<\.{3}>\]?)(?:\s*\]|\s+\[\1\s)/g;

/** npm `<info|low|high>`: the values set apart by `|` in angle brackets are the option's choices. */
const VALUE_SET = /^<([a-z0-9][\w.-]*(?:\|[\w.-]+)+)>$/;

/**
 * cleo 0.x `migrate [-m <...>] [--schema [<...>]]`: `<...>` stands for any value, and in brackets
 * for one that may be left out.
 */
const ANY_VALUE = /^(\[?)<\.{3}>\]?$/;

/**
 * zip `[-xi list]`, docopt `[-fsa ALIAS]`: a cluster of letters no option spells, each a listed short
 * flag, gives the value word to its last letter (getopt reads a cluster so: `-i list`); otherwise the
 * spellings joined by `|`.
 */
function clusterSpellings(spellings: string, options: readonly CliOption[]): string[] {
  const letters = /^-([A-Za-z0-9]{2,6})$/.exec(spellings)?.[1];
  const listed = (name: string): boolean => options.some((option) => option.short === name || option.long === name);
  if (letters !== undefined && !listed(letters) && [...letters].every(listed)) return [`-${letters.slice(-1)}`];
  return spellings.split('|');
}

/**
 * Pod::Usage (file-rename): `[ -e|-E perlexpr]*` in the usage, while the list shows `-e
 * Expression: code to act on files name.` bare: alternatives sharing a value word in the usage take
 * that value.
 */
export function applyUsageValueWords(options: CliOption[], usageForms: readonly string[], claim: Claimer): void {
  for (const form of usageForms) {
    for (const group of form.matchAll(VALUED_ALTERNATIVES)) {
      for (const spelling of clusterSpellings(group[1] ?? '', options)) {
        const name = spelling.replace(/^-+/, '');
        const option = spelling.startsWith('--')
          ? options.find((candidate) => candidate.long === name && candidate.prefix === undefined)
          : options.find((candidate) => candidate.short === name && (candidate.long === null || !(group[1] ?? '').includes('|')));
        if (option === undefined || option.takes_value) continue;
        const word = group[2] ?? '';
        const anyValue = ANY_VALUE.exec(word);
        if (anyValue !== null && word.startsWith('[') !== word.endsWith(']')) continue;
        claim(option, 'takes_value', true);
        claim(option, 'type', 'string');
        const valueSet = VALUE_SET.exec(word)?.[1]?.split('|') ?? null;
        claim(option, 'value_name', valueSet !== null ? null : anyValue === null ? word.replace(/^<|(?:\.{3})?>$/g, '') : null);
        if (valueSet !== null && valueSet.length > 1) claim(option, 'choices', valueSet);
        claim(option, 'default', null);
        if (anyValue !== null && anyValue[1] === '[') claim(option, 'value_optional', true);
        if (anyValue === null && /\.{3}>$/.test(word)) claim(option, 'repeatable', true);
        // now that a value is taken, the values its prose lists are its choices (as for a placeholder)
        const listed = option.choices === null && option.description !== null ? (listedChoices(option.description, null) ?? statedChoices(option.description)) : null;
        if (listed !== null) claim(option, 'choices', listed);
        // …and the default its prose states (`` `Unchecked` is the default.``), when it is one of them
        const stated = option.description === null ? null : extractDescriptionFacts(option.description).defaultText;
        if (stated !== null && stated.length > 0 && (option.choices === null || option.choices.includes(stated))) claim(option, 'default', stated);
      }
    }
  }
}

/**
 * mkcert documents two of its flags only by example: `\t$ mkcert -install` over `\tInstall the local
 * CA in the system trust store.` An example running the program with one flag and nothing else,
 * with a sentence under it, shows a flag the options list leaves out.
 */
export function addExampleOnlyFlags(options: CliOption[], lines: readonly string[], program: string | null, emit: OptionClaims): void {
  if (program === null) return;
  lines.forEach((line, index) => {
    const example = /^\s+\$ (\S+) (--?[A-Za-z][\w-]{0,40})\s*$/.exec(line);
    const next = (lines[index + 1] ?? '').trim();
    if (example === null || example[1] !== program || !/^[A-Z][a-z]/.test(next)) return;
    const spelling = example[2] ?? '';
    const name = spelling.replace(/^-+/, '');
    const dashes = spelling.startsWith('--') ? '--' : '-';
    const known = options.some((option) => option.long === name || (name.length === 1 && option.short === name) || option.aliases.includes(spelling));
    if (known) return;
    const single = name.length === 1;
    options.push(emit.exists(namedOption({ long: single ? null : name, short: single ? name : null, takes_value: false, description: next, ...(dashes === '-' && !single ? { prefix: '-' as const } : {}) })));
  });
}

/**
 * `[--a x | --b]`: a bracket group holding only long spellings, joined by `|` (live-server `[-q|--quiet]`:
 * the first maybe after its short spelling).
 */
const LONG_GROUP = /\[\s*((?:-[A-Za-z0-9]\|)?--[A-Za-z0-9][^\[\]]{0,120}?)\s*\]/g;
/**
 * `--title title`, `--maxlevel <level>`, `--syntax (md|mdx)`, `--all`: one spelling and at most one value
 * (live-server `--port=PORT`, `--mount=ROUTE:PATH`: a value word in capitals after `=`; patchelf
 * `--set-rpath RPATH`, `--replace-needed LIBRARY NEW_LIBRARY`: one or two after a space, two a value each).
 * Round 18: docopt's angle brackets may hold words (`--canid=<canid address>`) or the values set
 * apart by `|` (`--type=<host|ns|mx>`: its choices, like `(md|mdx)`).
 */
const ALTERNATIVE = /^--([A-Za-z0-9][\w-]{0,40})(?:[ =](?:([a-z][\w-]{0,30})|<([A-Za-z][\w -]{0,30})>|[({<]([a-z0-9][\w.-]{0,20}(?:\|[a-z0-9][\w.-]{0,20})+)[)}>])|=([A-Z][A-Z0-9_]{0,30}(?::[A-Z][A-Z0-9_]{0,30})?)| ([A-Z][A-Z0-9_]{0,30})(?: ([A-Z][A-Z0-9_]{0,30}))?)?$/;

/**
 * doctoc (minimist by hand): a bracket group of long spellings, each maybe with one value word, a
 * `<value>` or a `(a|b)` set, names options; when a form names three or more no entry lists, they are added.
 */

/** Spellings that are no option of the program's own: help and version, and placeholders for options (`[--flags]`, invoke `[--core-opts]`). */
const NOT_AN_OPTION_LONG = /^(?:help|version|(?:[\w-]+-)?(?:opts|options|flags|args))$/i;

/** At least this many unlisted options in one form: a stray unlisted spelling (git's `[--allow-empty]`) is no usage-only documentation. */
const MIN_UNLISTED = 3;

export function addUsageLongOptions(options: CliOption[], usageForms: readonly string[], emit: OptionClaims): void {
  // round 18: a name an earlier form added is still unlisted by the entries, so it counts toward
  // this form's MIN_UNLISTED (docopt hellfire: each mode's form repeats the shared options)
  const entries = [...options];
  for (const form of usageForms) {
    const added: CliOption[] = [];
    const repeated = new Set<string>();
    for (const group of form.matchAll(LONG_GROUP)) {
      const short = /^-([A-Za-z0-9])\|/.exec(group[1] ?? '')?.[1] ?? null;
      const alternatives = (group[1] ?? '').replace(/^-[A-Za-z0-9]\|/, '').split(/\s*\|\s*(?=--)/).map((alternative) => ALTERNATIVE.exec(alternative.trim()));
      if (alternatives.some((alternative) => alternative === null)) continue;
      for (const [index, alternative] of alternatives.entries()) {
        const name = alternative?.[1];
        if (name !== undefined && knownLong(options, name) && !knownLong(entries, name)) repeated.add(name);
        if (name === undefined || NOT_AN_OPTION_LONG.test(name) || knownLong(options, name) || added.some((option) => option.long === name)) continue;
        const choices = alternative?.[4]?.split('|') ?? null;
        const valueName = alternative?.[2] ?? alternative?.[3] ?? alternative?.[5] ?? alternative?.[6] ?? null;
        const secondValue = alternative?.[7] !== undefined;
        const takes = valueName !== null || choices !== null;
        const letter = index === 0 && short !== null && !options.some((option) => option.short === short) ? short : null;
        added.push(namedOption({ long: name, short: letter, takes_value: takes, value_name: valueName, choices, ...(secondValue ? { value_count: 2 } : {}) }));
      }
    }
    if (added.length + repeated.size >= MIN_UNLISTED) options.push(...added.map((option) => emit.exists(option)));
  }
}

/** crudini: forms of one program, each opening with a different long switch, name those switches. */
/**
 * Round 18: the mode's spelling may be followed by a required option too (docopt
 * `hellfire --csv --file=<filename> [--output=…]`), not only by a bracket.
 */
const MODE_FORM = /^(\S{1,80})\s+--([A-Za-z0-9][\w-]{0,40})\s+(?:\[|--[A-Za-z0-9])/;
const NOT_A_MODE = /^(?:help|version)$/;

export function addUsageModeOptions(options: CliOption[], usageForms: readonly string[], emit: OptionClaims): void {
  const modes = usageForms.map((form) => MODE_FORM.exec(form.trim())).filter((match): match is RegExpExecArray => match !== null);
  const programs = new Set(modes.map((match) => match[1]));
  const names = [...new Set(modes.map((match) => match[2] ?? ''))];
  if (programs.size !== 1 || names.length < 2 || names.length !== modes.length) return;
  for (const name of names) {
    if (NOT_A_MODE.test(name) || knownLong(options, name)) continue;
    options.push(emit.exists(namedOption({ long: name, short: null, takes_value: false })));
  }
}

/** mosquitto: inside a group, a spelling followed by value words up to the group's end, a `|` or another spelling takes that many values. */
const GROUPED_VALUE = /(?<=^|[\s[{(|])(-[A-Za-z0-9]|--[A-Za-z0-9][\w-]{0,40})((?:\s+(?:[a-z][\w-]{0,30}|[A-Z][A-Z0-9_]{0,30}|<[A-Za-z][\w-]{0,40}>)){1,3})(?=\s*(?:[\]})|[]|-{1,2}[A-Za-z0-9]))/g;

/** How many groups are open before `index` in a form (`[`, `{`, `(` against their closers). */
function depthAt(form: string, index: number): number {
  let depth = 0;
  for (const character of form.slice(0, index)) {
    if ('[{('.includes(character)) depth += 1;
    else if (']})'.includes(character)) depth = Math.max(0, depth - 1);
  }
  return depth;
}

export function applyGroupedUsageValues(options: CliOption[], usageForms: readonly string[], emit: OptionClaims): void {
  for (const form of usageForms) {
    for (const match of form.matchAll(GROUPED_VALUE)) {
      if (depthAt(form, match.index) === 0) continue;
      const spelling = match[1] ?? '';
      const words = (match[2] ?? '').trim().split(/\s+/);
      const name = spelling.replace(/^-+/, '');
      const long = spelling.startsWith('--');
      const known = options.find((option) => (long ? option.long === name && option.prefix === undefined : option.short === name));
      const valueName = (words[0] ?? '').replace(/[<>]/g, '');
      if (known === undefined) {
        options.push(emit.exists(namedOption({ long: long ? name : null, short: long ? null : name, takes_value: true, value_name: valueName, ...(words.length > 1 ? { value_count: words.length } : {}) })));
        continue;
      }
      if (known.takes_value || known.negation !== null) continue;
      emit.claim(known, 'takes_value', true);
      emit.claim(known, 'type', 'string');
      emit.claim(known, 'value_name', valueName);
      emit.claim(known, 'default', null);
      if (words.length > 1) emit.claim(known, 'value_count', words.length);
    }
  }
}
