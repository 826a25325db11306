/**
 * A positional the prose gives a value when it is left out may be left out.
 */
import type { CliPositional } from './spec.ts';

/** Lower case, no spaces, no plural `s`: `the sources` and `source` compare alike. */
function nounKey(noun: string): string {
  return noun.toLowerCase().replace(/[\s_-]+/g, '').replace(/s$/, '');
}

/**
 * buf `buf format <source> [flags]` with `By default, the source is the current directory`: prose
 * stating what the argument is when left out (`By default, the X is …`, `The X defaults to …`) says it
 * may be left out, whatever brackets the usage gives it. Read on prose lines only (an option's entry,
 * `-d DIR  the dir defaults to …`, states its own value).
 */
const DEFAULT_STATED = /\bby default,? the ([A-Za-z][\w-]{1,30}) (?:is|are)\b|\bthe ([A-Za-z][\w-]{1,30}) defaults to\b/gi;

export function markPositionalsDefaultedInProse(positionals: CliPositional[], lines: readonly string[]): void {
  const prose = lines.filter((line) => !/^\s*-/.test(line)).join(' ');
  const nouns = new Set([...prose.matchAll(DEFAULT_STATED)].map((match) => nounKey(match[1] ?? match[2] ?? '')));
  for (const positional of positionals) if (positional.required && nouns.has(nounKey(positional.name))) positional.required = false;
}
