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

  // Measured (npx tsx test/bench/help-corpus.ts). Tuned: 716 texts, every earlier part, each
  // measured once on first look before it was tuned on (batches 14–18: choices 30–81%, positionals
  // 46–88%; batch 20, 64 texts: choices 58.2%, positionals 79.5%; batch 21, 44 texts: choices 52.8%,
  // defaults 59.8%, positionals 42.9%), plus batch 13 (62 texts, held back for two sessions and
  // measured three times, turned into tuning material at the start of the fifth session): precision
  // 99.7%, recall 99.4%, value-taking 99.1%, choices 95.0% (14 invented), defaults 95.4% (13
  // invented), positionals 95.6%, names 98.3%. Held-back: batch 19 (64 texts, written up by hand by
  // people who never ran the parser, reviewed by two more, staged outside the repository while the
  // parser was tuned on other texts; measured twice at the end of the fourth session, its misses not
  // looked at): precision 98.6%, recall 98.0%, value-taking 96.4%, choices 80.7% (13 invented),
  // defaults 83.4% (12 invented), positionals 59.6%, names 98.4%; measured again as a dev check after
  // round 17 (fifth session): precision 98.7%, defaults 84.5% (13 invented), choices 80.7% (12 invented), the rest unchanged. Floors sit a little below what is
  // measured, so a regression fails; they record where the parser stands, not the goal.
  it.each([
    ['tuned', { precision: 0.995, recall: 0.99, valueTaking: 0.99, choices: 0.945, defaults: 0.95, positionals: 0.95, names: 0.98, invented: 13, inventedChoices: 14 }],
    ['held-back', { precision: 0.98, recall: 0.975, valueTaking: 0.96, choices: 0.8, defaults: 0.83, positionals: 0.59, names: 0.98, invented: 13, inventedChoices: 13 }],
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
