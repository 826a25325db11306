/**
 * A value a bare flag takes, stated as a default. commander depcruise `-A, --affected [revision]  …
 * (when not specified revision defaults to 'main')`, `-C, --cache [cache-directory]  use a cache …
 * The directory defaults to node_modules/.cache/dependency-cruiser`: on an option whose value is
 * optional, a sentence whose subject is the placeholder's own word (`revision`, `directory`) says
 * what the flag given without a value uses; left out, the option is off, so that is no default.
 * (`(defaults to "level")`, with no subject, stays the option's default.) Only commander's notation,
 * the placeholder in brackets after a space (`--cache [dir]`), whose real defaults are printed as
 * `(default: x)`; argp's `--color[=WHEN]  … WHEN defaults to 'always'` states the default itself.
 */
export function statesBareFlagValue(head: string, valueName: string | null, description: string): boolean {
  if (valueName === null || !/^\S.{0,80}?\s\[[^\]=\s]{1,60}\](?:\s|$)/.test(head.trim())) return false;
  const words = valueName
    .replace(/^[[<]|[\]>]$/g, '')
    .split(/[-_\s]+/)
    .filter((word) => /^[a-z]{3,30}$/i.test(word));
  if (words.length === 0 || /\(default:/i.test(description)) return false;
  return words.some((word) => new RegExp(`\\b${word}\\s+defaults\\s+to\\b`, 'i').test(description));
}
