/**
 * Options whose one value is a list: `--style <components>  Comma-separated list of style elements
 * (auto, full, plain…)`, ncu's `Specify one or more comma-delimited values: dep, group…`. With choices,
 * such an option takes any of them joined by commas, so the schema offers an array of choices
 * (`isChoiceList` in to-zod.ts) instead of refusing `header,grid`.
 */

const COMMA_LIST = /\bcomma[- ]?(?:separated|delimited|joined)\b|\bseparated (?:by|with) commas\b|\blist of [^.;]{0,40}\bseparated by ","/i;

/** `','` when the description says one value is a comma-separated list, else undefined. */
export function valueSeparatorOf(description: string | null): ',' | undefined {
  return description !== null && COMMA_LIST.test(description) ? ',' : undefined;
}
