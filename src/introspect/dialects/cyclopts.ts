/**
 * cyclopts prints a parameter that may be given by position or by name once, in its `Parameters`
 * panel, under both spellings: its name in capitals, then its long option (fastmcp):
 *
 *   ╭─ Parameters ───────────────────────────────────────────╮
 *   │ SERVER-SPEC --server-spec  Python file, object …        │
 *   │ --transport -t CHOICE      Transport protocol to use …  │
 *
 * An entry whose head is a capitals name followed by the long spelling of the same words is such a
 * parameter: an argument too, optional unless the entry says `[required]`. (A value name follows its
 * option, `--transport CHOICE`; here the name comes first and spells the option's own words.)
 */
import type { CliPositional } from '../spec.ts';

/** `SERVER-SPEC --server-spec  description` (the panel's border already taken off, or still there). */
const NAME_THEN_LONG = /^\s{0,4}(?:│\s{0,4})?([A-Z][A-Z0-9_-]{0,40}) --([a-z][a-z0-9_-]{0,40})(?:\s{2,}(.*))?$/;

function words(name: string): string {
  return name.toLowerCase().replace(/[_-]+/g, '-');
}

/** The parameters given by position or by name, in the order listed. */
export function positionalOrNamedParameters(lines: readonly string[]): CliPositional[] {
  const found: CliPositional[] = [];
  for (const line of lines) {
    const match = NAME_THEN_LONG.exec(line);
    if (match === null || words(match[1] ?? '') !== words(match[2] ?? '')) continue;
    found.push({ name: match[1] ?? '', required: /\[required\]/i.test(match[3] ?? ''), variadic: false });
  }
  return found;
}

/** Adds them before the first repeated argument (cyclopts binds named-or-positional parameters before `*args`). */
export function withPositionalOrNamedParameters(positionals: CliPositional[], lines: readonly string[]): CliPositional[] {
  const added = positionalOrNamedParameters(lines).filter((parameter) => !positionals.some((positional) => positional.name === parameter.name));
  if (added.length === 0) return positionals;
  const at = positionals.findIndex((positional) => positional.variadic);
  const index = at === -1 ? positionals.length : at;
  return [...positionals.slice(0, index), ...added, ...positionals.slice(index)];
}
