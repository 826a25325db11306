/**
 * Example calls from help texts (src/introspect/examples/): real help texts of the corpus with
 * EXAMPLES sections (gh's cobra `EXAMPLES` with `$` prompts, kubectl's cobra `Examples:` with `#`
 * comments, clap's sq, GNU date/comm/tar with trailing descriptions, docopt, Go flag) mapped to the
 * exact argument objects; the argv → input mapping on every spelling form and on what it must refuse;
 * and the inverse property over the corpus and random specs. Untrusted text: caps and hostile lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argvExample } from '../../src/introspect/argv-example.ts';
import { captureHelp } from '../../src/introspect/capture.ts';
import { argvToInput, inputExamplesOf, MAX_HELP_EXAMPLES, MAX_INPUT_EXAMPLES, readHelpExamples, shellWords, withHelpExamples } from '../../src/introspect/examples/index.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import type { CliOption, CliSpec } from '../../src/introspect/spec.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { adversarialHelpTexts } from './adversarial-help.ts';
import { inputArbitrary, specArbitrary } from './arbitraries.ts';
import { CORPUS_DIRECTORY } from './corpus.ts';
import { computeExampleMetrics } from './examples-metrics.ts';

/** Each corpus help parsed once for the whole file (the corpus passes parse all 864 of them). */
const parsed = new Map<string, CliSpec>();
function parseCorpusHelp(text: string, id: string): CliSpec {
  const known = parsed.get(id);
  if (known !== undefined) return known;
  const spec = parseHelp(text, { fileName: `${id}.wasm` });
  parsed.set(id, spec);
  return spec;
}

/** The examples a tool loaded from this corpus help would offer: `[description, input]` pairs. */
function corpusExamples(id: string): [string | undefined, Record<string, unknown>][] {
  const text = readFileSync(join(CORPUS_DIRECTORY, `${id}.txt`), 'utf8');
  const spec = withHelpExamples(parseCorpusHelp(text, id), text, [id]);
  return inputExamplesOf(spec, cliSpecToZod(spec)).map((example) => [example.description, example.input]);
}

