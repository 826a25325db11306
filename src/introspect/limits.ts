/**
 * Bounds that keep help parsing linear and small whatever a component prints.
 */
export const MAX_HELP_CHARS = 256 * 1024;
export const MAX_HELP_LINES = 4000;
export const MAX_LINE_CHARS = 1000;
export const MAX_DESCRIPTION_CHARS = 1000;
export const MAX_OPTIONS = 500;

const ANSI_ESCAPE = /\u001b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]/g;
const OTHER_ESCAPE = /\u001b[@-_]/g;
// Control characters except tab and newline.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Caps, strips terminal escapes and control characters, and splits help text into lines. */
export function helpLines(text: string): string[] {
  const capped = text.length > MAX_HELP_CHARS ? text.slice(0, MAX_HELP_CHARS) : text;
  const cleaned = capped
    .replace(/\r\n?/g, '\n')
    .replace(ANSI_ESCAPE, '')
    .replace(OTHER_ESCAPE, '')
    // backspace overstrike (man-style bold): "X\bX" → "X"
    .replace(/.\u0008/g, '')
    .replace(CONTROL, '')
    // 0x indents a line with no-break spaces (U+00A0) copied from formatted text: they lay out as spaces
    .replace(/\u00a0/g, ' ');
  const lines = cleaned.split('\n', MAX_HELP_LINES);
  return lines.map((line) => {
    const trimmedEnd = line.trimEnd();
    return trimmedEnd.length > MAX_LINE_CHARS ? trimmedEnd.slice(0, MAX_LINE_CHARS) : trimmedEnd;
  });
}

/** Leading whitespace width, counting a tab as advancing to the next multiple of 8. */
export function indentOf(line: string): number {
  let width = 0;
  for (const character of line) {
    if (character === ' ') width += 1;
    else if (character === '\t') width = width + 8 - (width % 8);
    else break;
  }
  return width;
}

/**
 * Expands tabs to spaces (tab stops of 8). The result is capped at MAX_LINE_CHARS again: a line of
 * 1,000 tabs would otherwise grow to 8,000 characters, past the bound every later regex relies on.
 */
export function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let result = '';
  for (const character of line) {
    // hey `-host\tHTTP Host header.`: a tab after a word separates columns even where it reaches the
    // next stop in one column, so it stays a gap of two spaces (one would join the words)
    if (character === '\t') result += ' '.repeat(result.length % 8 === 7 && /\S$/.test(result) ? 2 : 8 - (result.length % 8));
    else result += character;
    if (result.length >= MAX_LINE_CHARS) return result.slice(0, MAX_LINE_CHARS).trimEnd();
  }
  return result;
}

export function clampDescription(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_DESCRIPTION_CHARS ? `${collapsed.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : collapsed;
}

/**
 * Joins the wrapped lines of one description. Wrappers such as Python's textwrap and click break
 * after a hyphen (`quiet-` / `filename`, `[default: no-` / `force-download]`): the word is rejoined.
 * textwrap also chops a word longer than the whole width (click's `[default: /(\.direnv|\.ipy` /
 * `nb_checkpoints|…)/]`): inside an open bracket, a line filled to the description's width whose
 * last word and the next line's first word together exceed that width was cut in a word, and is
 * rejoined without a space (two words that long could not have been wrapped apart).
 */
export function joinWrapped(lines: readonly string[]): string {
  const width = lines.reduce((widest, line) => Math.max(widest, line.length), 0);
  let joined = '';
  let previous = '';
  let depth = 0;
  // yargs chops a line at the terminal width even inside a quoted choice (`"summar` / `y", …`): a
  // double-quoted item in a bracket left open at a line's end goes on in the next line's first word
  let inQuote = false;
  for (const line of lines) {
    if (line.length === 0) continue;
    const cutWord =
      (depth > 0 && previous.length === width && (/\S+$/.exec(previous)?.[0].length ?? 0) + (/^\S+/.exec(line)?.[0].length ?? 0) > width) ||
      (depth > 0 && inQuote && /[A-Za-z0-9]$/.test(previous) && /^[A-Za-z0-9][^"\s]*"/.test(line));
    if (joined.length === 0) joined = line;
    else if (cutWord || (/[a-z]-$/.test(joined) && /^[a-z]/.test(line))) joined = `${joined}${line}`;
    else joined = `${joined} ${line}`;
    for (const character of line) {
      if (character === '"' && depth > 0) inQuote = !inQuote;
      else if (character === '[' && !inQuote) depth += 1;
      else if (character === ']' && depth > 0 && !inQuote) depth -= 1;
    }
    previous = line;
  }
  return joined;
}
