/**
 * The reader architecture's claim shapes and dialect rows: typed default claims, `kept: false`
 * claims, the claimer a reader emits through, and the rows that took the framework sniffs out of
 * the core (cobra layout, yargs type tags, meow/citty hand-written placeholders, Go flag's own lines
 * and `Usage of` title), each seen end to end through `parseHelp` with its source.
 */
import { describe, expect, it } from 'vitest';
import { dialectLayout, placeholdersByHand, readOwnLines, readUsageTitle, tagsEveryType } from '../../src/introspect/dialects/index.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { ClaimLedger, WEIGHT } from '../../src/introspect/reader/claims.ts';
import { claimChoices, claimTakesValue } from '../../src/introspect/reader/option-claims.ts';
import type { CliOption, CliPositional } from '../../src/introspect/spec.ts';

const blank = (patch: Partial<CliOption> = {}): CliOption => ({
  long: 'x',
  short: null,
  aliases: [],
  takes_value: true,
  value_name: 'N',
  type: 'string',
  default: null,
  choices: null,
  repeatable: false,
  required: false,
  negation: null,
  description: null,
  ...patch,
});

describe('claims: typed defaults, kept, the claimer', () => {
  it('a default claim that wins writes its type with it, under its source; one that loses writes neither', () => {
    const ledger = new ClaimLedger();
    const won = blank();
    expect(ledger.claimAll([{ field: 'default', option: won, value: 250, source: 'help:generic.evidence-defaults', weight: WEIGHT.fallback, type: 'integer' }])).toBe(1);
    expect(won).toMatchObject({ default: 250, type: 'integer' });
    const held = blank();
    ledger.claimer('help:clap.default-bracket', WEIGHT.dialect)(held, 'default', 'fast');
    expect(ledger.claimAll([{ field: 'default', option: held, value: 3, source: 'help:generic.evidence-defaults', weight: WEIGHT.fallback, type: 'integer' }])).toBe(0);
    expect(held).toMatchObject({ default: 'fast', type: 'string' });
    ledger.finish([won, held]);
    expect(won.sources).toEqual({ default: 'help:generic.evidence-defaults', type: 'help:generic.evidence-defaults' });
    expect(held.sources).toEqual({ default: 'help:clap.default-bracket' });
  });

  it('a `kept: false` claim leaves the item out and is never written into it', () => {
    const ledger = new ClaimLedger();
    const keep: CliPositional = { name: 'FILE', required: true, variadic: false };
    const drop: CliPositional = { name: 'flags', required: false, variadic: false };
    ledger.claimAll([{ field: 'kept', option: drop, value: false, source: 'help:generic.evidence-positionals', weight: WEIGHT.fallback }]);
    expect(ledger.kept([keep, drop])).toEqual([keep]);
    expect(drop).not.toHaveProperty('kept');
  });

  it('the claimer claims only what changes: an unchanged field keeps the source it had', () => {
    const ledger = new ClaimLedger();
    const option = blank({ takes_value: false, type: 'boolean', value_name: null });
    ledger.claimer('help:generic.option-entry')(option, 'type', 'boolean');
    claimTakesValue(ledger.claimer('help:generic.description-value-cue'), option, { dropDefault: 'any' });
    claimChoices(ledger.claimer('help:generic.titled-value-list'), option, ['a', 'b']);
    // the same list again from a later reader: no claim, the first reader keeps the field
    claimChoices(ledger.claimer('help:generic.flag-value-list'), option, ['a', 'b']);
    ledger.finish([option]);
    expect(option).toMatchObject({ takes_value: true, type: 'string', choices: ['a', 'b'] });
    // (`type` was already `string` when the list reader claimed it: the value-taking reader keeps it)
    expect(option.sources).toEqual({ takes_value: 'help:generic.description-value-cue', type: 'help:generic.description-value-cue', choices: 'help:generic.titled-value-list' });
  });
});

describe('dialect rows that replaced core sniffs', () => {
  const COBRA = 'Stern tails pods.\n\nUsage:\n  stern pod-query [flags]\n\nFlags:\n  -h, --help   help for stern\n\nUse "stern [command] --help" for more information about a command.\n';
  it('cobra (layout row): options after the command, its source, and the command the help flag names', () => {
    const layout = dialectLayout(COBRA.split('\n'));
    expect(layout).toEqual({ proseAboveUsage: true, optionsAfterCommand: 'help:cobra.persistent-flags', commandName: 'stern' });
    expect(dialectLayout(['Usage: x [OPTIONS]']).optionsAfterCommand).toBeNull();
    const spec = parseHelp(`${COBRA}\nAvailable Commands:\n  logs   Show logs\n`);
    expect(spec.options_after_command).toBe(true);
    expect(spec.sources?.options_after_command).toBe('help:cobra.persistent-flags');
  });

  it('yargs (type-tags row): only a help flag tagged `[boolean]` says untagged options take values', () => {
    const tagged = 'Options:\n  --help     Show help  [boolean]\n  --out      Output file\n';
    expect(tagsEveryType(tagged.split('\n'))).toBe(true);
    expect(tagsEveryType(['Options:', '  --help     Show help'])).toBe(false);
    expect(parseHelp(tagged).options.find((option) => option.long === 'out')?.takes_value).toBe(true);
    expect(parseHelp('Options:\n  --help     Show help\n  --out      Output file\n').options.find((option) => option.long === 'out')?.takes_value).toBe(false);
  });

  it('meow and citty (placeholders-by-hand rows): meow states defaults by hand, citty only cues', () => {
    const meow = '\n  Gzip size\n\n  Usage\n    $ gzip-size <file>\n\n  Options\n    --level   Compression level [0-9] (Default: 9)\n    --raw     Display value in bytes\n';
    expect(placeholdersByHand(meow.split('\n'))).toEqual({ any: true, statedDefaults: true });
    expect(placeholdersByHand(['USAGE prog [OPTIONS]', '', 'OPTIONS', '  --port  Port to listen on'])).toEqual({ any: true, statedDefaults: false });
    expect(placeholdersByHand(['Usage: prog [OPTIONS]'])).toEqual({ any: false, statedDefaults: false });
    const level = parseHelp(meow).options.find((option) => option.long === 'level');
    expect(level).toMatchObject({ takes_value: true, default: 9 });
  });

  it('Go flag (own-lines and usage-title rows): flags read before the scan and the program named by the title, with their sources', () => {
    const go = 'Usage of hclfmt:\n  -check\n    \tcheck formatting only\n  -w string\n    \twrite to FILE\n';
    const lines = go.split('\n');
    expect(readOwnLines(lines).source).toBe('help:goflag.flag-line');
    expect(readOwnLines(['Usage: x [OPTIONS]']).source).toBeNull();
    expect(readUsageTitle(lines)).toEqual({ index: 0, quoted: null, plain: 'hclfmt', source: 'help:goflag.usage-of' });
    const spec = parseHelp(go);
    expect(spec.name).toBe('hclfmt');
    expect(spec.sources?.name).toBe('help:goflag.usage-of');
    // (Go's one-letter flag is its short spelling)
    const write = spec.options.find((option) => option.short === 'w');
    expect(write).toMatchObject({ takes_value: true, prefix: '-' });
    expect(write?.sources).toMatchObject({ short: 'help:goflag.flag-line', takes_value: 'help:goflag.flag-line' });
  });
});
