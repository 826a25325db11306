/**
 * cwebp's usage names an option its list leaves out: `cwebp [-preset <...>] [options] in_file
 * [-o out_file]`. A bracketed group of a short option and its value word, in a usage form, names an
 * option taking a value even when no entry lists it.
 */
import type { CliOption } from './spec.ts';

const VALUED_SHORT_GROUP = /\[(-[A-Za-z0-9]) ([a-z<][\w<>.-]{0,30})\]/g;

export function addUsageOnlyOptions(options: CliOption[], usageForms: readonly string[]): void {
  for (const form of usageForms) {
    for (const group of form.matchAll(VALUED_SHORT_GROUP)) {
      const letter = (group[1] ?? '').slice(1);
      const known = options.some((option) => option.short === letter || option.aliases.includes(`-${letter}`) || (option.prefix === '-' && option.long === letter));
      if (known) continue;
      options.push({
        long: null, short: letter, aliases: [], takes_value: true, value_name: (group[2] ?? '').replace(/[<>]/g, ''), type: 'string', default: null,
        choices: null, repeatable: false, required: false, negation: null, description: null,
      });
    }
  }
}

/** `[ -e|-E perlexpr]`: short options joined by `|`, then one value word, all in one bracket. */
const VALUED_ALTERNATIVES = /\[\s*(-[A-Za-z0-9](?:\|-[A-Za-z0-9])+)\s+([a-z][\w-]{1,30})\s*\]/g;

/**
 * Pod::Usage (file-rename): `[ -e|-E perlexpr]*` in the usage, while the list shows `-e
 * Expression: code to act on files name.` bare: alternatives sharing a value word in the usage take
 * that value.
 */
export function applyUsageValueWords(options: CliOption[], usageForms: readonly string[]): void {
  for (const form of usageForms) {
    for (const group of form.matchAll(VALUED_ALTERNATIVES)) {
      for (const spelling of (group[1] ?? '').split('|')) {
        const option = options.find((candidate) => candidate.short === spelling.slice(1) && candidate.long === null);
        if (option === undefined || option.takes_value) continue;
        option.takes_value = true;
        option.type = 'string';
        option.value_name = group[2] ?? null;
        option.default = null;
      }
    }
  }
}
