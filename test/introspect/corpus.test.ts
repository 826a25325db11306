import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { comparableOption, loadCorpus, optionKey } from './corpus.ts';
import { loadScoredCorpus, ratio, scoreCorpus, type CorpusSplit } from './help-corpus-score.ts';

const corpus = loadCorpus();

describe('help corpus (verbatim help of real programs, hand-written expectations)', () => {
  it('has at least twelve real help texts in many styles', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(12);
    const styles = new Set(corpus.map((entry) => entry.id.split('-')[0]));
    expect(styles.size).toBeGreaterThanOrEqual(10);
  });

  for (const entry of corpus) {
    describe(entry.id, () => {
      const spec = parseHelp(entry.text, { fileName: `${entry.id}.wasm` });

      it('names the tool and describes it', () => {
        expect(spec.name).toBe(entry.expected.name);
        expect(spec.description).toBe(entry.expected.description);
      });

      for (const expectedOption of entry.expected.options) {
        it(`option ${optionKey(expectedOption)}`, () => {
          const found = spec.options.find((option) => optionKey(option) === optionKey(expectedOption));
          expect(found, `option ${optionKey(expectedOption)} not parsed`).toBeDefined();
          if (found) expect(comparableOption(found, expectedOption)).toEqual(expectedOption);
        });
      }

      if (!entry.expected.partial) {
        it('finds no other options, in help order', () => {
          expect(spec.options.map(optionKey)).toEqual(entry.expected.options.map(optionKey));
        });
      }

      it('positionals', () => {
        expect(spec.positionals.map(({ name, required, variadic }) => ({ name, required, variadic }))).toEqual(entry.expected.positionals);
      });

      it('subcommands', () => {
        expect(spec.subcommands).toEqual(entry.expected.subcommands);
      });
    });
  }
});

describe('measured help corpus (public tools, tuned and held-back): floors', () => {
  const scored = loadScoredCorpus();
  const score = (split: CorpusSplit) => scoreCorpus(scored.filter((entry) => entry.split === split));

  it('has at least 60 help texts from many frameworks, and at least 10 held back', () => {
    expect(scored.length).toBeGreaterThanOrEqual(60);
    expect(new Set(scored.map((entry) => entry.id.split('-')[0])).size).toBeGreaterThanOrEqual(12);
    expect(scored.filter((entry) => entry.split === 'held-back').length).toBeGreaterThanOrEqual(10);
  });

  // Measured (npx tsx test/bench/help-corpus.ts). Tuned (69 files, including the 24 first held back
  // and then tuned on): 100% on every row, no invented default. Held-back (12 files new in the
  // second pass, measured once, never tuned on): precision 98.9%, recall 97.2%, value-taking 92.4%,
  // choices 14.3%, defaults 16.7%, positionals 46.7%, names 91.7%. Floors sit a little below, so a
  // regression fails; the held-back floors record where the parser stands, not the goal.
  it.each([
    ['tuned', { precision: 0.98, recall: 0.98, valueTaking: 0.98, choices: 0.95, defaults: 0.95, positionals: 0.95, names: 0.97, invented: 2 }],
    ['held-back', { precision: 0.96, recall: 0.95, valueTaking: 0.9, choices: 0.1, defaults: 0.1, positionals: 0.4, names: 0.85, invented: 2 }],
  ] as const)('%s', (split, floor) => {
    const measured = score(split);
    expect(ratio(measured.precision)).toBeGreaterThanOrEqual(floor.precision);
    expect(ratio(measured.recall)).toBeGreaterThanOrEqual(floor.recall);
    expect(ratio(measured.valueTaking)).toBeGreaterThanOrEqual(floor.valueTaking);
    expect(ratio(measured.choices)).toBeGreaterThanOrEqual(floor.choices);
    expect(ratio(measured.defaults)).toBeGreaterThanOrEqual(floor.defaults);
    expect(ratio(measured.positionals)).toBeGreaterThanOrEqual(floor.positionals);
    expect(ratio(measured.names)).toBeGreaterThanOrEqual(floor.names);
    expect(measured.inventedDefaults).toBeLessThanOrEqual(floor.invented);
  });
});
