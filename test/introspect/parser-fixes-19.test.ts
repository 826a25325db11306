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

describe('value-taking', () => {
  it('argparse metavars naming a shape with the key in capitals: `-F FILTER[:options]`, `-P OPTION=value`, `-O OPTION=value[,OPTION=value,...]`', () => {
    const help =
      'usage: pygmentize [-F FILTER[:options]] [-O OPTION=value[,OPTION=value,...]]\n\noptions:\n  -F FILTER[:options]\n                Add a filter to the token stream.\n  -O OPTION=value[,OPTION=value,...]\n                Give options to the lexer.\n  -P OPTION=value\n                Give a single option.\n  -v            Print a traceback.\n';
    for (const key of ['F', 'O', 'P']) expect(option(help, key)?.takes_value).toBe(true);
    expect(option(help, 'v')?.takes_value).toBe(false);
  });
});

describe('choices', () => {
  it('argparse `-H NAME TYPE … where <type> is one of "a", "b" or "c"`: a list for one of several values is no enum of the option', () => {
    const help = 'options:\n  -H NAME TYPE  Print help for the object <name> of type <type>, where <type> is one of\n                "lexer", "formatter" or "filter".\n  -k KIND       Kind, one of "lexer", "formatter" or "filter".\n';
    expect(option(help, 'H')).toMatchObject({ takes_value: true, choices: null });
    expect(option(help, 'k')?.choices).toEqual(['lexer', 'formatter', 'filter']);
  });
});

describe('defaults', () => {
  it('argparse `(default: unlimited)` / `(default: infinite)`: no limit, in words, is no default', () => {
    const help = 'options:\n  --max-cons-per-ip MAX_CONS_PER_IP\n                        maximum connections from one address (default: unlimited)\n  --max-cons MAX_CONS   max number of connections (default: 512)\n';
    expect(option(help, 'max-cons-per-ip')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'max-cons')?.default).toBe(512);
  });
});

describe('defaults by case', () => {
  it('hand-written `Defaults to 1883 for plain MQTT and 8883 for MQTT over TLS.`: one value per case is no default', () => {
    const help = 'Usage: pub [-p port] [-k keepalive]\n\n -p : network port to connect to. Defaults to 1883 for plain MQTT and 8883 for MQTT over TLS.\n -k : keep alive in seconds for this client. Defaults to 60 for now.\n';
    expect(option(help, 'p')).toMatchObject({ takes_value: true, default: null });
    expect(String(option(help, 'k')?.default)).toBe('60');
  });
});
