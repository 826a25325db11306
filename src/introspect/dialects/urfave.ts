/**
 * urfave/cli prints a generic form under `USAGE:` for every app (`jp [global options] command
 * [command options] [arguments...]`), whatever it takes. An author who sets the app's usage text to
 * a form of its own sees it printed under `NAME:` instead: `   jp - jp [<options>] <expression>`.
 * That form shows the positionals; the generic one only says "some arguments".
 */

/** urfave's own form: `[global options] command [command options] [arguments...]`. */
const GENERIC_FORM = /^\S+ \[global options\] command \[command options\] \[arguments\.\.\.\]$/;
/** `   jp - jp [<options>] <expression>`: the name, a dash, then the program again and usage syntax. */
const NAME_LINE = /^\s+(\S{1,64}) - (\S{1,64})((?:\s+(?:\[[^\]]{1,80}\]|<[^>]{1,80}>)(?:\.{3})?)+)\s*$/;

export function isUrfaveGenericForm(form: string | undefined): boolean {
  return form !== undefined && GENERIC_FORM.test(form.trim());
}

/** The form under `NAME:` naming `program` with usage syntax only, or null. */
export function urfaveNameForm(lines: readonly string[], program: string): string | null {
  const title = lines.findIndex((line) => line.trim() === 'NAME:');
  if (title < 0) return null;
  const match = NAME_LINE.exec(lines[title + 1] ?? '');
  if (match === null || match[1] !== program || match[2] !== program) return null;
  return `${program}${match[3] ?? ''}`;
}
