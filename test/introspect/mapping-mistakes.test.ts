/**
 * Mapping mistakes seen with real CLIs (issue 12, 7b), each pinned by a test that goes from the
 * help text through the schema to the argv the program would get.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { jsonSchemaOf } from '../../src/tool.ts';

/** Validates like the host does (zod; defaults are documented, not filled in), then builds the argv. */
function argvFor(help: string, input: Record<string, unknown>): string[] {
  const spec = parseHelp(help);
  return cliSpecToArgv(spec, cliSpecToZod(spec).parse(input) as Record<string, unknown>);
}

describe('boolean flags that default to true can be set false', () => {
  it('pflag (cobra) `(default true)`: --name=false', () => {
    const help = 'Usage:\n  srv [flags]\n\nFlags:\n      --color    colorize output (default true)\n  -h, --help   help for srv\n';
    expect(argvFor(help, { color: false })).toEqual(['--color=false']);
    expect(argvFor(help, {})).toEqual([]);
  });

  it('Go flag: -name=false', () => {
    const help = 'Usage of srv:\n  -gzip\n    \tcompress responses (default true)\n  -v\tverbose\n';
    expect(argvFor(help, { gzip: false })).toEqual(['-gzip=false']);
  });

  it('click `--x / --no-x` and argparse `--x, --no-x`: the --no- form', () => {
    expect(argvFor('Usage: t [OPTIONS]\n\nOptions:\n  --reload / --no-reload  Enable the reloader.  [default: reload]\n', { reload: false })).toEqual(['--no-reload']);
    expect(argvFor('usage: t [-h] [--cache | --no-cache]\n\noptions:\n  --cache, --no-cache  use the cache\n', { cache: false })).toEqual(['--no-cache']);
  });
});

describe('an option documented with its value keeps it', () => {
  it.each([
    ['-o FILE', '  -o FILE        write the result to FILE', 'o'],
    ['--output=FILE', '      --output=FILE  write the result to FILE', 'output'],
  ])('%s', (_label, line, property) => {
    expect(argvFor(`Usage: t [OPTION]... [INPUT]\n${line}\n`, { [property]: 'out.txt' })).toEqual([line.includes('--output') ? '--output' : '-o', 'out.txt']);
  });
});

describe('integer options are integers', () => {
  it('typed from the value name and from the default', () => {
    const spec = parseHelp('Usage: t [OPTIONS]\n\nOptions:\n  -n, --lines NUM      lines to show\n  -r, --replicas int   number of replicas (default 2)\n  --depth DEPTH        how deep (default: 3)\n');
    expect(spec.options.map((option) => [option.long, option.type])).toEqual([['lines', 'integer'], ['replicas', 'integer'], ['depth', 'integer']]);
    expect(cliSpecToZod(spec).safeParse({ lines: '5' }).success).toBe(false);
    expect(cliSpecToZod(spec).safeParse({ lines: 5 }).success).toBe(true);
  });
});

describe('defaults are not invented from prose', () => {
  it.each([
    ['defaults to the …', '  -s, --sep SEP   separator; defaults to the first tab'],
    ['(default: stdin)', '  -i, --input FILE   read from FILE (default: stdin)'],
    ['(default: all interfaces)', '  -b, --bind ADDRESS   bind to this address (default: all interfaces)'],
    ['(default STDOUT)', '  -o, --output <file>   Output file (default STDOUT).'],
    ['conditional default', '  --mode MODE   defaults to "fast" if FAST is set'],
    ['(default: !process.env.CI)', '  --open   Open the UI (default: !process.env.CI)'],
    ['a number that is not one', '  --id=#   Force the ID to #. [Default: Random]'],
  ])('%s', (_label, line) => {
    const spec = parseHelp(`Usage: t [OPTIONS]\n\nOptions:\n${line}\n`);
    expect(spec.options).toHaveLength(1);
    expect(spec.options[0]?.default).toBeNull();
  });
});

