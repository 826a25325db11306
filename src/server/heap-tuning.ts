/**
 * Heap sizing for the long-running daemon. Under a burst of calls V8 grows the main thread's heap by
 * its default factor and keeps it committed: a soak (test/bench/soak-rss.ts) grew RSS by 69-270 MB
 * while only ~40-58 MB stayed live after a full GC. A smaller growth step keeps the committed heap near
 * the live one at the same throughput (measured: +23 MB peak, -3 MB after). Applied by `serve` and `mcp`
 * only; `TOOLHOST_V8_FLAGS` replaces the default (set it to an empty string to keep V8's own sizing).
 *
 * A young generation that starts at 8 MB semi-spaces instead of growing from 1 MB: V8 reads the flag when
 * an isolate's heap is made, so it applies to the worker threads started after this call (the wasm
 * calls run there; the main thread's heap is already made). Each call leaves ~28 KB of short-lived host
 * objects, so small semi-spaces meant a scavenge every ~140 calls per worker, one pause in the p99 of
 * sequential calls; with 8 MB: 21 → 6 worker scavenges per 3,000 HTTP calls, RSS within +10 MB
 * (`node --trace-gc dist/src/cli/bin.js serve`, 3,000 sequential rt-echo calls).
 */
import v8 from 'node:v8';

export const DEFAULT_DAEMON_V8_FLAGS = '--heap-growing-percent=50 --min-semi-space-size=8';

export function tuneDaemonHeap(env: NodeJS.ProcessEnv = process.env): string {
  const flags = env['TOOLHOST_V8_FLAGS'] ?? DEFAULT_DAEMON_V8_FLAGS;
  if (flags.trim() !== '') v8.setFlagsFromString(flags);
  return flags;
}
