/**
 * Man pages rendered from markdown (marked-man, ronn) list options as bullet items:
 * `        • -o, --output [output file]` over a description two deeper. The bullet is list
 * markup, not part of the head: without it the line is an ordinary option entry.
 */

/** A bullet, its spaces, then an option spelling (`-o`, `--output`). One bounded run of spaces: linear. */
const BULLETED_OPTION = /^(\s*)[•◦▪‣∙] {1,4}(?=--?[A-Za-z0-9])/;

/** `  • -o, --output <file>` → `  -o, --output <file>`; other lines unchanged. */
export function unbulletOptionLines(lines: readonly string[]): string[] {
  return lines.map((line) => line.replace(BULLETED_OPTION, '$1'));
}
