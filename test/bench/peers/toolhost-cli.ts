/**
 * toolhost's one-shot CLI: `node dist/src/cli/bin.js call rt-echo '{}'`, one process per call, warm
 * transpile cache (the untimed first run fills it), what a script or an agent shelling out pays.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { rowFromTimings, type BenchRow } from '../bench-table.ts';
import { DIST_BIN, EXPECTED_STDOUT, extensionsFolder, scaled, type BenchContext } from './context.ts';
import { timeSpawns } from './spawn.ts';

export async function measureToolhostCli(context: BenchContext): Promise<BenchRow> {
  const path = 'toolhost CLI one-shot (`toolhost call`)';
  if (!existsSync(DIST_BIN)) return { path, unavailable: `${DIST_BIN} is missing: run \`npm run build\`` };
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env['NODE_OPTIONS'];
  const call = {
      command: process.execPath,
      args: [DIST_BIN, 'call', 'rt-echo', '{}', '--extensions', extensionsFolder(context), '--workspace', context.scratch, '--cache-dir', join(context.scratch, 'cli-cache')],
      cwd: context.scratch,
      env,
    expect: EXPECTED_STDOUT,
  };
  const timings = await timeSpawns(call, scaled(context, { warmup: 1, calls: 15, maxSeconds: 8 }));
  return rowFromTimings(path, timings, `node dist/src/cli/bin.js call, one process per call, warm transpile cache (${timings.times.length} runs)`);
}
