/**
 * Reading tool calls out of model-written text without holding the daemon's event loop. The scan is
 * linear (text-protocol.ts), but a body near the 1 MiB limit still takes a few hundred milliseconds
 * of CPU on a busy machine, and a client may send many: texts longer than `INLINE_MAX_CHARS` are
 * scanned on one worker thread kept for the purpose (started on first use, unref'd so it never keeps
 * the process alive, restarted if it dies), so `/healthz` and other calls are answered meanwhile.
 * Short texts, the common case, are scanned inline (a thread hop would cost more than the scan).
 *
 * Contract: same result as `parseTextToolCalls(text)`; rejects only if the worker cannot run at all.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseTextToolCalls, type TextToolCall } from './text-protocol.ts';

/** Texts up to this many characters are scanned on the calling thread (well under a millisecond). */
export const INLINE_MAX_CHARS = 16 * 1024;

interface Pending {
  resolve(calls: TextToolCall[]): void;
  reject(error: Error): void;
}

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function workerEntry(): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { filename: fileURLToPath(new URL('./text-scan-worker.js', here)), execArgv: [] };
  // The sources (tests, development): Node's own type stripping where it has it, else tsx.
  const strips = (process.features as { typescript?: unknown }).typescript;
  return {
    filename: fileURLToPath(new URL('./text-scan-worker.ts', here)),
    execArgv: strips ? ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'] : ['--import', import.meta.resolve('tsx')],
  };
}

function failAll(error: Error): void {
  for (const entry of pending.values()) entry.reject(error);
  pending.clear();
}

function scanner(): Worker {
  if (worker !== undefined) return worker;
  const { filename, execArgv } = workerEntry();
  const started = new Worker(filename, { execArgv, resourceLimits: { maxOldGenerationSizeMb: 256 } });
  started.unref();
  started.on('message', (message: { id: number; calls?: TextToolCall[]; error?: string }) => {
    const entry = pending.get(message.id);
    if (entry === undefined) return;
    pending.delete(message.id);
    if (message.calls !== undefined) entry.resolve(message.calls);
    else entry.reject(new Error(message.error ?? 'the text scanner failed'));
  });
  const forget = (error: Error): void => {
    if (worker === started) worker = undefined;
    failAll(error);
  };
  started.on('error', forget);
  started.on('exit', (code) => forget(new Error(`the text scanner thread exited (${code})`)));
  worker = started;
  return started;
}

/** `parseTextToolCalls`, off the event loop for long texts. */
export function parseTextToolCallsOffThread(text: string): Promise<TextToolCall[]> {
  if (text.length <= INLINE_MAX_CHARS) return Promise.resolve(parseTextToolCalls(text));
  return new Promise((resolve, reject) => {
    const id = nextId;
    nextId += 1;
    pending.set(id, { resolve, reject });
    const target = scanner();
    // While a scan is pending the thread must keep the process alive long enough to answer.
    target.ref();
    target.postMessage({ id, text });
  }).finally(() => {
    if (pending.size === 0) worker?.unref();
  }) as Promise<TextToolCall[]>;
}
