/**
 * docopt subcommand docstrings (docker-compose's `up`) print `Usage: up [options] …`: the usage names
 * only the subcommand, while the prose names the whole command in code spans (`` `docker-compose up` ``,
 * `` `docker-compose up -d` ``). A backquoted command line whose second word is the usage's one-word
 * program, and whose first word is always the same program name, gives the full command path.
 */
const CODE_SPAN = /`([a-z][\w.-]{0,40}) ([a-z][\w-]{0,40})(?: [^`\n]{0,80})?`/g;

/** The command path (`docker-compose up`) the prose gives a one-word usage program, or null. */
export function backquotedCommandPath(program: string, lines: readonly string[]): string | null {
  if (!/^[a-z][\w-]{0,40}$/.test(program)) return null;
  const parents = new Set<string>();
  for (const line of lines.slice(0, 200)) {
    for (const span of line.matchAll(CODE_SPAN)) {
      if (span[2] === program && span[1] !== program) parents.add(span[1] ?? '');
    }
  }
  const [parent] = parents;
  return parents.size === 1 && parent !== undefined ? `${parent} ${program}` : null;
}
