import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { cliSpecSchema } from '../../src/introspect/spec-schema.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { argvExample } from '../../src/introspect/argv-example.ts';
import { adversarialHelpTexts as adversarial } from './adversarial-help.ts';
import { loadCorpus } from './corpus.ts';

/**
 * Parses and checks the result is a valid spec that yields a schema and an argv. Speed is measured by
 * `test/bench/introspect-adversarial.ts`, not here (wall-clock bounds flake on a loaded machine); a
 * catastrophic slow-down still fails these tests through the per-test timeout.
 */
function parseChecked(text: string): void {
  const spec = parseHelp(text, { fileName: 'fuzz.wasm' });
  expect(cliSpecSchema.safeParse(spec).success).toBe(true);
  expect(() => cliSpecToZod(spec)).not.toThrow();
  expect(() => argvExample(spec)).not.toThrow();
}

const corpusTexts = loadCorpus().map((entry) => entry.text);


describe('parseHelp on adversarial input', () => {
  for (const [title, make] of adversarial) {
    it(`never throws: ${title}`, () => {
      parseChecked(make());
    }, 30_000);
  }

  it('never throws on random text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2_000 }), (text) => {
        parseChecked(text);
      }),
      { numRuns: 300, seed: 101 },
    );
  });

  it('never throws on help-shaped random text', () => {
    const piece = fc.constantFrom(
      '-', '--', '-a', '--all', '=', '[', ']', '<', '>', '{', '}', '(', ')', '|', ',', ' ', '  ', '\t', '\n', '...', 'NUM', 'FILE',
      'Usage:', 'usage: prog', 'Options:', 'Commands:', 'Arguments:', '[default: ', '(default ', '[possible values: ', 'one of: ', ':',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), (pieces) => {
        parseChecked(pieces.join(''));
      }),
      { numRuns: 300, seed: 102 },
    );
  });

  it('never throws on mutated real help texts', () => {
    fc.assert(
      fc.property(fc.constantFrom(...corpusTexts), fc.nat(), fc.string({ maxLength: 40 }), (text, position, insert) => {
        const at = position % (text.length + 1);
        parseChecked(text.slice(0, at) + insert + text.slice(at));
      }),
      { numRuns: 200, seed: 103 },
    );
  });
});