describe('examples of real help texts, as exact argument objects', () => {
  it('gh issue list (cobra, `EXAMPLES` with `$` prompts): repeated --label into an array, quoted values unquoted', () => {
    expect(corpusExamples('cobra-gh-issue-list')).toEqual([
      [undefined, { label: ['bug', 'help wanted'] }],
      [undefined, { author: 'monalisa' }],
      [undefined, { assignee: '@me' }],
      [undefined, { milestone: 'The big 1.0' }],
      [undefined, { search: 'error no:assignee sort:created-asc' }],
    ]);
  });

  it('kubectl create deployment (cobra `Examples:`, `#` comments): --image=V repeated, integer --replicas; `-- date` (the container command, not in the spec) dropped', () => {
    expect(corpusExamples('cobra-kubectl-create-deployment')).toEqual([
      ['Create a deployment named my-dep that runs the busybox image', { image: ['busybox'], name: 'my-dep' }],
      ['Create a deployment named my-dep that runs the nginx image with 3 replicas', { image: ['nginx'], replicas: 3, name: 'my-dep' }],
      ['Create a deployment named my-dep that runs the busybox image and expose port 5701', { image: ['busybox'], port: 5701, name: 'my-dep' }],
      ['Create a deployment named my-dep that runs multiple containers', { image: ['busybox:latest', 'ubuntu:latest', 'nginx'], name: 'my-dep' }],
    ]);
  });

  it('sq encrypt (clap, `EXAMPLES:` with `#` comments over `$` lines)', () => {
    expect(corpusExamples('clap-sq-encrypt')).toEqual([
      ['Encrypt a file using a certificate', { recipient_cert: 'romeo.pgp', file: 'message.txt' }],
      ['Encrypt a file creating a signature in the process', { recipient_cert: 'romeo.pgp', signer_key: 'juliet.pgp', file: 'message.txt' }],
      ['Encrypt a file using a password', { symmetric: true, file: 'message.txt' }],
    ]);
  });

  it('GNU date: the sentence above each line describes it; `TZ=… date` (an environment prefix) is dropped', () => {
    expect(corpusExamples('gnu-date')).toEqual([
      ['Convert seconds since the Epoch (1970-01-01 UTC) to a date', { date: '@2147483647' }],
      ['Show the local time for 9AM next Friday on the west coast of the US', { date: 'TZ="America/Los_Angeles" 09:00 next Fri' }],
    ]);
  });

  it('GNU comm and tar: clustered short flags (`-12`, `-cf archive.tar`), descriptions after the command', () => {
    expect(corpusExamples('gnu-comm')).toEqual([
      ['Print only lines present in both file1 and file2.', { _1: true, _2: true, file1: 'file1', file2: 'file2' }],
      ['Print lines in file1 not in file2, and vice versa.', { _3: true, file1: 'file1', file2: 'file2' }],
    ]);
    expect(corpusExamples('argp-tar')).toEqual([
      ['Create archive.tar from files foo and bar.', { create: true, file: 'archive.tar', file_2: ['foo', 'bar'] }],
      ['List all files in archive.tar verbosely.', { list: true, verbose: true, file: 'archive.tar' }],
      ['Extract all files from archive.tar.', { extract: true, file: 'archive.tar' }],
    ]);
  });

  it('docopt cheat (prose above each line) and Go flag age (a pipe line dropped, output lines skipped)', () => {
    expect(corpusExamples('docopt-cheat')).toEqual([
      ['To view the `tar` cheatsheet', { cheatsheet: 'tar' }],
      ['To edit (or create) the `foo` cheatsheet', { edit: true, cheatsheet: 'foo' }],
      ['To list all available cheatsheets', { list: true }],
      ['To search for "ssh" among all cheatsheets', { search: true, cheatsheet: 'ssh' }],
    ]);
    expect(corpusExamples('goflag-age')).toEqual([[undefined, { decrypt: true, identity: ['key.txt'], output: 'data.tar.gz', input: 'data.tar.gz.age' }]]);
  });

  it('cspell lint: only the line that names the usage line\'s command words (`cspell lint .`) is kept', () => {
    expect(corpusExamples('commander-cspell-lint')).toEqual([['The same as "cspell ."', { globs: ['.'] }]]);
  });

  it('a help without an EXAMPLES section gives none', () => {
    expect(corpusExamples('gnu-tail')).toEqual([]);
  });

  it('the corpus numbers (test/introspect/examples-metrics.ts) hold', () => {
    const metrics = computeExampleMetrics(parseCorpusHelp);
    expect(metrics.withExamples).toBeGreaterThanOrEqual(70);
    // most example lines map; what does not is dropped, never repaired
    expect(metrics.kept / metrics.read).toBeGreaterThan(0.6);
  });
});

const option = (fields: Partial<CliOption> & Pick<CliOption, 'long' | 'short'>): CliOption => ({
  aliases: [],
  takes_value: false,
  value_name: null,
  type: 'string',
  default: null,
  choices: null,
  repeatable: false,
  required: false,
  negation: null,
  description: null,
  ...fields,
});

const SPEC: CliSpec = {
  name: 'prog',
  description: '',
  options: [
    option({ long: 'width', short: 'w', takes_value: true, type: 'integer', value_name: 'N' }),
    option({ long: 'color', short: null, negation: '--no-color' }),
    option({ long: 'verbose', short: 'v', repeatable: true }),
    option({ long: 'quiet', short: 'q' }),
    option({ long: 'tag', short: 't', takes_value: true, repeatable: true }),
    option({ long: 'pair', short: null, takes_value: true, value_count: 2 }),
    option({ long: 'style', short: null, takes_value: true, choices: ['a', 'b', 'c'], value_separator: ',' }),
    option({ long: 'level', short: 'O', takes_value: true, attached: true, type: 'integer' }),
    option({ long: null, short: '#', takes_value: true, type: 'integer' }),
    option({ long: 'lang', short: null, prefix: '-', takes_value: true }),
    option({ long: 'out', short: 'o', takes_value: true, value_name: 'FILE', aliases: ['--output'] }),
  ],
  positionals: [
    { name: 'SOURCES', required: true, variadic: true },
    { name: 'DEST', required: true, variadic: false },
  ],
  subcommands: [],
};

