/**
 * citty prints a string option's value only when it has a hint or a default (`--src="src"`,
 * `--jsx=<transform|preserve>`); one without either is printed bare, like a boolean (`--cwd
 * Current working directory`). In its helps a bare option's description has to tell the two apart.
 * Its form sits on its capital title's line (`USAGE mkdist [OPTIONS] [DIR]`) over an `OPTIONS` title.
 */
export function isCittyHelp(lines: readonly string[]): boolean {
  return lines.some((line) => /^USAGE \S/.test(line)) && lines.some((line) => /^OPTIONS\s*$/.test(line));
}
