/**
 * The worker thread that reads tool calls out of text for `parseTextToolCallsOffThread`
 * (text-scan.ts): one message in (`{id, text}`), one out (`{id, calls}` or `{id, error}`).
 */
import { parentPort } from 'node:worker_threads';
import { parseTextToolCalls } from './text-protocol.ts';

parentPort?.on('message', (message: { id: number; text: string }) => {
  try {
    parentPort?.postMessage({ id: message.id, calls: parseTextToolCalls(message.text) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
