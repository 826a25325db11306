/**
 * cwebp's usage names an option its list leaves out: `cwebp [-preset <...>] [options] in_file
 * [-o out_file]`. A bracketed group of a short option and its value word, in a usage form, names an
 * option taking a value even when no entry lists it.
 */
import { extractDescriptionFacts } from './annotations.ts';
import { statedChoices } from './description-values.ts';
import { listedChoices } from './listed-choices.ts';
import type { CliOption } from './spec.ts';
import type { Claimer, OptionClaims } from './reader/claims.ts';

const VALUED_SHORT_GROUP = /\[(-[A-Za-z0-9]) ([a-z<][\w<>.-]{0,30})\]/g;

export function addUsageOnlyOptions(options: CliOption[], usageForms: readonly string[], emit: OptionClaims): void {
  for (const form of usageForms) {
    for (const group of form.matchAll(VALUED_SHORT_GROUP)) {
      const letter = (group[1] ?? '').slice(1);
      const known = options.some((option) => option.short === letter || option.aliases.includes(`-${letter}`) || (option.prefix === '-' && option.long === letter));
      if (known) continue;
      options.push(
        emit.exists({
          long: null, short: letter, aliases: [], takes_value: true, value_name: (group[2] ?? '').replace(/[<>]/g, ''), type: 'string', default: null,
          choices: null, repeatable: false, required: false, negation: null, description: null,
        }),
      );
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
      options.push(
        emit.exists({
          long, short, aliases: [], takes_value: true, value_name: value, type: 'string', default: null,
          choices: null, repeatable, required: false, negation: null, description: null,
        }),
      );
    });
  }
}

export function addUsageSpelledValueOptions(options: CliOption[], usageForms: readonly string[], emit: OptionClaims): void {
  for (const form of usageForms) {
    addAlternativeSpellingOptions(options, form, emit);
    for (const group of form.matchAll(SPELLINGS_THEN_VALUE)) {
      const [long, letter, value] = [group[1] ?? '', group[2] ?? '', group[3] ?? ''];
      if (options.some((option) => option.long === long || option.short === letter || option.aliases.includes(`--${long}`))) continue;
      options.push(
        emit.exists({
          long, short: letter, aliases: [], takes_value: true, value_name: value, type: 'string', default: null,
          choices: null, repeatable: false, required: false, negation: null, description: null,
        }),
      );
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
    options.push(
      emit.exists({
        long: single ? null : name, short: single ? name : null, aliases: [], takes_value: false, value_name: null, type: 'boolean', default: null,
        choices: null, repeatable: false, required: false, negation: null, description: next,
        ...(dashes === '-' && !single ? { prefix: '-' as const } : {}),
      }),
    );
  });
}
