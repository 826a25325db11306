/**
 * Hand-written usage forms group options in brackets and braces and write each one's value words
 * after it: mosquitto `{[-h host] … -t topic | -L URL}`, `{-f file | -l | -m message}`, `[--psk
 * hex-key --psk-identity identity [--ciphers ciphers]]`, `[--property command identifier value]`.
 * Inside a group, a spelling followed by value words (lower case, capitals or `<…>`) that run up to the group's end, a `|`,
 * another spelling or a nested bracket takes that many values, even when its list entry (`-t : mqtt
 * topic to publish to.`) shows it bare or the list leaves it out.
 */
import type { CliOption } from './spec.ts';
import type { OptionClaims } from './reader/claims.ts';

const GROUPED_VALUE = /(?<=^|[\s[{(|])(-[A-Za-z0-9]|--[A-Za-z0-9][\w-]{0,40})((?:\s+(?:[a-z][\w-]{0,30}|[A-Z][A-Z0-9_]{0,30}|<[A-Za-z][\w-]{0,40}>)){1,3})(?=\s*(?:[\]})|[]|-{1,2}[A-Za-z0-9]))/g;

/** How many groups are open before `index` in a form (`[`, `{`, `(` against their closers). */
function depthAt(form: string, index: number): number {
  let depth = 0;
  for (const character of form.slice(0, index)) {
    if ('[{('.includes(character)) depth += 1;
    else if (']})'.includes(character)) depth = Math.max(0, depth - 1);
  }
  return depth;
}

export function applyGroupedUsageValues(options: CliOption[], usageForms: readonly string[], emit: OptionClaims): void {
  for (const form of usageForms) {
    for (const match of form.matchAll(GROUPED_VALUE)) {
      if (depthAt(form, match.index) === 0) continue;
      const spelling = match[1] ?? '';
      const words = (match[2] ?? '').trim().split(/\s+/);
      const name = spelling.replace(/^-+/, '');
      const long = spelling.startsWith('--');
      const known = options.find((option) => (long ? option.long === name && option.prefix === undefined : option.short === name));
      const valueName = (words[0] ?? '').replace(/[<>]/g, '');
      if (known === undefined) {
        options.push(
          emit.exists({
            long: long ? name : null, short: long ? null : name, aliases: [], takes_value: true, value_name: valueName, type: 'string', default: null,
            choices: null, repeatable: false, required: false, negation: null, description: null,
            ...(words.length > 1 ? { value_count: words.length } : {}),
          }),
        );
        continue;
      }
      if (known.takes_value || known.negation !== null) continue;
      emit.claim(known, 'takes_value', true);
      emit.claim(known, 'type', 'string');
      emit.claim(known, 'value_name', valueName);
      emit.claim(known, 'default', null);
      if (words.length > 1) emit.claim(known, 'value_count', words.length);
    }
  }
}
