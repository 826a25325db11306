/**
 * argparse `nargs='+'` options (`-i PKG [PKG ...], --ignore-packages PKG [PKG ...]`): one use takes
 * one or more values. The schema offers an array (at least one item, each checked), the argv writes
 * the flag then each value, and a `--` keeps the positionals after it from being read as more values
 * (argparse would take `--ignore-packages a b file.txt` as three packages). Checked from parsed help
 * and through a real component (rt-echo prints its argv) with the spec from `.tool.json`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { echoHostWithToolJson, type ExtHost } from '../extensions/helpers.ts';

const HELP = `usage: pipcheck [-h] [-i PKG [PKG ...]] [-o FILE] requirements

positional arguments:
  requirements          requirements file

options:
  -h, --help            show this help message and exit
  -i PKG [PKG ...], --ignore-packages PKG [PKG ...]
                        packages to ignore
  -o FILE, --output FILE
                        where to write the report
`;

describe('one or more values per use, from argparse help', () => {
  const spec = parseHelp(HELP, { fileName: 'pipcheck.wasm' });
  const schema = cliSpecToZod(spec);

  it('is parsed as a value-taking option with variadic values', () => {
    expect(spec.options.find((option) => option.long === 'ignore-packages')).toMatchObject({ takes_value: true, variadic_values: true });
    expect(spec.options.find((option) => option.long === 'output')?.variadic_values).toBeUndefined();
  });

  it('is an array of at least one value in the schema', () => {
    expect(schema.safeParse({ requirements: 'r.txt', ignore_packages: ['a', 'b'] }).success).toBe(true);
    expect(schema.safeParse({ requirements: 'r.txt', ignore_packages: [] }).success).toBe(false);
    expect(schema.safeParse({ requirements: 'r.txt', ignore_packages: 'a' }).success).toBe(false);
  });

  it('writes the flag then each value, and `--` before the positionals', () => {
    expect(cliSpecToArgv(spec, schema.parse({ requirements: 'r.txt', ignore_packages: ['a', 'b'], output: 'out' }))).toEqual([
      '--ignore-packages', 'a', 'b', '--output', 'out', '--', 'r.txt',
    ]);
    // without such an option given, no `--` is needed
    expect(cliSpecToArgv(spec, schema.parse({ requirements: 'r.txt', output: 'out' }))).toEqual(['--output', 'out', 'r.txt']);
  });
});

describe('with a real component', () => {
  let served: Awaited<ReturnType<typeof echoHostWithToolJson>>;
  let ext: ExtHost;

  beforeAll(async () => {
    served = await echoHostWithToolJson('pipcheck', { output: 'envelope', spec: parseHelp(HELP, { fileName: 'pipcheck.wasm' }) });
    ext = served.ext;
  }, 120_000);

  afterAll(() => served.close());

  it('the program gets the flag, each value, then `--` and the positional', async () => {
    const result = await ext.host.callTool('pipcheck', { requirements: 'r.txt', ignore_packages: ['six', 'idna'] });
    expect(result.is_error, result.content).toBe(false);
    expect(result.content).toBe('--ignore-packages six idna -- r.txt');
    const empty = await ext.host.callTool('pipcheck', { requirements: 'r.txt', ignore_packages: [] });
    expect(empty.is_error).toBe(true);
  });
});
