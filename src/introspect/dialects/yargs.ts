/**
 * yargs tags every option with its type (`--out  Output file  [string]`) and its help flag with
 * `[boolean]`: where the help flag is tagged so, an option printed without a type tag still takes a
 * value (the option reader then reads an untagged option as value-taking, option-entry.ts).
 */

const YARGS_HELP_TAG = /^\s*(-h, )?--help\s+Show (?:this )?help(?: and exit)?\.?\s+\[boolean\]$/;

/** Whether the help flag carries yargs' `[boolean]` tag: every switch is tagged, so an untagged option takes a value. */
export function isYargsTaggedHelp(lines: readonly string[]): boolean {
  return lines.some((line) => YARGS_HELP_TAG.test(line));
}
