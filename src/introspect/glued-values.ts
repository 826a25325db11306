/**
 * lz4 lists `-B#  cut file into blocks of size # bytes` and then `-BI  Block Independence`,
 * `-BD  Block dependency`: the option reads what is glued after its letter, so `-BD` is `-B` given
 * the value `D`, not an option of its own. A single-dash spelling of two or three characters that
 * starts with the letter of a `-X#` option is such a value, and is dropped.
 */
import type { CliOption } from './spec.ts';

export function dropGluedValueSpellings(options: CliOption[]): CliOption[] {
  const gluedLetters = new Set(options.filter((option) => option.short !== null && option.takes_value && option.value_name === '#').map((option) => option.short));
  if (gluedLetters.size === 0) return options;
  return options.filter((option) => !(option.prefix === '-' && option.short === null && option.long !== null && /^[A-Za-z][A-Za-z0-9]{1,2}$/.test(option.long) && gluedLetters.has(option.long[0] ?? '')));
}
