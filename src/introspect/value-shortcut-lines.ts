/**
 * potrace lists a value-taking option's values as lines of their own, each spelling the option with
 * one value, then the shortcut flags that stand for it:
 *
 *   -b, --backend <name>       - select backend by name
 *   -b svg, -s, --svg          - SVG backend (scalable vector graphics)
 *   -b pdf                     - PDF backend (portable document format)
 *   -b eps, -e, --eps          - EPS backend (encapsulated PostScript) (default)
 *
 * A line spelling a short option the help already lists with a placeholder, followed by a lower-case
 * word, is one of its values, not another option: the shortcut spellings after it (`-s, --svg`) are
 * the line's option, a flag; a line without any adds no option. A value whose line ends in
 * `(default)` is the option's default.
 */
import type { Entry } from './help-scan.ts';
import { parseOptionHead } from './option-head.ts';
import type { Claimer } from './reader/claims.ts';
import type { CliOption } from './spec.ts';

const VALUE_LINE = /^-([A-Za-z0-9]) ([a-z][\w.-]{0,30})(?:, ((?:-[A-Za-z0-9], )?--?[A-Za-z][\w-]{0,40}|-[A-Za-z0-9]))?(?=\s{2,}|$)/;

export interface ShortcutValue {
  short: string;
  value: string;
  isDefault: boolean;
}

/** Rewrites such lines in place (the shortcut flags, or no option) and returns the values they name. */
export function readValueShortcutLines(entries: Entry[]): ShortcutValue[] {
  const valued = new Set<string>();
  const values: ShortcutValue[] = [];
  for (const entry of entries) {
    const head = entry.option;
    if (entry.kind !== 'option' || head === null) continue;
    const line = VALUE_LINE.exec(entry.head);
    const short = line?.[1];
    const value = line?.[2];
    if (line === null || short === undefined || value === undefined || !valued.has(short)) {
      if (head.valueName !== null && head.longs.length > 0) for (const one of head.shorts) valued.add(one);
      continue;
    }
    const rest = entry.head.slice(line[0].length).trim();
    values.push({ short, value, isDefault: /\(default\)\s*$/i.test([rest, ...entry.description].join(' ').trim()) });
    const shortcut = line[3] === undefined ? null : parseOptionHead(`${line[3]}  ${rest.length > 0 ? rest : '-'}`);
    entry.option = shortcut !== null && shortcut.valueName === null && shortcut.choices === null ? shortcut : null;
  }
  return values;
}

/** The default a value line marks, where the option states none and its choices (if any) hold it. */
export function applyShortcutDefaults(options: CliOption[], values: readonly ShortcutValue[], claim: Claimer): void {
  for (const value of values.filter((one) => one.isDefault)) {
    const option = options.find((one) => one.short === value.short && one.takes_value);
    if (option === undefined || option.default !== null || (option.choices !== null && !option.choices.includes(value.value))) continue;
    claim(option, 'default', value.value);
  }
}
