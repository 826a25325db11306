/**
 * Thor (Ruby: foreman, rails generators) prints each option with its long spellings in brackets
 * and its description after a `#`, the default on a `#` line of its own under it:
 *
 *   -c, [--color], [--no-color]          # Force color to be enabled
 *   -f, [--procfile=PROCFILE]            # Default: Procfile
 *       [--timestamp], [--no-timestamp]  # Include timestamp in output
 *                                        # Default: true
 *
 * `unwrapThorOptions` turns such lines into plain option lines (`-c, --color, --no-color   Force…`):
 * the brackets go (every Thor option is optional; they mark no optional value) and each `#` that
 * opens a description becomes a space, so columns stay where they were.
 */

/** The head of a Thor option line: an optional short spelling, then bracketed long spellings. */
const THOR_HEAD = /^(\s*)((?:-[A-Za-z0-9], )?\[--[A-Za-z0-9][\w-]*(?:=(?:"[^"]*"|[^\]\s]*))?\](?:, \[--[A-Za-z0-9][\w-]*(?:=(?:"[^"]*"|[^\]\s]*))?\]){0,4})(\s*)(?:# ?(.*))?$/;
/** A description line under it: only a `#` comment. */
const COMMENT_LINE = /^(\s+)# ?(.*)$/;

/** Plain option lines for Thor's; other helps (no Thor option line) come back unchanged. */
export function unwrapThorOptions(lines: readonly string[]): string[] {
  // a `#` description marks the help as Thor's (argparse wraps `[--json-lines]` usage lines too)
  if (!lines.some((line) => THOR_HEAD.exec(line)?.[4] !== undefined)) return [...lines];
  let inOption = false;
  return lines.map((line) => {
    const head = THOR_HEAD.exec(line);
    // a line without a description is an option when it has a short spelling (`-p, [--port=N]`)
    if (head !== null && (head[4] !== undefined || /^-[A-Za-z0-9], /.test(head[2] ?? ''))) {
      inOption = true;
      const spellings = (head[2] ?? '').replace(/\[(--[^\]]*)\]/g, '$1');
      // a long-only line moves out to the short spellings' column (`      [--timestamp]` under an
      // option without a description would read as that description), and the head is padded to
      // the original width, so the description keeps its column
      let indent = head[1] ?? '';
      if (!/^-[A-Za-z0-9], /.test(spellings) && indent.length >= 4) indent = indent.slice(4);
      const width = (head[1] ?? '').length + (head[2] ?? '').length + (head[3] ?? '').length - indent.length;
      const description = head[4] ?? '';
      if (description.length === 0) return `${indent}${spellings}`;
      return `${indent}${spellings.padEnd(Math.max(width, spellings.length + 2), ' ')}  ${description}`;
    }
    const comment = inOption ? COMMENT_LINE.exec(line) : null;
    if (comment !== null) return `${comment[1] ?? ''}  ${comment[2] ?? ''}`;
    inOption = false;
    return line;
  });
}
