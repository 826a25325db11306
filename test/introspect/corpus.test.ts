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

  // Measured (npx tsx test/bench/help-corpus.ts). Tuned: 380 texts, every earlier part, each
  // measured once on first look before it was tuned on (batches 7–11: choices 46–76%, positionals
  // 59–89% on first look). Batch 6 (56 texts, held back last session and measured once: choices
  // 73.9%, positionals 69.8%) has just become tuning material; until its misses are fixed the tuned
  // part stands at precision 99.7%, recall 99.7%, value-taking 98.7%, choices 95.8% (4 invented),
  // defaults 95.6% (2 invented), positionals 94.8%, names 98.7%. Held-back: batch 12, 60 texts
  // (15 C/Perl/Ruby, 14 Python, 17 JS/TS, 14 Rust/Go) written up by hand by people who never ran
  // the parser, staged outside the repository while the parser was tuned on other texts, added only
  // to be measured, measured once, misses never looked at: precision 98.3%, recall 96.0%,
  // value-taking 96.1%, choices 63.2% (3 invented), defaults 80.1% (5 invented), positionals 84.6%,
  // names 93.3%. Floors sit a little below what is measured, so a regression fails; they record
  // where the parser stands, not the goal.
  it.each([
    ['tuned', { precision: 0.99, recall: 0.985, valueTaking: 0.985, choices: 0.95, defaults: 0.96, positionals: 0.93, names: 0.98, invented: 5, inventedChoices: 11 }],
    ['held-back', { precision: 0.97, recall: 0.955, valueTaking: 0.95, choices: 0.6, defaults: 0.78, positionals: 0.82, names: 0.9, invented: 5, inventedChoices: 3 }],
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
