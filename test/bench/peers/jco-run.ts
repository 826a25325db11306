/** `jco run` on the component: spawns node and transpiles the component on every call. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { rowFromTimings, type BenchRow } from '../bench-table.ts';
import { EXPECTED_STDOUT, PROJECT_ROOT, scaled, type BenchContext } from './context.ts';
import { timeSpawns } from './spawn.ts';

export async function measureJcoRun(context: BenchContext): Promise<BenchRow> {
  const path = '`jco run`';
  const jco = join(PROJECT_ROOT, 'node_modules/.bin/jco');
  if (!existsSync(jco)) return { path, unavailable: 'node_modules/.bin/jco is missing: run `npm ci`' };
  const call = { command: jco, args: ['run', context.componentFile], expect: EXPECTED_STDOUT };
  const timings = await timeSpawns(call, scaled(context, { warmup: 0, calls: 3, maxSeconds: 10 }));
  return rowFromTimings(path, timings, `one process per call, transpiles each time (${timings.times.length} runs)`);
}
