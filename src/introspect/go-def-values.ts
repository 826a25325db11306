/**
 * Go programs with a usage of their own (ffuf) print every flag as `-name   Description (default:
 * DefValue)`, with no placeholder for any. Go's `flag` gives every bool flag a DefValue (`false` or
 * `true`), and such usages print it; a string flag's DefValue is empty and is left out. So where
 * Go-style flags (`-ignore-body`, one dash before a long name) show no placeholder and switches
 * state `(default: false)`, a flag without any stated default is a string flag: it takes a value.
 */
import { listedChoices } from './listed-choices.ts';
import type { CliOption } from './spec.ts';

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
export function applyGoDefValues(options: CliOption[]): void {
  if (!printsGoDefValues(options)) return;
  for (const option of options) {
    if (!option.takes_value && option.default === null) {
      option.takes_value = true;
      option.type = 'string';
    }
    if (!option.takes_value || option.choices !== null || option.description === null) continue;
    const listed = listedChoices(option.description, null);
    if (listed !== null && (option.default === null || listed.includes(String(option.default)))) option.choices = listed;
  }
}
