/**
 * meow pwa-asset-generator prints, after its invocation examples, a `Flag examples` section: one
 * option a line with the value it may be given (`--manifest ./src/manifest.json`, `--opaque false`).
 * Those lines declare no option (help-scan.ts keeps them out of the option list); the value after a
 * spelling says that option takes one (hand-written-values.ts).
 */

/** `Flag examples`, `Option examples`: a title over lines each giving one option an example value. */
export const OPTION_EXAMPLES_TITLE = /^(?:flags?|options?)\s+examples?:?$/i;

/** A line of such a section: a spelling, then one value (quoted values may hold spaces). */
const SPELLING_AND_VALUE = /^(-{1,2}[A-Za-z0-9][\w.-]{0,60})(?:=| +)("[^"]{1,200}"|'[^']{1,200}'|[^\s"'-]\S{0,200})$/;

/** The spellings that the lines under an option-examples title give a value. */
export function spellingsGivenExampleValues(lines: readonly string[]): Set<string> {
  const given = new Set<string>();
  let inside = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (OPTION_EXAMPLES_TITLE.test(trimmed)) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    // the section ends at the first line that is no option line (a blank line between them is kept)
    if (trimmed.length === 0) continue;
    if (!trimmed.startsWith('-')) {
      inside = false;
      continue;
    }
    const match = SPELLING_AND_VALUE.exec(trimmed);
    if (match !== null) given.add(match[1] ?? '');
  }
  return given;
}
