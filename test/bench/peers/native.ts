/** The same C source built natively (`cc -O2`), one process per call: the floor for a spawned tool. */
import { join } from 'node:path';
import { rowFromTimings, type BenchRow } from '../bench-table.ts';
import { EXPECTED_STDOUT, scaled, type BenchContext } from './context.ts';
import { runCommand, timeSpawns } from './spawn.ts';

export async function measureNative(context: BenchContext): Promise<BenchRow> {
  const path = 'native spawn of rt-echo (gcc -O2)';
  const binary = join(context.scratch, 'rt-echo-native');
  const compiler = process.env['CC'] ?? 'gcc';
  try {
    await runCommand(compiler, ['-O2', '-o', binary, context.cSource]);
  } catch (error) {
    return { path, unavailable: `${compiler} failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); apt-get install gcc` };
  }
  const call = { command: binary, args: [], expect: EXPECTED_STDOUT };
  const timings = await timeSpawns(call, scaled(context, { warmup: 20, calls: 300, maxSeconds: 4 }));
  return rowFromTimings(path.replace('gcc', compiler), timings, 'spawnSync from a small node process to exit, one at a time');
}
