/**
 * npm prints every command's help (`npm audit --help`) with the options' synopsis under the
 * `Options:` title, as lines of bracket groups, and the entries below without their values:
 *
 *   Options:
 *   [--audit-level <info|low|moderate|high|critical|none>] [--dry-run] [-f|--force]
 *   [-w|--workspace <workspace-name> [-w|--workspace <workspace-name> ...]]
 *
 *     --audit-level
 *       The minimum level of vulnerability for `npm audit` to exit with
 *
 * Those lines say which options take a value as a usage form would, so `npmOptionSynopsis` hands
 * them back to be read as usage forms (round 18).
 */

/** A title line: `Options:`. */
const OPTIONS_TITLE = /^\s{0,3}options:$/i;
/** A synopsis line: bracket groups only, the first opening with a spelling. */
const SYNOPSIS_LINE = /^\s{0,3}\[-{1,2}[A-Za-z0-9][^\n]{0,400}\]$/;

/** The synopsis lines right under an `Options:` title; none when the help has no such block. */
export function npmOptionSynopsis(lines: readonly string[]): string[] {
  const synopsis: string[] = [];
  for (const [index, line] of lines.entries()) {
    if (!OPTIONS_TITLE.test(line)) continue;
    for (let next = index + 1; next < lines.length && SYNOPSIS_LINE.test(lines[next] ?? ''); next += 1) synopsis.push((lines[next] ?? '').trim());
  }
  return synopsis;
}
