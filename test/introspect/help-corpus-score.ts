/**
 * Scores `parseHelp` on the measured help corpus (test/introspect/corpus/index.json): verbatim help
 * of public tools, each with a hand-checked `<id>.expected.json` that states only what the help
 * itself shows (option names, value-taking, choices, defaults, positionals, program name). The
 * index splits the corpus into `tuned` (looked at while improving the parser) and `held-back`
 * (measured only at the end).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import type { CliOption, CliSpec } from '../../src/introspect/spec.ts';
import { sanitizeToolName } from '../../src/tool-name.ts';
import { CORPUS_DIRECTORY } from './corpus.ts';

export type CorpusSplit = 'tuned' | 'held-back';

interface ExpectedOption {
  long: string | null;
  short: string | null;
  takes_value: boolean;
  choices?: string[];
  default?: string | number | boolean;
}

interface ExpectedPositional {
  name: string;
  required: boolean;
  variadic: boolean;
}

export interface ScoredExpectation {
  program: string;
  /** Only some options are listed: precision is not measured. */
  partial: boolean;
  /** null: the help states its positionals too loosely to score. */
  positionals: ExpectedPositional[] | null;
  options: ExpectedOption[];
}

export interface ScoredCase {
  id: string;
  split: CorpusSplit;
  source: string;
  text: string;
  expected: ScoredExpectation;
}

export function loadScoredCorpus(): ScoredCase[] {
  const index = JSON.parse(readFileSync(join(CORPUS_DIRECTORY, 'index.json'), 'utf8')) as Record<string, { split: CorpusSplit; source: string }>;
  return Object.entries(index)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, entry]) => ({
      id,
      split: entry.split,
      source: entry.source,
      text: readFileSync(join(CORPUS_DIRECTORY, `${id}.txt`), 'utf8'),
      expected: JSON.parse(readFileSync(join(CORPUS_DIRECTORY, `${id}.expected.json`), 'utf8')) as ScoredExpectation,
    }));
}

/** An option's identity: its long name, else its short name. */
function keyOf(option: Pick<CliOption, 'long' | 'short'>): string {
  return option.long !== null ? `--${option.long}` : `-${option.short ?? ''}`;
}

function normalizedName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The names a positional's slot goes by: `[FILE|URL|-]` is written up as `FILE|URL|-` by some and `FILE` by others. */
function slotNames(name: string): string[] {
  return [normalizedName(name), ...name.split('|').map(normalizedName)].filter((part) => part.length > 0);
}

/**
 * Pairs each expected positional with at most one parsed one, by name: the same name first, then a
 * name that is one of the other's alternatives (`FILE` and `FILE|URL`). Required and variadic are
 * scored on the pair; the name only says which slot is which.
 */
function pairPositionals<E extends { name: string }, F extends { name: string }>(expected: readonly E[], parsed: readonly F[]): Map<E, F> {
  const pairs = new Map<E, F>();
  const taken = new Set<F>();
  const pass = (same: (a: string, b: string) => boolean): void => {
    for (const positional of expected) {
      if (pairs.has(positional)) continue;
      const found = parsed.find((candidate) => !taken.has(candidate) && same(positional.name, candidate.name));
      if (found === undefined) continue;
      pairs.set(positional, found);
      taken.add(found);
    }
  };
  pass((a, b) => normalizedName(a) === normalizedName(b));
  pass((a, b) => {
    const names = new Set(slotNames(a));
    return slotNames(b).some((name) => names.has(name));
  });
  return pairs;
}

export interface Tally {
  hit: number;
  total: number;
}

export interface CorpusScore {
  files: number;
  precision: Tally;
  recall: Tally;
  valueTaking: Tally;
  choices: Tally;
  defaults: Tally;
  /** Defaults the parser reported where the help states none (invented). */
  inventedDefaults: number;
  /** Choices the parser reported where the help states none (invented: the schema would refuse values the program takes). */
  inventedChoices: number;
  positionals: Tally;
  names: Tally;
  /** Per file: what was missed, for tuning. */
  misses: string[];
}