describe('argv → argument object', () => {
  it.each([
    [['--width', '80', 'a', 'b'], { width: 80, sources: ['a'], dest: 'b' }],
    [['--width=80', 'a', 'b'], { width: 80, sources: ['a'], dest: 'b' }],
    [['-w80', 'a', 'b'], { width: 80, sources: ['a'], dest: 'b' }],
    [['-vvq', 'a', 'b', 'c'], { verbose: 2, quiet: true, sources: ['a', 'b'], dest: 'c' }],
    [['-v', '--verbose', 'a', 'b'], { verbose: 2, sources: ['a'], dest: 'b' }],
    [['--no-color', 'a', 'b'], { color: false, sources: ['a'], dest: 'b' }],
    [['-t', 'x', '--tag=y', '-tz', 'a', 'b'], { tag: ['x', 'y', 'z'], sources: ['a'], dest: 'b' }],
    [['--pair', 'k', 'v', 'a', 'b'], { pair: ['k', 'v'], sources: ['a'], dest: 'b' }],
    [['--style', 'a,c', 'a', 'b'], { style: ['a', 'c'], sources: ['a'], dest: 'b' }],
    [['-O2', 'a', 'b'], { level: 2, sources: ['a'], dest: 'b' }],
    [['-9', 'a', 'b'], { '_': 9, sources: ['a'], dest: 'b' }],
    [['-lang', 'go', 'a', 'b'], { lang: 'go', sources: ['a'], dest: 'b' }],
    [['--output', 'x.txt', 'a', 'b'], { out: 'x.txt', sources: ['a'], dest: 'b' }],
    [['--', '-a', 'b'], { sources: ['-a'], dest: 'b' }],
    [['-', 'b'], { sources: ['-'], dest: 'b' }],
    [['--width', '-5', 'a', 'b'], { width: -5, sources: ['a'], dest: 'b' }],
  ])('%j', (argv, expected) => {
    const names = Object.keys(expected);
    // the `-#` option's property (`_`) is whatever the naming gives it: compare through cliSpecToArgv
    const input = argvToInput(SPEC, argv);
    expect(input).not.toBeNull();
    if (!names.includes('_')) expect(input).toEqual(expected);
    expect(argvToInput(SPEC, cliSpecToArgv(SPEC, input ?? {}))).toEqual(input);
  });

  it.each([
    [['--bogus', 'a', 'b'], 'an unknown option'],
    [['-x', 'a', 'b'], 'an unknown short option'],
    [['--width', 'wide', 'a', 'b'], 'a value of the wrong type'],
    [['--width', '1', '--width', '2', 'a', 'b'], 'a non-repeatable option given twice'],
    [['--quiet', '--quiet', 'a', 'b'], 'a flag given twice'],
    [['a', 'b', '--width'], 'a missing value'],
    [['--out', '--quiet', 'a', 'b'], 'a value apart from its flag that starts with a dash'],
    [['--out', 'FILE', 'a', 'b'], 'the placeholder as a value'],
    [['a', 'DEST'], 'the placeholder as a positional'],
    [['a', '...', 'b'], 'an elision'],
    [['-O', '2', 'a', 'b'], 'a value that must be attached given apart'],
    [['--', 'a', 'b'], 'a `--` nothing needs'],
    [['--quiet=yes', 'a', 'b'], 'a flag with a value that is not true/false'],
    [['--color=false', '--no-color', 'a', 'b'], 'a flag and its negation'],
  ])('%j is refused: %s', (argv) => {
    expect(argvToInput(SPEC, argv)).toBeNull();
  });

  it('positionals fill in order; a variadic one takes what the others leave; one too many is refused', () => {
    const spec: CliSpec = { ...SPEC, options: [], positionals: [{ name: 'a', required: true, variadic: false }, { name: 'b', required: false, variadic: false }] };
    expect(argvToInput(spec, ['x'])).toEqual({ a: 'x' });
    expect(argvToInput(spec, ['x', 'y'])).toEqual({ a: 'x', b: 'y' });
    expect(argvToInput(spec, ['x', 'y', 'z'])).toBeNull();
  });

  it('subcommands by their words, with their own options after them and the root options before or after', () => {
    const spec: CliSpec = {
      name: 'git',
      description: '',
      options: [option({ long: 'verbose', short: 'v' })],
      positionals: [],
      subcommands: [
        { name: 'clone', description: null, options: [option({ long: 'depth', short: null, takes_value: true, type: 'integer' })], positionals: [{ name: 'repo', required: true, variadic: false }] },
        { name: 'remote add', path: ['remote', 'add'], description: null, positionals: [{ name: 'name', required: true, variadic: false }] },
      ],
      options_after_command: true,
    };
    expect(argvToInput(spec, ['clone', '--depth', '1', 'https://x/y.git'])).toEqual({ command: 'clone', depth: 1, repo: 'https://x/y.git' });
    expect(argvToInput(spec, ['-v', 'clone', 'r'])).toEqual({ command: 'clone', verbose: true, repo: 'r' });
    expect(argvToInput(spec, ['clone', '-v', 'r'])).toEqual({ command: 'clone', verbose: true, repo: 'r' });
    expect(argvToInput(spec, ['remote', 'add', 'origin'])).toEqual({ command: 'remote add', name: 'origin' });
    // a command's own option before the command is not the command's
    expect(argvToInput(spec, ['--depth', '1', 'clone', 'r'])).toBeNull();
  });

  it("inverts cliSpecToArgv on every corpus spec's sample argv (all but the two whose sample holds `...`)", () => {
    const refused: string[] = [];
    for (const file of readdirSorted()) {
      const spec = parseCorpusHelp(readFileSync(join(CORPUS_DIRECTORY, file), 'utf8'), file.replace(/\.txt$/, ''));
      const argv = argvExample(spec);
      const input = argvToInput(spec, argv);
      if (input === null) refused.push(file);
      else expect(cliSpecToArgv(spec, input)).toEqual(argv);
    }
    expect(refused).toEqual(['kong-gum-input.txt', 'pyhand-bup-save.txt']);
  });

  it.each(['gnu', 'go'] as const)('inverts cliSpecToArgv on random %s-style specs and inputs', (style) => {
    fc.assert(
      fc.property(
        specArbitrary(style).chain((spec) => fc.tuple(fc.constant(spec), inputArbitrary(spec))),
        ([spec, input]) => {
          const argv = cliSpecToArgv(spec, input);
          // stand-ins are refused on purpose (a value `...`, or the placeholder itself)
          fc.pre(!argv.some((word) => word.includes('...') || /^[A-Z][A-Z0-9_-]*$/.test(word)));
          const back = argvToInput(spec, argv);
          expect(back).not.toBeNull();
          expect(cliSpecToArgv(spec, back ?? {})).toEqual(argv);
        },
      ),
      { numRuns: 300, seed: style === 'gnu' ? 2706 : 2707 },
    );
  });
});

