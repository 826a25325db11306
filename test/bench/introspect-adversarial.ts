/**
 * How long the help parser takes on adversarial help texts (a dropped .wasm's --help is parsed inside the
 * daemon). Prints one line per input, with the input size and the parse time, best of BENCH_RUNS (3).
 * Peer in the same run: the time to split the same text into lines, a floor for any line-based parser.
 * Run: node --import tsx test/bench/introspect-adversarial.ts
 */
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { adversarialHelpTexts } from '../introspect/adversarial-help.ts';

const runs = Number(process.env['BENCH_RUNS'] ?? 3);

function best(action: () => void): number {
  let fastest = Infinity;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    action();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

console.log(`${'input'.padEnd(32)} ${'size'.padStart(10)} ${'parse ms'.padStart(10)} ${'split ms'.padStart(10)} ${'ratio'.padStart(8)}`);
for (const [title, make] of adversarialHelpTexts) {
  const text = make();
  const parseMs = best(() => parseHelp(text, { fileName: 'bench.wasm' }));
  const splitMs = best(() => text.split(/\r?\n|\r/).map((line) => line.trim()));
  console.log(`${title.padEnd(32)} ${String(text.length).padStart(10)} ${parseMs.toFixed(1).padStart(10)} ${splitMs.toFixed(1).padStart(10)} ${(parseMs / Math.max(splitMs, 0.01)).toFixed(1).padStart(8)}`);
}
