/**
 * The thread a transpile runs on (see transpile-thread.ts): receives one job as workerData, runs
 * `transpileIntoCache` (wrap a wasip1 module, jco transpile, write the cache entry) and posts back the
 * cache entry, or the error's code and message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ToolHostError } from '../errors.ts';
import { transpileIntoCache } from './load.ts';
import type { TranspileJob, TranspileReply } from './transpile-thread.ts';

const job = workerData as TranspileJob;
let reply: TranspileReply;
try {
  reply = { ok: true, entry: await transpileIntoCache(job.file, job.bytes, job.sha256, job.sourceKind, job.cacheDirectory, job.variant) };
} catch (error) {
  reply = { ok: false, message: error instanceof Error ? error.message : String(error), ...(error instanceof ToolHostError ? { code: error.code } : {}) };
}
parentPort?.postMessage(reply);
