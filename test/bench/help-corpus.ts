/**
 * Prints how well `parseHelp` understands the measured help corpus, tuned vs held-back, as a
 * markdown table. Run: npx tsx test/bench/help-corpus.ts [--split tuned|held-back] [--misses tuned|held-back]
 */
import { loadScoredCorpus, ratio, scoreCorpus, type CorpusScore, type CorpusSplit, type Tally } from '../introspect/help-corpus-score.ts';

const cases = loadScoredCorpus();
const only = process.argv.indexOf('--split');
const splits: CorpusSplit[] = only === -1 ? ['tuned', 'held-back'] : [process.argv[only + 1] as CorpusSplit];
const scores = new Map<CorpusSplit, CorpusScore>(splits.map((split) => [split, scoreCorpus(cases.filter((entry) => entry.split === split))]));

const cell = (tally: Tally): string => `${(ratio(tally) * 100).toFixed(1)}% (${tally.hit}/${tally.total})`;
const rows: [string, (score: CorpusScore) => string][] = [
  ['files', (score) => String(score.files)],
  ['option precision', (score) => cell(score.precision)],
  ['option recall', (score) => cell(score.recall)],
  ['value-taking right', (score) => cell(score.valueTaking)],
  ['choices found', (score) => cell(score.choices)],
  ['defaults found', (score) => cell(score.defaults)],
  ['defaults invented', (score) => String(score.inventedDefaults)],
  ['choices invented', (score) => String(score.inventedChoices)],
  ['positionals found', (score) => cell(score.positionals)],
  ['names right', (score) => cell(score.names)],
];
console.log(`| metric | ${splits.join(' | ')} |`);
console.log(`| --- | ${splits.map(() => '---').join(' | ')} |`);
for (const [label, render] of rows) console.log(`| ${label} | ${splits.map((split) => render(scores.get(split)!)).join(' | ')} |`);

const missesOf = process.argv.indexOf('--misses');
if (missesOf !== -1) {
  const split = process.argv[missesOf + 1] as CorpusSplit;
  for (const line of scores.get(split)?.misses ?? []) console.log(line);
}
