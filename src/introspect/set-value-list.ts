/**
 * A hand-written getopt help (python's timeit) lists an option without a placeholder and names its
 * values in the description: `-u/--unit: set the output time unit (nsec, usec, msec, or sec)`. A
 * description that sets or selects one thing, closed by a parenthesized list of three or more plain
 * values joined by `or`, says the option takes one of them.
 */

/** `set the output time unit (nsec, usec, msec, or sec)`: the whole description. */
const SET_WITH_LIST = /^(?:set|specify|select|choose)\s+(?:the\s+|an?\s+)?[a-z][\w -]{0,60}?\s+\(([^()]{1,200})\)\.?$/i;
const ITEM = /^[a-z0-9][\w.-]{0,30}$/i;

/** The values the description offers to set, or null. */
export function setValueListChoices(description: string): string[] | null {
  const list = SET_WITH_LIST.exec(description.trim())?.[1];
  if (list === undefined || !/,\s*(?:or\s+)?[^,]+$/.test(list) || !/\bor\s+\S+$/.test(list)) return null;
  const items = list.split(/\s*,\s*(?:or\s+)?|\s+or\s+/).map((item) => item.trim()).filter((item) => item.length > 0);
  return items.length >= 3 && items.every((item) => ITEM.test(item)) ? items : null;
}
