/**
 * Prints the parse time per help over the whole help corpus (every split: timing only, no scores):
 * median, p90, p99 and max of `parseHelp`, each help's best of N rounds after one warm-up round, as
 * wall time and as this thread's CPU time (`process.cpuUsage`, less sensitive to a loaded machine). Run:
 * node --import tsx test/bench/help-parse-time.ts [--rounds N]
 */
import { performance } from 'node:perf_hooks';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { loadScoredCorpus } from '../introspect/help-corpus-score.ts';

const cases = loadScoredCorpus();
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt === -1 ? 3 : Math.max(1, Number(process.argv[roundsAt + 1]));
for (const entry of cases) parseHelp(entry.text, { fileName: `${entry.id}.wasm` });
const wall = new Map<string, number>();
const cpu = new Map<string, number>();
for (let round = 0; round < rounds; round += 1) {
  for (const entry of cases) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    parseHelp(entry.text, { fileName: `${entry.id}.wasm` });
    const took = performance.now() - start;
    const used = process.cpuUsage(cpuStart);
    wall.set(entry.id, Math.min(wall.get(entry.id) ?? Infinity, took));
    cpu.set(entry.id, Math.min(cpu.get(entry.id) ?? Infinity, (used.user + used.system) / 1000));
  }
}
console.log(`| clock | helps | median | p90 | p99 | max | total |`);
console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
for (const [label, best] of [['wall', wall], ['cpu', cpu]] as const) {
  const times = [...best.values()].sort((a, b) => a - b);
  const at = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  console.log(`| ${label} | ${times.length} | ${at(0.5).toFixed(2)} ms | ${at(0.9).toFixed(2)} ms | ${at(0.99).toFixed(2)} ms | ${at(1).toFixed(2)} ms | ${times.reduce((a, b) => a + b, 0).toFixed(0)} ms |`);
}
const slowest = [...cpu.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
console.log(`slowest (cpu): ${slowest.map(([id, ms]) => `${id} ${ms.toFixed(1)} ms`).join(', ')}`);
