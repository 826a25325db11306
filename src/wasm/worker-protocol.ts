/**
 * Messages between the pool and its workers. A task names its component version by key; the first
 * time a worker sees a key it answers `missing-modules` and the pool resends the task with the
 * compiled modules attached (a `WebAssembly.Module` posts cheaply, but not for free).
 */
import type { MessagePort } from 'node:worker_threads';
import type { InvokeResult } from './invoke.ts';
import type { CoreModules } from './module-cache.ts';
import type { EntryExecution } from './transpile-cache.ts';
import type { WasiHostOptions } from './wasi/types.ts';

export interface WorkerTask {
  kind?: undefined;
  /** `sha256:cacheEntry:memoryPages` (module-cache.ts `compiledKey`). */
  key: string;
  /** `preview1`: the one core module runs on the preview1 host (no glue: `gluePath` is ''). */
  execution: EntryExecution;
  gluePath: string;
  /** What the glue's bytes must hash to (from the signed cache manifest). */
  glueSha256: string;
  modules?: CoreModules;
  host: WasiHostOptions;
  /**
   * Only when someone listens to the call: the port its stderr events go to (stderr-events.ts), and
   * which of them are wanted. The pool closes the port after `end` (or when the worker replies otherwise).
   */
  events?: TaskEvents;
}

export interface TaskEvents {
  port: MessagePort;
  lines: boolean;
  progress: boolean;
}

/** A tool a warming worker prepares ahead of its calls (the modules and glue of one component version). */
export interface PreparedTool {
  key: string;
  execution: EntryExecution;
  gluePath: string;
  glueSha256: string;
  modules: CoreModules;
}

/**
 * Sent once to every worker of a successor generation before it takes calls: prepare these tools,
 * then wait at the barrier (an Int32 counter) until `parties` workers have arrived or `deadline`
 * (ms since the epoch) passed. Holding each worker at the barrier is what spreads the tasks over
 * all of them: a worker that is waiting is busy, so the next warm task goes to another one.
 */
export interface WorkerWarmTask {
  kind: 'warm';
  tools: PreparedTool[];
  barrier: SharedArrayBuffer;
  parties: number;
  deadline: number;
}

export type WorkerReply =
  | { kind: 'missing-modules'; threadId: number }
  | { kind: 'done'; threadId: number; result: InvokeResult }
  | { kind: 'warmed'; threadId: number };

export interface WorkerStartData {
  wasiHostModule: string | undefined;
}
