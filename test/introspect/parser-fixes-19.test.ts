/**
 * Notations met in parser fixes round 13 on batch 17's C/Ruby/Perl/Python texts (issue 12), each
 * pinned on a minimal help: value-taking, names, choices, defaults and positionals.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('spellings', () => {
  it('rlwrap `-b  <chars>   --break-chars=<chars>`: a placeholder column before a long column repeating it is one option', () => {
    const help =
      'Usage: rlwrap [options] command ...\n\nOptions:\n  -a[password prompt]        --always-readline[=password prompt]\n  -A                         --ansi-colour-aware\n  -b  <chars>                --break-chars=<chars>\n  -f  <completion list>      --file=<completion list>\n  -s  <N>                    --histsize=<N> (negative: readonly)\n';
    expect(option(help, 'b')).toMatchObject({ long: 'break-chars', takes_value: true });
    expect(option(help, 'f')).toMatchObject({ long: 'file', takes_value: true });
    expect(option(help, 'a')).toMatchObject({ long: 'always-readline', takes_value: true });
    expect(option(help, 's')).toMatchObject({ long: 'histsize', takes_value: true });
    expect(option(help, 'A')).toMatchObject({ long: 'ansi-colour-aware', takes_value: false });
    expect(parseHelp(help).options).toHaveLength(5);
  });
});
