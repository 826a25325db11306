/**
 * What every row of `npm run bench` shares: the one program measured (test/fixtures/c/rt-echo.c, as a
 * command component, its preview1 core module and a native binary), the output every path must
 * produce, a scratch folder, and the time budget knob.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SeriesOptions } from '../bench-table.ts';

export const PROJECT_ROOT = join(import.meta.dirname, '../../..');

export interface BenchContext {
  componentFile: string;
  coreFile: string;
  cSource: string;
  /** A temp folder for this run (extensions dir, caches, compiled peers); removed at the end. */
  scratch: string;
  /**
   * Multiplies every series' call count and time cap (env BENCH_SCALE, default 1: the whole table in
   * about three minutes on 2 cores; 5 for steadier numbers).
   */
  scale: number;
  /** Callers/connections for the concurrent rows (env BENCH_CONCURRENCY, default 16). */
  concurrency: number;
}

/**
 * toolhost infers no parameters for rt-echo (it has no --help), so every path runs it with no
 * arguments and it prints this line.
 */
export const EXPECTED_STDOUT = '{"content":""}';

export function benchContext(scratch: string): BenchContext {
  return {
    componentFile: join(PROJECT_ROOT, 'test/fixtures/build/rt-echo.wasm'),
    coreFile: join(PROJECT_ROOT, 'test/fixtures/build/rt-echo.core.wasm'),
    cSource: join(PROJECT_ROOT, 'test/fixtures/c/rt-echo.c'),
    scratch,
    scale: Number(process.env['BENCH_SCALE'] ?? 1),
    concurrency: Number(process.env['BENCH_CONCURRENCY'] ?? 16),
  };
}

/** A series scaled by BENCH_SCALE (the warm-up is not scaled). */
export function scaled(context: BenchContext, series: SeriesOptions): SeriesOptions {
  return { warmup: series.warmup, calls: Math.max(3, Math.round(series.calls * context.scale)), maxSeconds: series.maxSeconds * context.scale };
}

/** The shipped CLI entry (package.json `bin`), built by `npm run build`. */
export const DIST_BIN = join(PROJECT_ROOT, 'dist/src/cli/bin.js');

/** A folder holding only rt-echo.wasm, for the daemon and the one-shot CLI; created once per run. */
export function extensionsFolder(context: BenchContext): string {
  const folder = join(context.scratch, 'extensions');
  if (!existsSync(folder)) {
    mkdirSync(folder, { recursive: true });
    copyFileSync(context.componentFile, join(folder, 'rt-echo.wasm'));
  }
  return folder;
}
