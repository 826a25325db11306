/**
 * Counts, over every help text of the corpus (test/introspect/corpus/*.txt), how many have an
 * EXAMPLES section with example lines that run the program, how many example lines were read, and
 * how many became argument objects the tool's schema accepts (the load's own path: parseHelp, then
 * withHelpExamples and inputExamplesOf, src/introspect/examples/).
 * Run: npx tsx test/introspect/examples-metrics.ts [--list]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputExamplesOf, withHelpExamples } from '../../src/introspect/examples/index.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import type { CliSpec } from '../../src/introspect/spec.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { CORPUS_DIRECTORY } from './corpus.ts';

/** A line titling an examples section, as help-examples.ts reads it. */
const EXAMPLES_TITLE = /^\s*(?:examples?|example usage|usage examples?|examples? of use)\s*:?\s*$/im;

export interface ExampleMetrics {
  helps: number;
  withSection: number;
  withExamples: number;
  read: number;
  kept: number;
  rows: string[];
}

/** How a help text becomes a spec (the load's parse; a test may pass a memoized one). */
export type HelpParser = (text: string, id: string) => CliSpec;

const parseCorpusHelp: HelpParser = (text, id) => parseHelp(text, { fileName: `${id}.wasm` });

export function computeExampleMetrics(parse: HelpParser = parseCorpusHelp): ExampleMetrics {
  const metrics: ExampleMetrics = { helps: 0, withSection: 0, withExamples: 0, read: 0, kept: 0, rows: [] };
  for (const file of readdirSync(CORPUS_DIRECTORY).filter((name) => name.endsWith('.txt')).sort()) {
    const id = file.slice(0, -4);
    const text = readFileSync(join(CORPUS_DIRECTORY, file), 'utf8');
    metrics.helps += 1;
    if (EXAMPLES_TITLE.test(text)) metrics.withSection += 1;
    const spec = withHelpExamples(parse(text, id), text, [id]);
    const read = spec.examples?.length ?? 0;
    if (read === 0) continue;
    const kept = inputExamplesOf(spec, cliSpecToZod(spec));
    metrics.withExamples += 1;
    metrics.read += read;
    metrics.kept += kept.length;
    metrics.rows.push(`${id}\t${read}\t${kept.length}\t${JSON.stringify(kept.map((example) => example.input))}`);
  }
  return metrics;
}

if (process.argv[1]?.endsWith('examples-metrics.ts')) {
  const metrics = computeExampleMetrics();
  if (process.argv.includes('--list')) for (const row of metrics.rows) console.log(row);
  console.log(`help texts: ${metrics.helps}`);
  console.log(`with an EXAMPLES section title: ${metrics.withSection}`);
  console.log(`with example lines that run the program: ${metrics.withExamples}`);
  console.log(`example lines read: ${metrics.read}`);
  console.log(`mapped to argument objects the schema accepts: ${metrics.kept} (${((100 * metrics.kept) / Math.max(1, metrics.read)).toFixed(1)}%)`);
}
