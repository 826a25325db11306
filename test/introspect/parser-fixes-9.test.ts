/**
 * Notations met in parser fixes round 9 (issue 12), each pinned on a minimal help. First the
 * choices that are no closed set (an invented enum refuses values the program takes), then
 * value-taking, choices, defaults, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';

function option(help: string, key: string) {
  return parseHelp(help).options.find((candidate) => candidate.long === key || candidate.short === key);
}

describe('choices that are no closed set', () => {
  it('clap `Output format: text, json, or graphviz-FMT`: an item patterned with placeholder capitals opens the list', () => {
    const help = 'Usage: deps [OPTIONS]\n\nOptions:\n  -o, --output <FMT>  Output format: text, json, or graphviz-FMT\n  -s, --style <S>     Style: plain, fancy, or bold\n';
    expect(option(help, 'output')?.takes_value).toBe(true);
    expect(option(help, 'output')?.choices).toBeNull();
    expect(option(help, 'style')?.choices).toEqual(['plain', 'fancy', 'bold']);
  });

  it('click `[PATH|URI]` names kinds of value (one placeholder); `[DEBUG|INFO]` names values', () => {
    const help = 'Usage: check [OPTIONS]\n\nOptions:\n  --schemafile [PATH|URI]  The schema to use.\n  --level [DEBUG|INFO]     Log level.\n';
    expect(option(help, 'schemafile')?.takes_value).toBe(true);
    expect(option(help, 'schemafile')?.choices).toBeNull();
    expect(option(help, 'level')?.choices).toEqual(['DEBUG', 'INFO']);
  });

  it('click `{*|FORMAT,FORMAT,...}`: an ellipsis item says more values follow', () => {
    const help = 'Usage: check [OPTIONS]\n\nOptions:\n  --disable-formats {*|FORMAT,FORMAT,...}\n                   Disable format checks.\n  --mode {fast,slow}  Mode.\n';
    expect(option(help, 'disable-formats')?.takes_value).toBe(true);
    expect(option(help, 'disable-formats')?.choices).toBeNull();
    expect(option(help, 'mode')?.choices).toEqual(['fast', 'slow']);
  });

  it('optparse `For svg, use: circle, square` (one case) and `the following shortcuts to the built-in classes: a, b` are partial', () => {
    const help =
      'Usage: qr [options]\n\nOptions:\n  --factory=FACTORY  Python path to the factory class. You can use the following\n                     shortcuts to the built-in factory classes: pil, png, svg.\n  --drawer=DRAWER    Use an alternate drawer. For svg and svg-path, use: circle, gapped-circle\n                     or gapped-square.\n  --mode=MODE        Drawing mode: fast, slow or exact.\n';
    expect(option(help, 'factory')?.choices).toBeNull();
    expect(option(help, 'drawer')?.choices).toBeNull();
    expect(option(help, 'mode')?.choices).toEqual(['fast', 'slow', 'exact']);
  });
});

describe('choices', () => {
  it('optparse `Choices are L (7%), M (15%, default), Q (25%), and H (30%).`: glossed items, the default marked in its gloss', () => {
    const help =
      'Usage: qr [options]\n\nOptions:\n  --error-correction=ERROR_CORRECTION\n                        The error correction level to use. Choices are L (7%), M (15%, default), Q\n                        (25%), and H (30%).\n';
    expect(option(help, 'error-correction')?.choices).toEqual(['L', 'M', 'Q', 'H']);
    expect(option(help, 'error-correction')?.default).toBe('M');
  });
});
