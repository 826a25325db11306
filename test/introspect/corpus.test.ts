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

  // Measured (npx tsx test/bench/help-corpus.ts). Tuned: 654 texts, every earlier part, each
  // measured once on first look before it was tuned on (batches 14–18: choices 30–81%, positionals
  // 46–88%; batch 20, 64 texts: choices 58.2%, positionals 79.5%; batch 21, 44 texts, gathered late
  // in the fourth session as a dev set and not tuned on: choices 52.8%, defaults 59.8%, positionals
  // 42.9%; 62.5% once the round-16 positionals reader was merged): precision 99.9%, recall 99.6%,
  // value-taking 99.3%, choices 96.3% (7 invented), defaults 96.3% (4 invented), positionals 97.0%,
  // names 98.6%. Held-back: 126 texts in two
  // parts, written up by hand by people who never ran the parser and staged outside the repository
  // while the parser was tuned on other texts; their misses are not looked at. Batch 13 (62, measured
  // at the end of the third session and again at the end of the fourth) and batch 19 (64, gathered
  // at the start of the fourth session, reviewed by two more people, measured at its end before and after
  // the round-16 positionals reader, which was merged on a dev batch's numbers). Both: precision
  // 97.8%, recall 97.7%, value-taking 97.0%, choices 81.0% (20 invented), defaults 85.6% (21
  // invented), positionals 70.1% (68.3% before the reader), names 96.8%. Floors sit a little below what is measured, so a
  // regression fails; they record where the parser stands, not the goal.
  it.each([
    ['tuned', { precision: 0.995, recall: 0.99, valueTaking: 0.99, choices: 0.96, defaults: 0.96, positionals: 0.96, names: 0.98, invented: 4, inventedChoices: 7 }],
    ['held-back', { precision: 0.975, recall: 0.975, valueTaking: 0.965, choices: 0.8, defaults: 0.85, positionals: 0.69, names: 0.96, invented: 21, inventedChoices: 20 }],
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
