/**
 * The help corpus: verbatim help texts of real programs (test/introspect/corpus/<style>-<program>.txt)
 * with hand-written expected specs (<same>.expected.json). A `partial` expectation lists only some
 * options of a long help text (ls, cp, tar); its precision is not measured.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliOption, CliPositional, CliSubcommand } from '../../src/introspect/spec.ts';

export const CORPUS_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), 'corpus');

export interface ExpectedSpec {
  name: string;
  description: string;
  partial: boolean;
  options: CliOption[];
  positionals: Pick<CliPositional, 'name' | 'required' | 'variadic'>[];
  subcommands: CliSubcommand[];
}

export interface CorpusCase {
  id: string;
  text: string;
  expected: ExpectedSpec;
}

/** Ids of the measured corpus (index.json); their expectations use the scored format, not `ExpectedSpec`. */
export function scoredCorpusIds(): Set<string> {
  const index = JSON.parse(readFileSync(join(CORPUS_DIRECTORY, 'index.json'), 'utf8')) as Record<string, unknown>;
  return new Set(Object.keys(index));
}

/** The hand-written corpus with full `ExpectedSpec` expectations (every field compared). */
export function loadCorpus(): CorpusCase[] {
  const scored = scoredCorpusIds();
  return readdirSync(CORPUS_DIRECTORY)
    .filter((file) => file.endsWith('.txt') && !scored.has(file.replace(/\.txt$/, '')))
    .sort()
    .map((file) => {
      const id = file.replace(/\.txt$/, '');
      return {
        id,
        text: readFileSync(join(CORPUS_DIRECTORY, file), 'utf8'),
        expected: JSON.parse(readFileSync(join(CORPUS_DIRECTORY, `${id}.expected.json`), 'utf8')) as ExpectedSpec,
      };
    });
}

/** The identity of an option: its long name, else its short name. */
export function optionKey(option: Pick<CliOption, 'long' | 'short'>): string {
  return option.long !== null ? `--${option.long}` : `-${option.short ?? ''}`;
}

export const OPTION_FIELDS = [
  'long', 'short', 'aliases', 'takes_value', 'value_name', 'type', 'default', 'choices', 'repeatable', 'required', 'negation', 'description',
] as const satisfies readonly (keyof CliOption)[];

/** Only fields a test compares (drops `prefix`, `value_optional` unless expected states them). */
export function comparableOption(option: CliOption, expected: CliOption): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of OPTION_FIELDS) result[field] = option[field];
  if ('value_optional' in expected) result.value_optional = option.value_optional ?? false;
  return result;
}
