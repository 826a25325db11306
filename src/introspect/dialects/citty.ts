/**
 * citty prints `USAGE prog …` on the title's line and its options under `OPTIONS`, with a
 * placeholder only where the author gave one: a bare option's description may say it takes a value.
 */

/** Whether the help shows citty's layout: `USAGE prog …` on one line, an `OPTIONS` title. */
export function isCittyHelp(lines: readonly string[]): boolean {
  return lines.some((line) => /^USAGE \S/.test(line)) && lines.some((line) => /^OPTIONS\s*$/.test(line));
}
