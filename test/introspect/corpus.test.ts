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

  // Measured (npx tsx test/bench/help-corpus.ts). Tuned: 610 texts, every earlier part, each
  // measured once on first look before it was tuned on (batches 14–18: choices 30–81%, positionals
  // 46–88%; batch 20, 64 texts, gathered in the fourth session: choices 58.2%, defaults 77.7%,
  // positionals 79.5%, recall 93.2%, names 85.9%). Batch 12 (60, held back for two sessions) became
  // tuning material in the fourth session. Tuned now: precision 99.8%, recall 99.2%, value-taking
  // 99.3%, choices 95.1% (4 invented), defaults 97.3% (7 invented), positionals 97.2%, names 97.7%.
  // Held-back: batch 13 (62: 17 C/C++/Perl/Ruby/Haskell/Java, 15 Python, 15 JS/TS, 15 Rust/Go),
  // written up by hand by people who never ran the parser, staged outside the repository while six
  // rounds tuned on other texts and measured once: precision 96.8%, recall 97.3%, value-taking
  // 97.5%, choices 67.8% (5 invented), defaults 85.5% (8 invented), positionals 76.2%, names 93.5%;
  // its misses are not looked at. Floors sit a little below what is measured, so a regression
  // fails; they record where the parser stands, not the goal.
  it.each([
    ['tuned', { precision: 0.995, recall: 0.99, valueTaking: 0.99, choices: 0.95, defaults: 0.97, positionals: 0.97, names: 0.97, invented: 7, inventedChoices: 4 }],
    ['held-back', { precision: 0.965, recall: 0.97, valueTaking: 0.97, choices: 0.67, defaults: 0.85, positionals: 0.76, names: 0.93, invented: 8, inventedChoices: 5 }],
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
