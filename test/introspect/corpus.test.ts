import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { comparableOption, loadCorpus, optionKey } from './corpus.ts';

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
