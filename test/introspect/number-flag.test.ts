/**
 * zstd and brotli document their level as `-#` ("compression level (1-19)"): the number is the flag
 * itself, so `{"#": 9}` must reach the program as `-9`, not `-# 9`.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { propertyNamesOf } from '../../src/introspect/property-name.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';

describe('a `-#` level option', () => {
  const spec = parseHelp('Usage: brotli [OPTION]... [FILE]...\n\nOptions:\n  -#                          compression level (0-9)\n  -c, --stdout                write on standard output\n', { fileName: 'brotli.wasm' });

  it('is written as the number itself', () => {
    const level = spec.options.find((option) => option.short === '#');
    expect(level).toMatchObject({ takes_value: true, long: null });
    const property = propertyNamesOf(spec).options[spec.options.indexOf(level!)] ?? '';
    const input = cliSpecToZod(spec).parse({ [property]: 9, stdout: true, file: ['a.txt'] });
    expect(cliSpecToArgv(spec, input)).toEqual(['-9', '--stdout', 'a.txt']);
  });
});
