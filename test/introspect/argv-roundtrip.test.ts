import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import type { CliSpec } from '../../src/introspect/spec.ts';
import { propertyNamesOf } from '../../src/introspect/property-name.ts';
import { inputArbitrary, specArbitrary } from './arbitraries.ts';
import { expressible, parseGnuArgv, parseGoArgv } from './reference-parsers.ts';

function normalizeNumbers(value: unknown): unknown {
  if (typeof value === 'number' && Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(normalizeNumbers);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, normalizeNumbers(inner)]));
  }
  return value;
}

const specAndInput = (style: 'gnu' | 'go') => specArbitrary(style).chain((spec) => fc.tuple(fc.constant(spec), inputArbitrary(spec)));

describe('spec → argv → reference parser gives the input back', () => {
  it('GNU style, parsed back with util.parseArgs', () => {
    fc.assert(
      fc.property(specAndInput('gnu'), ([spec, input]) => {
        const argv = cliSpecToArgv(spec, input);
        expect(normalizeNumbers(parseGnuArgv(spec, argv))).toEqual(normalizeNumbers(expressible(spec, input)));
      }),
      { numRuns: 400, seed: 201 },
    );
  });

  it('Go flag style (single dash), parsed back with Go flag rules', () => {
    fc.assert(
      fc.property(specAndInput('go'), ([spec, input]) => {
        const argv = cliSpecToArgv(spec, input);
        expect(normalizeNumbers(parseGoArgv(spec, argv))).toEqual(normalizeNumbers(expressible(spec, input)));
      }),
      { numRuns: 400, seed: 202 },
    );
  });
});

describe('the zod schema accepts exactly the valid inputs', () => {
  it('accepts every generated valid input', () => {
    fc.assert(
      fc.property(specAndInput('gnu'), ([spec, input]) => {
        expect(cliSpecToZod(spec).safeParse(input).success).toBe(true);
      }),
      { numRuns: 300, seed: 203 },
    );
  });

  it('rejects unknown properties, wrong types and missing required values', () => {
    fc.assert(
      fc.property(specAndInput('gnu'), fc.nat(), ([spec, input], pick) => {
        const schema = cliSpecToZod(spec);
        expect(schema.safeParse({ ...input, not_an_option_xyz: 1 }).success).toBe(false);
        const names = propertyNamesOf(spec);
        const all = [
          ...spec.options.map((option, index) => ({ name: names.options[index] ?? '', required: option.required, wrong: option.takes_value && option.type !== 'string' && option.type !== 'path' ? 'text' : {} })),
          ...spec.positionals.map((positional, index) => ({ name: names.positionals[index] ?? '', required: positional.required, wrong: 42 })),
        ];
        if (all.length === 0) return;
        const target = all[pick % all.length];
        if (target === undefined) return;
        expect(schema.safeParse({ ...input, [target.name]: target.wrong }).success).toBe(false);
        if (target.required) {
          const without = { ...input };
          delete without[target.name];
          expect(schema.safeParse(without).success).toBe(false);
        }
      }),
      { numRuns: 300, seed: 204 },
    );
  });
});
