import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { cliSpecSchema } from '../../src/introspect/spec-schema.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { argvExample } from '../../src/introspect/argv-example.ts';
import { loadCorpus } from './corpus.ts';

/** Parses, checks the result is a valid spec that yields a schema and an argv, and returns the time taken. */
function parseTimed(text: string): number {
  const started = performance.now();
  const spec = parseHelp(text, { fileName: 'fuzz.wasm' });
  const elapsed = performance.now() - started;
  expect(cliSpecSchema.safeParse(spec).success).toBe(true);
  expect(() => cliSpecToZod(spec)).not.toThrow();
  expect(() => argvExample(spec)).not.toThrow();
  return elapsed;
}

const corpusTexts = loadCorpus().map((entry) => entry.text);

const adversarial: [string, () => string][] = [
  ['5 MB of text', () => 'Usage: big [OPTION]... FILE\n'.concat('  -a, --alpha=NUM   something [default: 3]\n'.repeat(130_000))],
  ['one 5 MB line', () => 'x'.repeat(5 * 1024 * 1024)],
  ['thousands of dashes', () => '-'.repeat(200_000)],
  ['dash lines', () => `${'  ---------------------------------------- --------\n'.repeat(20_000)}`],
  ['nested brackets', () => `Usage: p ${'['.repeat(100_000)}${']'.repeat(100_000)}\n  --x=${'['.repeat(50_000)}`],
  ['nested angle and braces', () => `  -a, --all ${'<{['.repeat(30_000)}  text ${'(default: '.repeat(30_000)}`],
  ['unclosed annotation groups', () => `  --opt VALUE   desc ${'[default: '.repeat(40_000)}`],
  ['many options', () => Array.from({ length: 20_000 }, (_, index) => `  -${String.fromCharCode(97 + (index % 26))}, --opt-${index}=N  option ${index}`).join('\n')],
  ['Go-like lines', () => '  -x string\n    \tdesc (default "'.repeat(50_000)],
  ['usage forms', () => `Usage:\n${'  prog [--a=<x>|--b] (c|d)... <e>...\n'.repeat(20_000)}`],
  ['binary noise', () => Array.from({ length: 200_000 }, (_, index) => String.fromCharCode((index * 7919) % 65_536)).join('')],
  ['escape sequences', () => '\u001b[1m--bold\u001b[0m  x\n'.repeat(50_000)],
  ['CR line ends', () => '  -a, --b  c\r'.repeat(100_000)],
  ['tabs', () => '\t\t-a\t--b\t\tc\n'.repeat(50_000)],
];

describe('parseHelp on adversarial input', () => {
  for (const [title, make] of adversarial) {
    it(`never throws and stays fast: ${title}`, () => {
      expect(parseTimed(make())).toBeLessThan(3_000);
    });
  }

  it('never throws on random text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2_000 }), (text) => {
        expect(parseTimed(text)).toBeLessThan(1_000);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on help-shaped random text', () => {
    const piece = fc.constantFrom(
      '-', '--', '-a', '--all', '=', '[', ']', '<', '>', '{', '}', '(', ')', '|', ',', ' ', '  ', '\t', '\n', '...', 'NUM', 'FILE',
      'Usage:', 'usage: prog', 'Options:', 'Commands:', 'Arguments:', '[default: ', '(default ', '[possible values: ', 'one of: ', ':',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), (pieces) => {
        expect(parseTimed(pieces.join(''))).toBeLessThan(1_000);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on mutated real help texts', () => {
    fc.assert(
      fc.property(fc.constantFrom(...corpusTexts), fc.nat(), fc.string({ maxLength: 40 }), (text, position, insert) => {
        const at = position % (text.length + 1);
        expect(parseTimed(text.slice(0, at) + insert + text.slice(at))).toBeLessThan(1_000);
      }),
      { numRuns: 200 },
    );
  });
});
