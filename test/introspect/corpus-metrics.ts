/**
 * Prints option precision and recall of `parseHelp` over the help corpus.
 * Run: npx tsx test/introspect/corpus-metrics.ts
 *
 * precision = parsed options that are expected / parsed options (full expectations only)
 * recall    = expected options that were parsed / expected options (all expectations)
 * exact     = matched options whose every field equals the expectation / matched options
 */
import { isDeepStrictEqual } from 'node:util';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { comparableOption, loadCorpus, optionKey } from './corpus.ts';

export interface CorpusMetrics {
  precision: number;
  recall: number;
  exact: number;
  files: number;
  rows: string[];
}

export function computeCorpusMetrics(): CorpusMetrics {
  let parsedTotal = 0;
  let parsedMatched = 0;
  let expectedTotal = 0;
  let expectedMatched = 0;
  let exactMatched = 0;
  const rows: string[] = [];
  const corpus = loadCorpus();
  for (const entry of corpus) {
    const spec = parseHelp(entry.text, { fileName: `${entry.id}.wasm` });
    const expectedKeys = new Set(entry.expected.options.map(optionKey));
    const parsedKeys = new Set(spec.options.map(optionKey));
    const matched = [...expectedKeys].filter((key) => parsedKeys.has(key));
    let exact = 0;
    for (const expected of entry.expected.options) {
      const found = spec.options.find((option) => optionKey(option) === optionKey(expected));
      if (found && isDeepStrictEqual(comparableOption(found, expected), expected)) exact += 1;
    }
    expectedTotal += expectedKeys.size;
    expectedMatched += matched.length;
    exactMatched += exact;
    if (!entry.expected.partial) {
      parsedTotal += parsedKeys.size;
      parsedMatched += [...parsedKeys].filter((key) => expectedKeys.has(key)).length;
    }
    rows.push(
      `${entry.id.padEnd(22)} parsed ${String(parsedKeys.size).padStart(3)}  expected ${String(expectedKeys.size).padStart(3)}${entry.expected.partial ? ' (partial)' : '          '}  matched ${String(matched.length).padStart(3)}  exact ${String(exact).padStart(3)}`,
    );
  }
  return {
    precision: parsedTotal === 0 ? 0 : parsedMatched / parsedTotal,
    recall: expectedTotal === 0 ? 0 : expectedMatched / expectedTotal,
    exact: expectedMatched === 0 ? 0 : exactMatched / expectedMatched,
    files: corpus.length,
    rows,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const metrics = computeCorpusMetrics();
  for (const row of metrics.rows) console.log(row);
  console.log(`files ${metrics.files}`);
  console.log(`option precision ${(metrics.precision * 100).toFixed(1)}%`);
  console.log(`option recall    ${(metrics.recall * 100).toFixed(1)}%`);
  console.log(`field-exact      ${(metrics.exact * 100).toFixed(1)}% of matched options`);
}
