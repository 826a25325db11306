import { describe, expect, it } from 'vitest';
import { scoreCorpus, type ScoredCase } from './help-corpus-score.ts';

const HELP = 'Usage: fetch [OPTIONS] [FILE|URL|-]\n\nOptions:\n  -v, --verbose  Say more.\n';

function scored(positionals: { name: string; required: boolean; variadic: boolean }[]): ReturnType<typeof scoreCorpus> {
  const entry: ScoredCase = {
    id: 'hand-fetch',
    split: 'tuned',
    source: 'test',
    text: HELP,
    expected: { program: 'fetch', partial: false, positionals, options: [{ long: 'verbose', short: 'v', takes_value: false }] },
  };
  return scoreCorpus([entry]);
}

describe('help corpus scorer: positionals', () => {
  it('pairs a slot written up by its first alternative (`FILE`) with the parsed `FILE|URL|-`, and scores required/variadic on the pair', () => {
    const score = scored([{ name: 'FILE', required: false, variadic: false }]);
    expect(score.positionals).toEqual({ hit: 1, total: 1 });
    expect(score.misses).toEqual([]);
  });

  it('still misses a wrong required flag on the paired slot, and a name that is none of the alternatives', () => {
    expect(scored([{ name: 'FILE', required: true, variadic: false }]).positionals).toEqual({ hit: 0, total: 1 });
    const unrelated = scored([{ name: 'INPUT', required: false, variadic: false }]);
    expect(unrelated.positionals).toEqual({ hit: 0, total: 2 });
    expect(unrelated.misses.some((line) => line.includes('invented'))).toBe(true);
  });
});
