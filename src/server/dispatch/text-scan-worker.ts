/**
 * The worker thread that reads tool calls out of text for `parseTextToolCallsOffThread`
 * (text-scan.ts): one message in (`{id, text}`), one out (`{id, calls}` or `{id, error}`).
 *
 * On Linux the thread lowers its own CPU priority (nice 10, by its thread id: `setpriority` on a
 * thread id affects that thread only), so a flood of long texts competes with commands, not with
 * the daemon's event loop.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { parseTextToolCalls } from './text-protocol.ts';

const SCAN_NICENESS = 10;

try {
  const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, SCAN_NICENESS);
} catch {
  // Not Linux, or not allowed: the scan runs at the daemon's priority.
}

parentPort?.on('message', (message: { id: number; text: string }) => {
  try {
    parentPort?.postMessage({ id: message.id, calls: parseTextToolCalls(message.text) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
