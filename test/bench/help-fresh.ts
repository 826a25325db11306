/**
 * Scores `parseHelp` on a fresh batch of help texts (a folder laid out like the corpus: index.json,
 * `<id>.txt`, `<id>.expected.json`), gathered by someone who never ran the parser. A fresh batch is
 * measured ONCE, then kept as a regression gate: never tune on it.
 * Run: node --import tsx test/bench/help-fresh.ts test/introspect/fresh/2026-11-29
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ratio, scoreCorpus, type ScoredCase, type ScoredExpectation, type Tally } from '../introspect/help-corpus-score.ts';

const folder = resolve(process.argv[2] ?? 'test/introspect/fresh/2026-11-29');
const index = JSON.parse(readFileSync(join(folder, 'index.json'), 'utf8')) as Record<string, { source: string }>;
const cases: ScoredCase[] = Object.entries(index)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([id, entry]) => ({
    id,
    split: 'held-back',
    source: entry.source,
    text: readFileSync(join(folder, `${id}.txt`), 'utf8'),
    expected: JSON.parse(readFileSync(join(folder, `${id}.expected.json`), 'utf8')) as ScoredExpectation,
  }));
const score = scoreCorpus(cases);
const cell = (tally: Tally): string => `${(ratio(tally) * 100).toFixed(1)}% (${tally.hit}/${tally.total})`;
console.log(`| metric | ${folder.split('/').slice(-1)[0]} |`);
console.log('| --- | --- |');
console.log(`| files | ${score.files} |`);
console.log(`| option precision | ${cell(score.precision)} |`);
console.log(`| option recall | ${cell(score.recall)} |`);
console.log(`| value-taking right | ${cell(score.valueTaking)} |`);
console.log(`| choices found | ${cell(score.choices)} |`);
console.log(`| defaults found | ${cell(score.defaults)} |`);
console.log(`| defaults invented | ${score.inventedDefaults} |`);
console.log(`| choices invented | ${score.inventedChoices} |`);
console.log(`| positionals found | ${cell(score.positionals)} |`);
console.log(`| names right | ${cell(score.names)} |`);
if (process.argv.includes('--misses')) for (const line of score.misses) console.log(line);
