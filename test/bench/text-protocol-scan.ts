/**
 * Scan time of the text-protocol parser (`POST /v1/dispatch?provider=text`) on worst-case texts at
 * n, 2n and 4n characters: a linear scanner doubles its time with the size (ratio near 2 and 4),
 * the old one, which walked to the end of the text for each unclosed block, quadrupled it.
 * Best of BENCH_RUNS (3); n is BENCH_SIZE (100000).
 * Run: node --import tsx test/bench/text-protocol-scan.ts
 */
import { parseTextToolCalls } from '../../src/server/dispatch/text-protocol.ts';
import { adversarialTexts } from '../server/adversarial-text.ts';

const runs = Number(process.env['BENCH_RUNS'] ?? 3);
const size = Number(process.env['BENCH_SIZE'] ?? 100_000);

function best(action: () => void): number {
  let fastest = Infinity;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    action();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

const columns = [`${size / 1000}k ms`, `${(2 * size) / 1000}k ms`, `${(4 * size) / 1000}k ms`, '2n/n', '4n/n'];
console.log(`${'input'.padEnd(34)} ${columns.map((column) => column.padStart(10)).join(' ')}`);
for (const [title, make] of adversarialTexts) {
  const times = [size, 2 * size, 4 * size].map((length) => {
    const text = make(length);
    return best(() => parseTextToolCalls(text));
  });
  const [one, two, four] = times as [number, number, number];
  const cells = [one, two, four].map((ms) => ms.toFixed(1)).concat([(two / one).toFixed(2), (four / one).toFixed(2)]);
  console.log(`${title.padEnd(34)} ${cells.map((cell) => cell.padStart(10)).join(' ')}`);
}