function readdirSorted(): string[] {
  return readdirSync(CORPUS_DIRECTORY).filter((name) => name.endsWith('.txt')).sort();
}


describe('untrusted help text', () => {
  const help = (lines: string[]): string => ['Usage: prog [OPTIONS] [FILE]', '', 'Options:', '  -n, --lines <N>  How many', '', 'Examples:', ...lines].join('\n');
  const spec = (text: string): CliSpec => withHelpExamples(parseHelp(text, { fileName: 'prog.wasm' }), text, ['prog']);

  it('drops lines the shell would do more with than split: substitutions, pipes, redirects, globs, ~, variables', () => {
    const text = help(['  prog $(rm -rf /)', '  prog `id`', '  prog "$HOME"', '  prog a | sh', '  prog a > out', '  prog *.txt', '  prog ~/x', '  prog a; reboot', '  prog a && b', '  prog "unterminated', '  prog -n 3 ok.txt']);
    expect(spec(text).examples).toEqual([{ argv: ['-n', '3', 'ok.txt'] }]);
  });

  it('caps the examples read, and the examples offered', () => {
    const lines = Array.from({ length: 5000 }, (_, index) => `  prog -n ${index} f${index}.txt`);
    const read = spec(help(lines));
    expect(read.examples).toHaveLength(MAX_HELP_EXAMPLES);
    expect(inputExamplesOf(read, cliSpecToZod(read))).toHaveLength(MAX_INPUT_EXAMPLES);
  });

  it('a long run of quotes, backslashes or continuation lines stays bounded and yields nothing wrong', () => {
    const quotes = `  prog ${"'".repeat(999)}`;
    const slashes = `  prog ${'\\'.repeat(999)}`;
    const continued = Array.from({ length: 3000 }, () => '  prog \\');
    const text = help([quotes, slashes, ...continued]);
    const examples = readHelpExamples(text, { programs: ['prog'] });
    expect(examples.length).toBeLessThanOrEqual(MAX_HELP_EXAMPLES);
    for (const example of examples) expect(example.argv?.length ?? 0).toBeLessThanOrEqual(64);
    expect(shellWords("'".repeat(100_001))).toBeNull();
  });

  it.each(adversarialHelpTexts)('the adversarial help %s stays within the caps', (_name, make) => {
    const text = `${make()}\nExamples:\n${'  prog -n 1 "a b" c\\\n'.repeat(2000)}`;
    const examples = readHelpExamples(text, { programs: ['prog'] });
    expect(examples.length).toBeLessThanOrEqual(MAX_HELP_EXAMPLES);
    for (const example of examples) expect(example.argv?.length ?? 0).toBeLessThanOrEqual(64);
  });

  it('terminal escapes and control characters never reach a description', () => {
    const text = help(['  # \u001b[31mred\u001b[0m text\u0007', '  prog -n 1 a.txt']);
    expect(spec(text).examples).toEqual([{ description: 'red text', argv: ['-n', '1', 'a.txt'] }]);
  });

  it('an example that runs another program, or an environment prefix, is not the program\'s', () => {
    const text = help(['  sudo prog -n 1', '  LC_ALL=C prog -n 1', '  progx -n 1', '  /usr/bin/prog -n 2 b.txt']);
    expect(spec(text).examples).toEqual([{ argv: ['-n', '2', 'b.txt'] }]);
  });

  it('given input examples are checked like read ones: unknown keys (`__proto__` too) and oversized ones are dropped', () => {
    const base = spec(help([]));
    const given: CliSpec = {
      ...base,
      examples: [
        { input: JSON.parse('{"__proto__": {"lines": 1}, "file": "x"}') as Record<string, unknown> },
        { input: { file: 'x'.repeat(10_000) } },
        { input: { lines: 2, file: 'y' } },
        { input: { lines: 2, file: 'y' } },
      ],
    };
    expect(inputExamplesOf(given, cliSpecToZod(given)).map((example) => example.input)).toEqual([{ lines: 2, file: 'y' }]);
  });
});

