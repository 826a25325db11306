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

  // Measured (npx tsx test/bench/help-corpus.ts). Tuned: 324 texts, every earlier part, each
  // measured once on first look before it was tuned on (batches 7–11 this round: choices 46–76%,
  // positionals 59–89% on first look): precision and recall ≥ 99.9%, value-taking 99.6%, choices
  // 98.6%, defaults 99.5%, positionals 99.7%, names 99.4%, nothing invented. Held-back: 116 texts in
  // two parts written up by hand by people who never ran the parser, staged outside the repository
  // while the parser was tuned on other texts, added only to be measured, each measured once, misses
  // never looked at. Batch 6 (56: 13 C/GNU, 13 Python, 14 JS/TS, 16 Rust/Go): precision 98.5%,
  // recall 98.7%, value-taking 93.8%, choices 73.9%, defaults 73.4%, positionals 69.8%, names 94.6%.
  // Batch 12 (60: 15 C/Perl/Ruby, 14 Python, 17 JS/TS, 14 Rust/Go): 98.3%, 96.0%, 96.1%, 63.2%,
  // 80.1%, 84.6%, 93.3%. Both: 98.4%, 97.4%, 94.8%, 69.0% (7 invented), 76.4% (7 invented), 76.5%,
  // 94.0%. Floors sit a little below what is measured, so a regression fails; they record where the
  // parser stands, not the goal.
  it.each([
    ['tuned', { precision: 0.99, recall: 0.99, valueTaking: 0.99, choices: 0.97, defaults: 0.99, positionals: 0.99, names: 0.98, invented: 0, inventedChoices: 0 }],
    ['held-back', { precision: 0.97, recall: 0.96, valueTaking: 0.93, choices: 0.65, defaults: 0.72, positionals: 0.7, names: 0.9, invented: 9, inventedChoices: 9 }],
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
    expect(measured.inventedChoices).toBeLessThanOrEqual(floor.inventedChoices);
  });
});
