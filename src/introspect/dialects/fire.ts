/**
 * Python Fire prints each flag with its annotation and default on lines of their own, under the head:
 *
 *     --save_on_disk=SAVE_ON_DISK
 *         Type: bool
 *         Default: True
 *         Whether to save the index on disk.
 *
 * The `Default:` line is the parameter's Python default, in Python's spelling (`True`, `10.0`,
 * `'knn.index'`, `None`); Fire cuts a long one short with `...` (`'hdf...`). It states the default
 * exactly, so it decides over what the prose says: `None`, an empty string, a cut value or a container
 * (`[]`, `{}`) is no default to state. The `Type:` line types the value (`bool`, `int`, `float`, `str`).
 */
import type { Entry } from '../help-scan.ts';
import type { CliOption, CliValueType } from '../spec.ts';
import type { Claimer } from '../reader/claims.ts';

const TYPE_LINE = /^Type: (\S.{0,200})$/;
const DEFAULT_LINE = /^Default: (.{1,400})$/;
const FIRE_TYPES: Record<string, CliValueType> = { bool: 'boolean', int: 'integer', float: 'number', str: 'string' };

/** Python's repr of a float infinity. */
const INFINITY = /^-?inf$/;

/** A Python literal's value, or null when it states no single value. */
function pythonLiteral(text: string): string | number | boolean | null {
  if (text === 'True' || text === 'False') return text === 'True';
  // `Default: inf`: Python's repr of a float infinity (`float('inf')`), a value a float flag takes as written
  if (INFINITY.test(text)) return text;
  if (/^[+-]?\d{1,15}(?:\.\d{1,15})?(?:e[+-]?\d{1,3})?$/i.test(text)) return Number(text);
  const quoted = /^'([^'\\]{1,300})'$|^"([^"\\]{1,300})"$/.exec(text);
  const value = quoted?.[1] ?? quoted?.[2];
  return value === undefined ? null : value;
}

/** The Fire `Type:` and `Default:` lines opening an entry's description. */
function fireLines(entry: Entry): { type: string; defaultText: string } | null {
  const [first, second] = entry.description.map((line) => line.trim());
  const type = TYPE_LINE.exec(first ?? '')?.[1];
  const defaultText = DEFAULT_LINE.exec(second ?? '')?.[1];
  return type === undefined || defaultText === undefined ? null : { type, defaultText };
}

/** The Fire lines each option entry opened with, taken out of its description (see `takeFireLines`). */
export type FireLines = Map<Entry, { type: string; defaultText: string }>;

/**
 * Takes the `Type:` and `Default:` lines out of the option entries' descriptions, so that the prose
 * under them reads as the description (`npy or parquet ; default npy` opens it), and returns them.
 */
export function takeFireLines(entries: readonly Entry[]): FireLines {
  const taken: FireLines = new Map();
  for (const entry of entries) {
    if (entry.kind !== 'option' || entry.option === null || entry.option.rest.trim().length > 0) continue;
    const lines = fireLines(entry);
    if (lines === null) continue;
    taken.set(entry, lines);
    entry.description = entry.description.slice(2);
  }
  return taken;
}

export function applyFireDefaults(options: readonly CliOption[], entries: readonly Entry[], taken: FireLines, claim: Claimer): void {
  for (const entry of entries) {
    if (entry.kind !== 'option' || entry.option === null) continue;
    const lines = taken.get(entry) ?? fireLines(entry);
    const long = entry.option.longs[0]?.name;
    const option = long === undefined ? undefined : options.find((candidate) => candidate.long === long);
    if (lines === null || option === undefined || !option.takes_value) continue;
    const type = FIRE_TYPES[lines.type];
    const value = pythonLiteral(lines.defaultText.trim());
    const typed = type !== undefined && option.type === 'string' && option.choices === null ? type : option.type;
    const fits = value === null ? false : typed === 'boolean' ? typeof value === 'boolean' : typed === 'integer' || typed === 'number' ? typeof value === 'number' || (typed === 'number' && INFINITY.test(String(value))) : typeof value === 'string';
    claim(option, 'default', fits ? value : null, typed);
  }
}
