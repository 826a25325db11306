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

  // Measured (npx tsx test/bench/help-corpus.ts). Tuned: 154 texts (every earlier part, each measured
  // once before it was tuned on): precision and recall 100%, value-taking 99.8%, choices 97.9%,
  // defaults 99.7%, positionals 99.4%, names 99.4%, no invented default. Held-back: 32 texts (13
  // JS/Python, 19 Go/Rust/GNU/other) written up by hand by people who never ran the parser, kept out
  // of the tree while the parser was tuned, never tuned on, their misses never looked at; measured
  // three times, before and after two tuning rounds on other texts: precision 100%, recall 99.7%,
  // value-taking 97.4 → 97.7%, choices 63.5%, defaults 90.3 → 90.9% (5 → 4 invented), positionals
  // 69.7%, names 93.8%. Floors sit a little below what is measured, so a regression fails; they
  // record where the parser stands, not the goal.
  it.each([
    ['tuned', { precision: 0.99, recall: 0.99, valueTaking: 0.99, choices: 0.95, defaults: 0.99, positionals: 0.98, names: 0.98, invented: 0 }],
    ['held-back', { precision: 0.98, recall: 0.98, valueTaking: 0.96, choices: 0.6, defaults: 0.88, positionals: 0.65, names: 0.9, invented: 5 }],
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
