/** Merge rules (what a probe may change in a help's spec) and the per-tool probe budget. */
import { describe, expect, it } from 'vitest';
import type { ProbeClaim } from '../../../src/introspect/probe/claims.ts';
import { mergeProbeClaims } from '../../../src/introspect/probe/merge.ts';
import { budgetedRunner } from '../../../src/introspect/probe/sandbox.ts';
import { parseToolOverrides } from '../../../src/introspect/overrides.ts';
import type { CliOption, CliSpec } from '../../../src/introspect/spec.ts';
import { cliSpecToZod, withSuggestionExamples } from '../../../src/introspect/to-zod.ts';
import { jsonSchemaOf } from '../../../src/tool.ts';

const option = (long: string, fields: Partial<CliOption> = {}): CliOption => ({
  long, short: null, aliases: [], takes_value: true, value_name: 'X', type: 'string', default: null, choices: null,
  repeatable: false, required: false, negation: null, description: null, ...fields,
});
const spec = (options: CliOption[], extra: Partial<CliSpec> = {}): CliSpec => ({ name: 'prog', description: '', options, positionals: [], subcommands: [], ...extra });
const claim = (fields: Partial<ProbeClaim> & Pick<ProbeClaim, 'field'>): ProbeClaim => ({ command: null, source: 'probe:test.rule', ...fields }) as ProbeClaim;

describe('mergeProbeClaims', () => {
  it('makes a parser\'s closed list the enum, replacing the help\'s, and records the source', () => {
    const merged = mergeProbeClaims(spec([option('sort', { choices: ['name', 'invented'] })]), [claim({ field: 'choices', option: '--sort', value: ['none', 'path'], source: 'probe:clap.possible-values' })]);
    expect(merged.options[0]?.choices).toEqual(['none', 'path']);
    expect(merged.options[0]?.sources).toEqual({ choices: 'probe:clap.possible-values' });
  });

  it('keeps completion values as suggestions, never an enum, and not beside choices', () => {
    const merged = mergeProbeClaims(spec([option('out'), option('fmt', { choices: ['a'] })]), [
      claim({ field: 'suggestions', option: '--out', value: ['yaml', 'json'] }),
      claim({ field: 'suggestions', option: '--fmt', value: ['b'] }),
    ]);
    expect(merged.options[0]).toMatchObject({ choices: null, suggestions: ['yaml', 'json'], sources: { suggestions: 'probe:test.rule' } });
    expect(merged.options[1]?.suggestions).toBeUndefined();
    const schema = withSuggestionExamples(jsonSchemaOf(cliSpecToZod(merged)), merged);
    const properties = schema['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['out']?.['examples']).toEqual(['yaml', 'json']);
    expect(properties['out']?.['enum']).toBeUndefined();
  });

  it('turns a value-taking misread into a flag when the parser proved it boolean', () => {
    const merged = mergeProbeClaims(spec([option('exit-status')]), [claim({ field: 'takes_value', option: '--exit-status', value: false, source: 'probe:pflag.parse-error' })]);
    expect(merged.options[0]).toMatchObject({ takes_value: false, type: 'boolean', value_name: null, sources: { takes_value: 'probe:pflag.parse-error' } });
  });

  it('fills, never replaces, a description; adds only missing subcommands; only turns required on', () => {
    const base = spec([option('a', { description: 'from help' }), option('b')], { subcommands: [{ name: 'run', description: 'x' }], positionals: [{ name: 'files', required: false, variadic: true }] });
    const merged = mergeProbeClaims(base, [
      claim({ field: 'description', option: '--a', value: 'probe text' }),
      claim({ field: 'description', option: '--b', value: 'probe text' }),
      claim({ field: 'subcommand', name: 'run', description: 'other' }),
      claim({ field: 'subcommand', name: 'build', description: 'Build it' }),
      claim({ field: 'positional_required', positional: 'files', value: true }),
      claim({ field: 'unlisted_flag', option: '--secret', description: null }),
    ]);
    expect(merged.options.map((entry) => entry.description)).toEqual(['from help', 'probe text']);
    expect(merged.subcommands).toEqual([{ name: 'run', description: 'x' }, { name: 'build', description: 'Build it' }]);
    expect(merged.positionals[0]).toMatchObject({ required: true, sources: { required: 'probe:test.rule' } });
    expect(merged.options).toHaveLength(2);
    expect(base.options[1]?.description).toBeNull();
  });
});

describe('budgetedRunner', () => {
  it('sends no run past the run cap', async () => {
    let sent = 0;
    const runner = budgetedRunner(async () => ((sent += 1), { stdout: '', stderr: '', exitCode: 0, timedOut: false }), { maxRuns: 3 });
    const answers = [];
    for (let index = 0; index < 5; index += 1) answers.push(await runner.run(['x']));
    expect(sent).toBe(3);
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(2);
  });

  it('sends no run that could pass the time budget (on a clock the test drives)', async () => {
    let clock = 0;
    const runner = budgetedRunner(async () => ((clock += 2_000), { stdout: '', stderr: '', exitCode: null, timedOut: true }), { budgetMs: 15_000, now: () => clock });
    while ((await runner.run(['x'])) !== undefined);
    expect(runner.budget.runs).toBe(7);
    expect(clock).toBeLessThanOrEqual(15_000);
  });
});

describe('.tool.json probes', () => {
  it('accepts "probes": false and refuses other values', () => {
    expect(parseToolOverrides({ probes: false }).probes).toBe(false);
    expect(() => parseToolOverrides({ probes: 'no' })).toThrow(/probes/);
  });
});
