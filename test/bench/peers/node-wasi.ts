/** node:wasi (preview1) on the same program's core module, in-process in a child node (see node-wasi-child.mjs). */
import { join } from 'node:path';
import { rowFromTimings, type BenchRow } from '../bench-table.ts';
import { childSeries } from './child-series.ts';
import { scaled, type BenchContext } from './context.ts';

export async function measureNodeWasi(context: BenchContext): Promise<BenchRow> {
  const path = 'node:wasi (preview1 core module)';
  // Node 20's node:wasi has crashed (SIGSEGV) after 1,600 calls in one process here: stay well below.
  const scaledSeries = scaled(context, { warmup: 100, calls: 500, maxSeconds: 5 });
  const series = { ...scaledSeries, calls: Math.min(scaledSeries.calls, 1000) };
  try {
    const timings = await childSeries(process.execPath, [
      '--no-warnings',
      join(import.meta.dirname, 'node-wasi-child.mjs'),
      context.coreFile,
      String(series.calls),
      String(series.warmup),
      String(series.maxSeconds),
      join(context.scratch, 'node-wasi.out'),
    ]);
    return rowFromTimings(path, timings, 'fresh WASI + instance per call on one thread, module compiled once');
  } catch (error) {
    return { path, unavailable: `the node:wasi child failed: ${error instanceof Error ? error.message.split(':')[0]?.slice(0, 200) : String(error)}` };
  }
}
