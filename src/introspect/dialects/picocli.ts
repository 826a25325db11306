/**
 * picocli lists its argument files (`@file`, read as more arguments) as an entry of their own:
 *
 *   Usage: ConsoleLauncher [OPTIONS]
 *         [@<filename>...]       One or more argument files containing options.
 *
 * The entry is the argument even where the usage form leaves it out (a `[OPTIONS]` synopsis): an
 * optional list. Added only when no positional of that name was read from the forms.
 */
import type { CliPositional } from '../spec.ts';

/** picocli's argument-file entry: `[@<filename>...]` alone before a column gap. */
const ARGFILE_ENTRY = /^\s{2,12}\[@<([A-Za-z][\w-]{0,30})>\.{3}\]\s{2,}\S/;

export function withPicocliArgumentFiles(positionals: CliPositional[], lines: readonly string[]): void {
  for (const line of lines) {
    const name = ARGFILE_ENTRY.exec(line)?.[1];
    if (name === undefined) continue;
    const known = positionals.some((positional) => positional.name.replace(/[@<>.]/g, '') === name);
    if (!known) positionals.push({ name: `@<${name}>`, required: false, variadic: true });
    return;
  }
}
