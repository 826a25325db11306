/**
 * Probe output is untrusted input: these helpers bound it before anything reads it. Text is cut at
 * MAX_PROBE_TEXT characters, split into at most MAX_PROBE_LINES lines of at most MAX_PROBE_LINE
 * characters, with terminal escapes and control characters removed; value lists are cut at
 * MAX_PROBE_VALUES values of at most MAX_PROBE_VALUE characters. Everything here is linear.
 */
export const MAX_PROBE_TEXT = 64 * 1024;
export const MAX_PROBE_LINES = 2_000;
export const MAX_PROBE_LINE = 2_000;
export const MAX_PROBE_VALUES = 200;
export const MAX_PROBE_VALUE = 200;

const ANSI_ESCAPE = /\u001b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]/g;
// control characters except tab and newline
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** The text capped and cleaned of escapes and control characters (tabs and newlines kept). */
export function cleanProbeText(text: string): string {
  const capped = text.length > MAX_PROBE_TEXT ? text.slice(0, MAX_PROBE_TEXT) : text;
  return capped.replace(/\r\n?/g, '\n').replace(ANSI_ESCAPE, '').replace(CONTROL, '');
}

/** The cleaned text's lines, capped in count and length (trailing spaces removed). */
export function probeLines(text: string): string[] {
  return cleanProbeText(text)
    .split('\n', MAX_PROBE_LINES)
    .map((line) => {
      const trimmed = line.trimEnd();
      return trimmed.length > MAX_PROBE_LINE ? trimmed.slice(0, MAX_PROBE_LINE) : trimmed;
    });
}

const QUOTES = /^["'`‘“]|["'`’”]$/g;

/** One value as a parser printed it: trimmed, its quotes removed; undefined when empty or too long. */
export function cleanValue(raw: string): string | undefined {
  const value = raw.trim().replace(QUOTES, '').trim();
  if (value.length === 0 || value.length > MAX_PROBE_VALUE || /[\t\n]/.test(value)) return undefined;
  return value;
}

/** A list as parsers print it (`a, b, c`, `"a","b"`, `a|b`), capped; duplicates dropped, order kept. */
export function splitValueList(text: string, separator: RegExp = /,/): string[] {
  const values: string[] = [];
  for (const part of text.split(separator, MAX_PROBE_VALUES * 2)) {
    const value = cleanValue(part);
    if (value !== undefined && !values.includes(value)) values.push(value);
    if (values.length >= MAX_PROBE_VALUES) break;
  }
  return values;
}