describe('no required positionals from comment-like lines', () => {
  it('`# from file to file` under Usage is a comment', () => {
    const spec = parseHelp('Usage:\n  convert [options] <input>\n  # from file to file\n\nOptions:\n  -o FILE   output\n');
    expect(spec.positionals).toEqual([{ name: 'input', required: true, variadic: false }]);
  });

  it('`word is key=value` after the usage line is prose', () => {
    const spec = parseHelp('Usage: kv [flags] [word...]\n   word is key=value\n\nFlags:\n  -q   quiet\n');
    expect(spec.positionals).toEqual([{ name: 'word', required: false, variadic: true }]);
  });
});

describe('Go-flag usage with hand-written text keeps long names', () => {
  it('a hand-written usage line before the flag list', () => {
    const spec = parseHelp('mytool copies things.\n\nUsage: mytool [flags] <src> <dst>\n\n  -concurrency int\n    \thow many copies at once (default 4)\n  -dry-run\n    \tonly print what would be done\n');
    expect(spec.options.map((option) => [option.long, option.prefix, option.takes_value, option.default])).toEqual([
      ['concurrency', '-', true, 4],
      ['dry-run', '-', false, null],
    ]);
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['src', 'dst']);
  });

  it('a single hand-written Go flag entry', () => {
    const spec = parseHelp('Usage: serve [flags]\n  -listen-address string\n    \twhere to listen (default ":8080")\n');
    expect(spec.options).toMatchObject([{ long: 'listen-address', prefix: '-', takes_value: true, default: ':8080' }]);
    expect(cliSpecToArgv(spec, { listen_address: ':9090' })).toEqual(['-listen-address', ':9090']);
  });
});

describe('choices become enums: values outside are refused before the tool runs', () => {
  it('rejects a value that is not a choice, accepts one that is', () => {
    const spec = parseHelp("Usage: grep [OPTION]... PATTERNS [FILE]...\n      --color[=WHEN]  use markers; WHEN is 'always', 'never', or 'auto'\n");
    const schema = cliSpecToZod(spec);
    expect(schema.safeParse({ patterns: 'x', color: 'sometimes' }).success).toBe(false);
    expect(schema.safeParse({ patterns: 'x', color: 'never' }).success).toBe(true);
  });
});

describe('defaults are documented in the schema, never filled in; what the caller sent is sent (issue 25)', () => {
  const spec = parseHelp('Usage: t [OPTIONS]\n\nOptions:\n  -c, --count <COUNT>  Number of times [default: 3]\n  --mode <MODE>  [possible values: fast, slow] [default: fast]\n');
  const schema = cliSpecToZod(spec);

  it('a property left out stays out of the input and off the argv', () => {
    expect(schema.parse({})).toEqual({});
    expect(cliSpecToArgv(spec, schema.parse({}) as Record<string, unknown>)).toEqual([]);
  });

  it('a value equal to the default is sent like any other', () => {
    expect(cliSpecToArgv(spec, schema.parse({ count: 3, mode: 'fast' }) as Record<string, unknown>)).toEqual(['--count', '3', '--mode', 'fast']);
    expect(cliSpecToArgv(spec, schema.parse({ count: 4, mode: 'slow' }) as Record<string, unknown>)).toEqual(['--count', '4', '--mode', 'slow']);
  });

  it('the JSON Schema still shows the defaults, and no longer marks the properties as filled in', () => {
    const properties = jsonSchemaOf(schema).properties as Record<string, Record<string, unknown>>;
    expect(properties.count).toMatchObject({ type: 'integer', default: 3 });
    expect(properties.mode).toMatchObject({ enum: ['fast', 'slow'], default: 'fast' });
  });

  it('base64 `-w, --wrap=COLS … (default 76)`: {wrap: 76} reaches the program', () => {
    const base64 = parseHelp('Usage: base64 [OPTION]... [FILE]\n\n  -d, --decode          decode data\n  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).\n');
    expect(base64.options.find((option) => option.long === 'wrap')?.default).toBe(76);
    const input = cliSpecToZod(base64).parse({ decode: true, wrap: 76, file: 'in.txt' }) as Record<string, unknown>;
    expect(cliSpecToArgv(base64, input)).toEqual(['--decode', '--wrap', '76', 'in.txt']);
  });
});
