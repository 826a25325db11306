/**
 * meow (and serve's hand copy of its layout) never prints a placeholder of its own: `  Usage` over
 * `    $ prog …` and `  Options`, each option's value written by hand in its description, if at all
 * (gzip-size `--level   Compression level [0-9] (Default: 9)`). So a stated default other than a
 * boolean says the option takes a value, and so do the cues of its description.
 */

/** Whether the help shows meow's layout: `  Usage` over `    $ prog`, `  Options` (or serve's in capitals). */
export function isMeowHelp(lines: readonly string[]): boolean {
  const usage = lines.findIndex((line) => line === '  Usage');
  if (usage !== -1 && /^ {4}\$ \S/.test(lines[usage + 1] ?? '') && lines.includes('  Options')) return true;
  // serve (over `arg`, which prints nothing) writes the same layout by hand in capitals: `  USAGE`, a
  // blank line, `    $ serve --help`, …, `  OPTIONS` (oclif's capital titles stand flush left)
  const capital = lines.findIndex((line) => line === '  USAGE');
  const firstForm = capital === -1 ? undefined : lines.slice(capital + 1).find((line) => line.trim().length > 0);
  return firstForm !== undefined && /^ {4}\$ \S/.test(firstForm) && lines.includes('  OPTIONS');
}
