/**
 * A positional the prose gives a value when it is left out may be left out.
 */
import type { CliPositional } from './spec.ts';
import type { PositionalClaimer } from './reader/claims.ts';

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

export function markPositionalsDefaultedInProse(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  const prose = lines.filter((line) => !/^\s*-/.test(line)).join(' ');
  const nouns = new Set([...prose.matchAll(DEFAULT_STATED)].map((match) => nounKey(match[1] ?? match[2] ?? '')));
  for (const positional of positionals) if (positional.required && nouns.has(nounKey(positional.name))) claim(positional, 'required', false);
}

/**
 * npm-check `Usage $ npm-check <path> <options>` over a `Path` entry reading `Where to check. Defaults
 * to current directory.`: an argument's own entry (its name heading a line, alone or before a column
 * gap) whose description states a default may be left out. The description is the rest of the head
 * line and the lines indented under it (blank lines inside included).
 */
const ENTRY_DEFAULT = /\bdefaults? (?:to|is)\b|[([]default[:=]|\bdefault: |\b(?:if|when) omitted\b|\bthe default [\w ]{0,30}\bis\b/i;
/** Lines of an entry's description read at most (Pod's entries run over paragraphs: plackup `.psgi`). */
const MAX_DESCRIPTION_LINES = 8;

export function markPositionalsDefaultedInEntry(positionals: CliPositional[], lines: readonly string[], claim: PositionalClaimer): void {
  const wanted = new Map(positionals.filter((positional) => positional.required).map((positional) => [nounKey(positional.name), positional]));
  if (wanted.size === 0) return;
  lines.forEach((line, index) => {
    const head = /^(\s{0,8})[<[]?(\.?[A-Za-z][\w-]{0,30})[>\]]?(?:\s{2,}(\S.*)|\s*)$/.exec(line);
    const positional = head === null ? undefined : wanted.get(nounKey(head[2] ?? ''));
    if (head === null || positional === undefined) return;
    const indent = (head[1] ?? '').length;
    const description = [head[3] ?? ''];
    for (const next of lines.slice(index + 1, index + 1 + MAX_DESCRIPTION_LINES)) {
      const nextIndent = /^\s*/.exec(next)?.[0].length ?? 0;
      // (a blank line inside the entry goes on while the text under it stays indented deeper: Pod's paragraphs)
      if (next.trim().length === 0) continue;
      if (nextIndent <= indent || /^\s*-/.test(next)) break;
      description.push(next.trim());
    }
    if (ENTRY_DEFAULT.test(description.join(' '))) claim(positional, 'required', false);
  });
}