function emptyScore(): CorpusScore {
  const tally = (): Tally => ({ hit: 0, total: 0 });
  return {
    files: 0, precision: tally(), recall: tally(), valueTaking: tally(), choices: tally(), defaults: tally(),
    inventedDefaults: 0, inventedChoices: 0, positionals: tally(), names: tally(), misses: [],
  };
}

function sameChoices(found: string[] | null, expected: string[]): boolean {
  return found !== null && found.length === expected.length && [...found].sort().join('\u0000') === [...expected].sort().join('\u0000');
}

function scoreCase(entry: ScoredCase, spec: CliSpec, score: CorpusScore): void {
  const { expected } = entry;
  const miss = (what: string): void => {
    score.misses.push(`${entry.id}: ${what}`);
  };
  score.files += 1;
  const parsedByKey = new Map(spec.options.map((option) => [keyOf(option), option]));
  const expectedKeys = new Set(expected.options.map(keyOf));
  for (const option of expected.options) {
    const key = keyOf(option);
    const found = parsedByKey.get(key);
    score.recall.total += 1;
    if (found === undefined) {
      miss(`option ${key} not found`);
      continue;
    }
    score.recall.hit += 1;
    score.valueTaking.total += 1;
    if (found.takes_value === option.takes_value) score.valueTaking.hit += 1;
    else miss(`${key} takes_value ${String(found.takes_value)}, expected ${String(option.takes_value)}`);
    if (option.choices !== undefined) {
      score.choices.total += 1;
      if (sameChoices(found.choices, option.choices)) score.choices.hit += 1;
      else miss(`${key} choices ${JSON.stringify(found.choices)}, expected ${JSON.stringify(option.choices)}`);
    } else if (found.choices !== null && found.choices.length > 0) {
      score.inventedChoices += 1;
      miss(`${key} choices ${JSON.stringify(found.choices)} invented`);
    }
    if (option.default !== undefined) {
      score.defaults.total += 1;
      if (isDeepStrictEqual(found.default, option.default)) score.defaults.hit += 1;
      else miss(`${key} default ${JSON.stringify(found.default)}, expected ${JSON.stringify(option.default)}`);
    } else if (found.default !== null && found.default !== undefined) {
      score.inventedDefaults += 1;
      miss(`${key} default ${JSON.stringify(found.default)} invented`);
    }
  }
  if (!expected.partial) {
    for (const key of parsedByKey.keys()) {
      score.precision.total += 1;
      if (expectedKeys.has(key)) score.precision.hit += 1;
      else miss(`option ${key} is not an option`);
    }
  }
  if (expected.positionals !== null) {
    const pairs = pairPositionals(expected.positionals, spec.positionals);
    for (const positional of expected.positionals) {
      score.positionals.total += 1;
      const found = pairs.get(positional);
      if (found && found.required === positional.required && found.variadic === positional.variadic) score.positionals.hit += 1;
      else miss(`positional ${positional.name} ${found ? `required=${String(found.required)} variadic=${String(found.variadic)}` : 'not found'}`);
    }
    const paired = new Set(pairs.values());
    for (const found of spec.positionals) {
      if (!paired.has(found)) {
        score.positionals.total += 1; // an invented positional counts against the score
        miss(`positional ${found.name} invented`);
      }
    }
  }
  score.names.total += 1;
  if (spec.name === sanitizeToolName(expected.program)) score.names.hit += 1;
  else miss(`name ${spec.name}, expected ${sanitizeToolName(expected.program)}`);
}

export function scoreCorpus(cases: readonly ScoredCase[]): CorpusScore {
  const score = emptyScore();
  for (const entry of cases) scoreCase(entry, parseHelp(entry.text, { fileName: `${entry.id}.wasm` }), score);
  return score;
}

export function ratio(tally: Tally): number {
  return tally.total === 0 ? 1 : tally.hit / tally.total;
}
