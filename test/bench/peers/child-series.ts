/**
 * Peers that time themselves in another process (node:wasi, wasmtime embedded in Python) print one
 * JSON line, {"times_ms": [...], "seconds": n, "stdout": "<the program's first output line>"}; this
 * reads it into the table's timings and checks the program printed what it should.
 */
import type { Timings } from '../bench-table.ts';
import { EXPECTED_STDOUT } from './context.ts';
import { runCommand } from './spawn.ts';

export async function childSeries(command: string, args: readonly string[]): Promise<Timings> {
  const stdout = await runCommand(command, args);
  const line = stdout.trim().split('\n').at(-1) ?? '';
  const report = JSON.parse(line) as { times_ms: number[]; seconds: number; stdout: string };
  if (!report.stdout.includes(EXPECTED_STDOUT)) throw new Error(`${command}: the program printed ${JSON.stringify(report.stdout)}`);
  return { times: report.times_ms, seconds: report.seconds };
}
