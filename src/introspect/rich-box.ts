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
 */

const TOP = /^\s*[╭┌┏]─+\s*(.*?)\s*─*[╮┐┓]\s*$/;
const BOTTOM = /^\s*[╰└┗]─+[╯┘┛]\s*$/;
const SIDE = /^(\s*)[│┃]( ?)(.*?)\s*[│┃]\s*$/;

/** Plain lines for a help drawn with rich panels; other helps come back unchanged. */
export function unboxPanels(lines: readonly string[]): string[] {
  if (!lines.some((line) => TOP.test(line))) return [...lines];
  return lines.map((line) => {
    const top = TOP.exec(line);
    if (top) return top[1] !== undefined && top[1].length > 0 ? `${top[1]}:` : '';
    if (BOTTOM.test(line)) return '';
    const side = SIDE.exec(line);
    // the left border and its padding become indentation, so description columns line up; typer
    // marks a required parameter with a `*` column before it (`│ *  --name  TEXT  [required] │`)
    if (side) return `${side[1] ?? ''}  ${(side[3] ?? '').replace(/^\*(?=\s)/, ' ')}`.trimEnd();
    return line;
  });
}
