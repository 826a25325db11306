/**
 * Boost.Program_options (C++: ncmpcpp, monero, bitcoin tools) prints an option with both spellings
 * as the short one, then the long one in spaced brackets, then the value and its default:
 *
 *   -h [ --host ] HOST (=localhost)       connect to server at host
 *   -? [ --help ]                         show help message
 *
 * The brackets mark no optional part (the long spelling is an alias of the short one), so
 * `respellBoostHeads` rewrites such a head as `-h, --host HOST (=localhost)` and widens the next
 * gap of two or more spaces by the characters it took out, so the description keeps its column.
 */

/** The head: indentation, one short spelling, then ` [ --long ]`. Linear: no nested quantifiers. */
const BOOST_HEAD = /^(\s*)-([A-Za-z0-9?]) \[ --([A-Za-z0-9][\w-]*) \]/;

/** Lines with Boost's bracketed long spelling respelled as `-x, --long`; other lines unchanged. */
export function respellBoostHeads(lines: readonly string[]): string[] {
  return lines.map((line) => {
    const head = BOOST_HEAD.exec(line);
    if (head === null) return line;
    const spelled = `${head[1] ?? ''}-${head[2] ?? ''}, --${head[3] ?? ''}`;
    const rest = line.slice(head[0].length);
    const lost = head[0].length - spelled.length;
    const gap = rest.indexOf('  ');
    if (gap === -1) return `${spelled}${rest}`;
    return `${spelled}${rest.slice(0, gap)}${' '.repeat(lost)}${rest.slice(gap)}`;
  });
}
