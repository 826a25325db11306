/**
 * rich-click and typer (with rich installed) draw each section as a panel:
 *
 *   ╭─ Options ──────────────────────────╮
 *   │ --port            INTEGER  The port │
 *   │ --reload  --no-reload      Reload   │
 *   ╰────────────────────────────────────╯
 *
 * `unboxPanels` turns a panel back into plain help: the top border becomes a `Options:` title, the
 * bottom border a blank line, and the side borders spaces (so columns stay where they were).
 * clipanion's ruled titles (`━━━ Usage ━━━━`) become plain titles (`Usage:`) the same way.
 */

// `(?!─)` and `(?!\s)` keep the rule and the gap after it whole (the only split that can match), so a
// long run of either before a failing end is not re-split cubically (ReDoS: one crafted line took 120 ms)
const TOP = /^\s*[╭┌┏]─+(?!─)\s*(?!\s)(.*?)\s*─*[╮┐┓]\s*$/;
const BOTTOM = /^\s*[╰└┗]─+[╯┘┛]\s*$/;
const SIDE = /^(\s*)[│┃]( ?)(.*?)\s*[│┃]\s*$/;

/** clipanion (yarn) rules its section titles: `━━━ Options ━━━━━━━━━━`. */
const RULE_TITLE = /^━{3} (\S.{0,60}?) ━{3,}\s*$/;

/** Plain lines for a help drawn with rich panels or clipanion's ruled titles; other helps come back unchanged. */
export function unboxPanels(lines: readonly string[]): string[] {
  // the blank line clipanion leaves under each title goes, so `$ yarn add ...` sits right under `Usage:`
  const ruled = lines.some((line) => RULE_TITLE.test(line))
    ? lines.filter((line, index) => !(line.trim().length === 0 && RULE_TITLE.test(lines[index - 1] ?? ''))).map((line) => line.replace(RULE_TITLE, '$1:'))
    : lines;
  if (!ruled.some((line) => TOP.test(line))) return [...ruled];
  return joinWrappedPlaceholders(ruled.map((line) => {
    const top = TOP.exec(line);
    if (top) return top[1] !== undefined && top[1].length > 0 ? `${top[1]}:` : '';
    if (BOTTOM.test(line)) return '';
    const side = SIDE.exec(line);
    // the left border and its padding become indentation, so description columns line up; typer
    // marks a required parameter with a `*` column before it (`│ *  --name  TEXT  [required] │`)
    if (side) return `${side[1] ?? ''}  ${(side[3] ?? '').replace(/^\*(?=\s)/, ' ')}`.trimEnd();
    return line;
  }));
}

/** A type cell left open on its row: `<none|poetry|setup|pdm` before the description column. */
// …inside a container too: typer `<list[BP001|BP002|BP0` / `05|BP006]>`
// …and click's choice metavar in brackets: typer `[asciidoc|html|latex|markdown|note` / `book|pdf|…]`
const OPEN_PLACEHOLDER = /<(?:[a-z]+\[)?[\w.-]+(?:\|[\w.-]*)*(?=\s{2,}|$)|\[[\w.-]+(?:\|[\w.-]*)+(?=\s{2,}|$)/g;

/**
 * rich wraps a long type cell inside its column: `<none|poetry|setup|pdm` on the option's row and
 * `|uv>` at the same column of the next row. The pieces are joined on the first row (the rest of
 * that row moves right; the second row keeps its description at its column).
 */
function joinWrappedPlaceholders(lines: string[]): string[] {
  for (let index = 0; index + 1 < lines.length; index += 1) {
    const line = lines[index] ?? '';
    for (const open of line.matchAll(OPEN_PLACEHOLDER)) {
      const column = open.index;
      const next = lines[index + 1] ?? '';
      const rest = (open[0].startsWith('[') ? /^[\w.|-]*\]/ : /^[\w.|-]*\]?>/).exec(next.slice(column));
      if (rest === null || next.slice(0, column).trim() !== '' || !/^[|\w]/.test(rest[0])) continue;
      const end = column + open[0].length;
      lines[index] = `${line.slice(0, end)}${rest[0]}${line.slice(end)}`;
      lines[index + 1] = `${next.slice(0, column)}${' '.repeat(rest[0].length)}${next.slice(column + rest[0].length)}`;
      break;
    }
  }
  return lines;
}
