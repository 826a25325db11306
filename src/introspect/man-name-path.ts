/**
 * Python Fire and man-page styled helps open with a `NAME` section whose line names the command path
 * before ` - ` (`NAME` / `    autofaiss build_index - Reads embeddings…`) over a `SYNOPSIS` form
 * written with that path (`autofaiss build_index EMBEDDINGS <flags>`). The words of the path after
 * the program are the command it was asked about, no positionals: the form takes them as its
 * command path, and the program is named with them.
 */
import type { UsageForm } from './usage.ts';

/** The path the `NAME` section's first line names: two to four lower-case words before ` - `. */
export function manNamePath(lines: readonly string[]): string[] | null {
  const title = lines.findIndex((line) => line.trim() === 'NAME');
  if (title < 0) return null;
  const next = lines.slice(title + 1, title + 4).find((line) => line.trim().length > 0) ?? '';
  const named = /^\s+([a-z][\w.-]{0,40}(?: [a-z][\w.-]{0,40}){1,3}) - \S/.exec(next);
  return named === null ? null : (named[1] ?? '').split(' ');
}

/** The forms invoking the path's program with the path's words as their first positionals, those words made the command path. */
export function withManNamePath(forms: readonly UsageForm[], path: readonly string[] | null): UsageForm[] {
  if (path === null) return [...forms];
  const words = path.slice(1);
  return forms.map((form) => {
    if (form.program === null || form.program !== path[0] || form.commandPath.length > 0) return form;
    const leading = form.positionals.slice(0, words.length);
    if (leading.length !== words.length || leading.some((positional, index) => positional.name !== words[index] || !positional.required || positional.variadic)) return form;
    return { ...form, commandPath: [...words], positionals: form.positionals.slice(words.length) };
  });
}
