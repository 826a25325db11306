/**
 * doctoc `Usage: doctoc [mode] [--entryprefix prefix] … <path>` over `Available modes are:` and a list
 * of flags (`--github`, `--gitlab`): the optional `[mode]` stands for one of those flags, as
 * `[options]` stands for the options; it is no positional. A bracketed optional name whose plural (or
 * itself) titles a list of option lines (`Modes:`, `Available modes are:`) is dropped.
 */
import type { UsageForm } from './usage.ts';

/** `Available modes are:`, `Modes:`: a title naming a kind of thing, its colon closing the line. */
const KIND_TITLE = /^\s*(?:available\s+|supported\s+)?([a-z][a-z-]{1,30})(?:\s+are)?:\s*$/i;

function titlesOptionList(name: string, lines: readonly string[]): boolean {
  const wanted = name.toLowerCase();
  return lines.some((line, index) => {
    const kind = KIND_TITLE.exec(line)?.[1]?.toLowerCase();
    if (kind === undefined || (kind !== wanted && kind !== `${wanted}s`)) return false;
    const next = lines.slice(index + 1).find((candidate) => candidate.trim().length > 0);
    return next !== undefined && /^\s+--?[A-Za-z]/.test(next);
  });
}

export function withoutOptionSetPlaceholders(positionals: UsageForm['positionals'], lines: readonly string[]): UsageForm['positionals'] {
  return positionals.filter((positional) => positional.required || positional.variadic || !/^[a-z][a-z-]{1,30}$/i.test(positional.name) || !titlesOptionList(positional.name, lines));
}
