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
