/**
 * Notations met in parser fixes round 13 on batch 17's JS/TS and Rust/Go texts (issue 12), each
 * pinned on a minimal help: invented choices, value-taking, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { option } from './parsed-option.ts';

describe('choices', () => {
  it('gosec `- atlas (Atlas default), atlas-x, atlas:<model-id>;`: bullets opening runs of values are no definition list', () => {
    const help =
      'Usage of prog:\n  -provider string\n    \tAI provider. Valid options are:\n    \t- atlas (Atlas default), atlas-small, atlas:<model-id>;\n    \t- gemini-pro (gemini, default), gemini-flash\n  -v\tverbose\n';
    expect(option(help, 'provider')).toMatchObject({ takes_value: true, choices: null });
    // a bullet definition list still gives its names
    const listed = 'Options:\n  --mode <m>   Pick one:\n               - fast: run swiftly\n               - safe: run carefully\n';
    expect(option(listed, 'mode')?.choices).toEqual(['fast', 'safe']);
  });
});

describe('value-taking', () => {
  it('yargs `[count]`: a flag repeated to count (`-LLL`), no value', () => {
    const help = 'Usage: x [options]\n\nOptions:\n  -h, --help       Show help                           [boolean]\n  -L, --log-level  Set the loglevel. -LLL is default.    [count]\n  -d, --depth      Depth of the tree                    [number]\n';
    expect(option(help, 'log-level')).toMatchObject({ takes_value: false, repeatable: true });
    expect(option(help, 'depth')?.takes_value).toBe(true);
  });
});
