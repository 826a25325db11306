/**
 * Prints the parse time per help over the whole help corpus (every split: timing only, no scores):
 * median, p90, p99 and max of `parseHelp`, each help's best of N rounds after one warm-up round, as
 * wall time and as the process's CPU time (`process.cpuUsage`, less sensitive to a loaded machine).
 * With `--peer <path/to/parse-help.ts>` (another checkout's parser, e.g. `git worktree` or
 * `git archive` of an older commit), both are measured in the same run, help by help alternately, so
 * the machine's load falls on both alike. Run:
 * node --import tsx test/bench/help-parse-time.ts [--rounds N] [--peer PATH]
 */
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { loadScoredCorpus } from '../introspect/help-corpus-score.ts';

type Parse = (text: string, options: { fileName: string }) => unknown;

const cases = loadScoredCorpus();
const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const rounds = Math.max(1, Number(argument('--rounds') ?? 3));
const peerPath = argument('--peer');
const parsers: [string, Parse][] = [['this', parseHelp]];
if (peerPath !== undefined) parsers.push(['peer', ((await import(resolve(peerPath))) as { parseHelp: Parse }).parseHelp]);

const wall = new Map<string, Map<string, number>>(parsers.map(([label]) => [label, new Map()]));
const cpu = new Map<string, Map<string, number>>(parsers.map(([label]) => [label, new Map()]));
for (const [, parse] of parsers) for (const entry of cases) parse(entry.text, { fileName: `${entry.id}.wasm` });
for (let round = 0; round < rounds; round += 1) {
  for (const entry of cases) {
    for (const [label, parse] of round % 2 === 0 ? parsers : [...parsers].reverse()) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      parse(entry.text, { fileName: `${entry.id}.wasm` });
      const took = performance.now() - start;
      const used = process.cpuUsage(cpuStart);
      const wallBest = wall.get(label)!;
      const cpuBest = cpu.get(label)!;
      wallBest.set(entry.id, Math.min(wallBest.get(entry.id) ?? Infinity, took));
      cpuBest.set(entry.id, Math.min(cpuBest.get(entry.id) ?? Infinity, (used.user + used.system) / 1000));
    }
  }
}
console.log(`| parser | clock | helps | median | p90 | p99 | max | total |`);
console.log(`| --- | --- | --- | --- | --- | --- | --- | --- |`);
for (const [label] of parsers) {
  for (const [clock, best] of [['wall', wall.get(label)!], ['cpu', cpu.get(label)!]] as const) {
    const times = [...best.values()].sort((a, b) => a - b);
    const at = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
    console.log(`| ${label} | ${clock} | ${times.length} | ${at(0.5).toFixed(2)} ms | ${at(0.9).toFixed(2)} ms | ${at(0.99).toFixed(2)} ms | ${at(1).toFixed(2)} ms | ${times.reduce((a, b) => a + b, 0).toFixed(0)} ms |`);
  }
}
const slowest = [...cpu.get('this')!.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
console.log(`slowest (this, cpu): ${slowest.map(([id, ms]) => `${id} ${ms.toFixed(1)} ms`).join(', ')}`);
