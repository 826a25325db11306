/**
 * The side-by-side table `npm run bench` prints: timing helpers shared by every row (so each path is
 * measured and summarised the same way) and the markdown rendering with ratios against one
 * reference row.
 */

/** One measured path of a call of the same C program. */
export interface MeasuredRow {
  path: string;
  p50Ms: number;
  p99Ms: number;
  callsPerSecond: number;
  /** How the row was measured: calls, callers, what is included in a call. */
  how: string;
}

/** A path that could not be measured here (missing peer, build failure), with what would fix it. */
export interface UnavailableRow {
  path: string;
  unavailable: string;
}

export type BenchRow = MeasuredRow | UnavailableRow;

export function isMeasured(row: BenchRow): row is MeasuredRow {
  return 'p50Ms' in row;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

export interface Timings {
  /** Per-call wall times, ms. */
  times: number[];
  /** Wall time of the whole measured series, seconds. */
  seconds: number;
}

/** A row from per-call times: p50 and p99 of `times`, calls/s over the series' wall time. */
export function rowFromTimings(path: string, timings: Timings, how: string): MeasuredRow {
  const sorted = [...timings.times].sort((a, b) => a - b);
  return { path, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), callsPerSecond: timings.times.length / timings.seconds, how };
}

export interface SeriesOptions {
  /** Untimed calls first (JIT, caches, worker start). */
  warmup: number;
  /** Timed calls at most. */
  calls: number;
  /** Stop the timed series after this many seconds even if fewer calls ran (at least 3 calls run). */
  maxSeconds: number;
}

/** Runs `call` one at a time and records each call's wall time. */
export async function timeSequential(call: () => Promise<unknown> | unknown, options: SeriesOptions): Promise<Timings> {
  for (let index = 0; index < options.warmup; index += 1) await call();
  const times: number[] = [];
  const started = performance.now();
  const deadline = started + options.maxSeconds * 1000;
  while (times.length < options.calls && (times.length < 3 || performance.now() < deadline)) {
    const begin = performance.now();
    await call();
    times.push(performance.now() - begin);
  }
  return { times, seconds: (performance.now() - started) / 1000 };
}

/** Runs `call` from `callers` concurrent loops until `calls` calls or `maxSeconds` passed; each call's latency is recorded. */
export async function timeConcurrent(call: () => Promise<unknown>, callers: number, options: SeriesOptions): Promise<Timings> {
  let warm = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (warm < options.warmup) {
        warm += 1;
        await call();
      }
    }),
  );
  const times: number[] = [];
  let started = 0;
  const begin = performance.now();
  const deadline = begin + options.maxSeconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (started < options.calls && performance.now() < deadline) {
        started += 1;
        const callBegin = performance.now();
        await call();
        times.push(performance.now() - callBegin);
      }
    }),
  );
  return { times, seconds: (performance.now() - begin) / 1000 };
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

function formatMs(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value >= 10 ? fixed(value, 1) : value >= 1 ? fixed(value, 2) : fixed(value, 3);
}

function formatRate(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value >= 10 ? Math.round(value).toLocaleString('en-US') : value.toFixed(value >= 1 ? 1 : 2);
}

function formatRatio(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value >= 100 ? `${Math.round(value).toLocaleString('en-US')}×` : value >= 10 ? `${value.toFixed(0)}×` : `${value.toFixed(1)}×`;
}

/**
 * The markdown table. Ratios are against `referencePath` (its row reads 1.0×): p50 ÷ the reference's
 * p50 (higher is slower per call) and the reference's calls/s ÷ the row's (higher is less throughput).
 */
export function renderTable(rows: readonly BenchRow[], referencePath: string): string {
  const reference = rows.find((row): row is MeasuredRow => isMeasured(row) && row.path === referencePath);
  const lines = [
    `| path | p50 ms | p99 ms | calls/s | p50 ÷ reference p50 | reference calls/s ÷ calls/s | how |`,
    `|---|---:|---:|---:|---:|---:|---|`,
  ];
  for (const row of rows) {
    if (!isMeasured(row)) {
      lines.push(`| ${row.path} | — | — | — | — | — | not available: ${row.unavailable} |`);
      continue;
    }
    const latencyRatio = reference ? row.p50Ms / reference.p50Ms : Number.NaN;
    const rateRatio = reference ? reference.callsPerSecond / row.callsPerSecond : Number.NaN;
    lines.push(
      `| ${row.path} | ${formatMs(row.p50Ms)} | ${formatMs(row.p99Ms)} | ${formatRate(row.callsPerSecond)} | ${formatRatio(latencyRatio)} | ${formatRatio(rateRatio)} | ${row.how} |`,
    );
  }
  return lines.join('\n');
}
