/**
 * Transpiling off the calling thread. jco's `componentNew` and `transpile` are synchronous wasm: on a
 * cache miss a 7.6 MB Go module held the event loop for 11 s, a 20 MB component for minutes, so a
 * daemon loading its folder in the background could not answer `/healthz` meanwhile. Here each
 * transpile runs on a worker thread of its own (started for it, ended after it: a transpile is rare
 * and costs far more than a thread's start), and the caller's thread stays free.
 *
 * Contract: the same cache entry, or the same ToolHostError (code and message), as
 * `transpileIntoCache` on the calling thread.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ToolHostError, type ToolHostErrorCode } from '../errors.ts';
import type { CachedTranspile, ComponentSourceKind, EntryVariant } from './transpile-cache.ts';

export interface TranspileJob {
  file: string;
  bytes: Uint8Array;
  sha256: string;
  sourceKind: ComponentSourceKind;
  cacheDirectory: string;
  variant: EntryVariant;
}

export type TranspileReply = { ok: true; entry: CachedTranspile } | { ok: false; message: string; code?: string };

/** The worker file next to this module: `.ts` run through tsx when this module is `.ts` (tests, development). */
function workerEntry(): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  const isTypeScript = here.endsWith('.ts');
  const filename = fileURLToPath(new URL(isTypeScript ? './transpile-worker.ts' : './transpile-worker.js', here));
  return { filename, execArgv: isTypeScript ? ['--import', import.meta.resolve('tsx')] : [] };
}

/** `transpileIntoCache` on a thread of its own. */
export function transpileOnThread(job: TranspileJob): Promise<CachedTranspile> {
  const { filename, execArgv } = workerEntry();
  return new Promise<CachedTranspile>((resolve, reject) => {
    let settled = false;
    const worker = new Worker(filename, { execArgv, workerData: job });
    worker.once('message', (reply: TranspileReply) => {
      settled = true;
      if (reply.ok) resolve(reply.entry);
      else reject(reply.code !== undefined ? new ToolHostError(reply.code as ToolHostErrorCode, reply.message) : new Error(reply.message));
      void worker.terminate();
    });
    worker.once('error', (error) => {
      if (settled) return;
      settled = true;
      reject(new ToolHostError('WASM_LOAD_FAILED', `Cannot load wasm tool ${job.file}: the transpile thread failed: ${error.message}`, { cause: error }));
    });
    worker.once('exit', (code) => {
      if (settled) return;
      settled = true;
      reject(new ToolHostError('WASM_LOAD_FAILED', `Cannot load wasm tool ${job.file}: the transpile thread exited (${code}) without an answer`));
    });
  });
}
