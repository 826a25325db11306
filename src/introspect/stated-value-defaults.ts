/**
 * Value-taking told by a stated default, for Go-style options (single-dash long names) listed
 * without a placeholder: Go's `flag` prints `(default x)` on a switch only when it is `true`, and
 * hand-written helps in its style follow it (templ: `-path <path>` beside
 * `-proxyport` / `The port the proxy will listen on. (default 7331)`). Runs after the passes that
 * ask whether a help shows any placeholder, so it never changes their answer.
 *
 * Only defaults no switch can have count: a number of two digits or more or an IPv4 address
 * (`(default 7331)`, `(default 127.0.0.1)`; `0` / `1` may be a switch's state), or a default among
 * the values the description names (`(default "info", options: "debug", "info", "warn")`).
 */
import { extractDescriptionFacts } from './annotations.ts';
import { namedValuesChoices } from './listed-choices.ts';
import type { Entry } from './help-scan.ts';
import type { Claimer } from './reader/claims.ts';
import type { CliOption } from './spec.ts';
import { typeFromDefault } from './value-type.ts';

const QUANTITY_OR_ADDRESS = /^(?:[1-9]\d{1,9}|\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?)$/;

/** The whole description an entry of the option list gave the option (its default still in it). */
function entryDescription(option: CliOption, entries: readonly Entry[]): string | null {
  const entry = entries.find(
    (candidate) =>
      candidate.kind === 'option' &&
      candidate.option !== null &&
      (option.long !== null ? candidate.option.longs.some((long) => long.name === option.long) : option.short !== null && candidate.option.longs.length === 0 && candidate.option.shorts.includes(option.short)),
  );
  return entry === undefined ? null : entry.description.join(' ').trim();
}

export function applyStatedValueDefaults(options: CliOption[], entries: readonly Entry[], claim: Claimer): void {
  for (const option of options) {
    // Go-style single-dash long names: Go's `flag` prints `(default x)` for a switch only when it is `true`
    if (option.prefix !== '-' || option.takes_value || option.repeatable || option.negation !== null || (option.long ?? '').startsWith('no-')) continue;
    const description = entryDescription(option, entries);
    if (description === null || description.length === 0) continue;
    const facts = extractDescriptionFacts(description);
    const stated = facts.defaultText;
    if (stated === null) continue;
    if (!facts.defaultQuoted && QUANTITY_OR_ADDRESS.test(stated)) {
      const type = typeFromDefault(stated, false) ?? 'string';
      claim(option, 'takes_value', true);
      claim(option, 'default', type === 'integer' || type === 'number' ? Number(stated) : stated, type);
      continue;
    }
    const named = namedValuesChoices(description);
    if (named === null || named.length < 2 || !named.includes(stated)) continue;
    claim(option, 'takes_value', true);
    claim(option, 'default', stated, 'string');
    claim(option, 'choices', named);
  }
}