describe('--help-json examples', () => {
  const answer = (examples: unknown) => async (args: string[]) =>
    args[0] === '--help-json'
      ? {
          stdout: JSON.stringify({
            name: 'imgconv',
            options: [{ long: 'quality', short: 'q', takes_value: true, type: 'integer' }],
            positionals: [{ name: 'inputs', required: true, variadic: true }],
            examples,
          }),
          stderr: '',
          exitCode: 0,
        }
      : { stdout: 'Usage: imgconv [OPTIONS] INPUTS...\n', stderr: '', exitCode: 0 };

  it('a --help-json spec gives argv and input examples, kept when they map and validate', async () => {
    const captured = await captureHelp(
      answer([
        { description: 'Quality 90', argv: ['-q90', 'a.png', 'b.png'] },
        { input: { quality: 50, inputs: ['c.png'] } },
        { description: 'Not a number', argv: ['--quality', 'high', 'a.png'] },
      ]),
    );
    expect(captured.flag).toBe('--help-json');
    const spec = captured.spec as CliSpec;
    expect(inputExamplesOf(spec, cliSpecToZod(spec))).toEqual([
      { description: 'Quality 90', input: { quality: 90, inputs: ['a.png', 'b.png'] }, argv: ['-q90', 'a.png', 'b.png'] },
      { input: { quality: 50, inputs: ['c.png'] } },
    ]);
  });

  it('an example with both argv and input, or an unknown key, makes the --help-json answer invalid (the text help is used)', async () => {
    expect((await captureHelp(answer([{ argv: [], input: {} }]))).flag).toBe('--help');
    expect((await captureHelp(answer([{ args: ['x'] }]))).flag).toBe('--help');
  });
});
