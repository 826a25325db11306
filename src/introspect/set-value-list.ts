/**
 * A hand-written getopt help (python's timeit) lists an option without a placeholder and names its
 * values in the description: `-u/--unit: set the output time unit (nsec, usec, msec, or sec)`. A
 * description that sets or selects one thing, closed by a parenthesized list of three or more plain
 * values joined by `or`, says the option takes one of them.
 */

/** `set the output time unit (nsec, usec, msec, or sec)`: the whole description. */
const SET_WITH_LIST = /^(?:set|specify|select|choose)\s+(?:the\s+|an?\s+)?[a-z][\w -]{0,60}?\s+\(([^()]{1,200})\)\.?$/i;
const ITEM = /^[a-z0-9][\w.-]{0,30}$/i;

/**
 * eleventy `Set to "esm" to force ESM mode, "cjs" to force CommonJS mode, or "auto" (default) to infer
 * it from package.json.`: one `Set to`, then three or more quoted values, each with what it does.
 */
const SET_TO_QUOTED = /^set (?:this |it )?to (["'`])([a-z0-9][\w.-]{0,30})\1\s+to\s[^,;.]{1,80}((?:,\s+(?:or\s+)?\1[a-z0-9][\w.-]{0,30}\1(?:\s+\(default\))?\s+to\s[^,;.]{1,80}){2,20})/i;

function quotedSettings(description: string): string[] | null {
  const match = SET_TO_QUOTED.exec(description.trim());
  if (match === null) return null;
  const quote = match[1] ?? '"';
  const rest = [...(match[3] ?? '').matchAll(new RegExp(String.raw`,\s+(?:or\s+)?${quote}([a-z0-9][\w.-]{0,30})${quote}`, 'gi'))].map((item) => item[1] ?? '');
  return [match[2] ?? '', ...rest];
}

/** The values the description offers to set, or null. */
export function setValueListChoices(description: string): string[] | null {
  const quoted = quotedSettings(description);
  if (quoted !== null) return quoted;
  const list = SET_WITH_LIST.exec(description.trim())?.[1];
  if (list === undefined || !/,\s*(?:or\s+)?[^,]+$/.test(list) || !/\bor\s+\S+$/.test(list)) return null;
  const items = list.split(/\s*,\s*(?:or\s+)?|\s+or\s+/).map((item) => item.trim()).filter((item) => item.length > 0);
  return items.length >= 3 && items.every((item) => ITEM.test(item)) ? items : null;
}
