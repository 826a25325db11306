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

  // Measured (npx tsx test/bench/help-corpus.ts). Tuned: 780 texts, every earlier part, each
  // measured once on first look before it was tuned on (batches 14–18: choices 30–81%, positionals
  // 46–88%; batch 21, 44 texts: choices 52.8%, defaults 59.8%, positionals 42.9%), and the two parts
  // held back in the fourth session, batch 13 (62) and batch 19 (64), which became tuning material in
  // the fifth (batch 19 at its last measurement as held-back: choices 80.7%, defaults 84.5%,
  // positionals 59.6%): precision 100.0%, recall 99.8%, value-taking 99.4%, choices 97.6% (1
  // invented), defaults 97.8% (2 invented), positionals 98.9%, names 99.0%.
  // Held-back: batch 22 (64 texts in four parts: C/Perl/Ruby, Python, JS/TS, Go/Rust), written up by
  // hand by people who never ran the parser, reviewed by two more, staged outside the repository
  // while the parser was tuned on other texts, and measured once at the end of the fifth session; its
  // misses are not looked at: precision 98.8%, recall 93.1%, value-taking 96.0%, choices 65.6% (12
  // invented), defaults 79.9% (8 invented), positionals 63.8%, names 82.8%. Floors sit a little
  // below what is measured, so a regression fails; they record where the parser stands, not the goal.
  it.each([
    ['tuned', { precision: 0.995, recall: 0.995, valueTaking: 0.99, choices: 0.97, defaults: 0.97, positionals: 0.98, names: 0.985, invented: 2, inventedChoices: 1 }],
    ['held-back', { precision: 0.985, recall: 0.93, valueTaking: 0.955, choices: 0.65, defaults: 0.79, positionals: 0.63, names: 0.82, invented: 8, inventedChoices: 12 }],
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
