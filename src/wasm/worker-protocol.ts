/**
 * Messages between the pool and its workers. A task names its component version by key; the first
 * time a worker sees a key it answers `missing-modules` and the pool resends the task with the
 * compiled modules attached (a `WebAssembly.Module` posts cheaply, but not for free).
 */
import type { InvokeResult } from './invoke.ts';
import type { CoreModules } from './module-cache.ts';
import type { WasiHostOptions } from './wasi/types.ts';

export interface WorkerTask {
  /** `sha256:memoryPages`. */
  key: string;
  gluePath: string;
  modules?: CoreModules;
  host: WasiHostOptions;
}

export type WorkerReply =
  | { kind: 'missing-modules'; threadId: number }
  | { kind: 'done'; threadId: number; result: InvokeResult };

export interface WorkerStartData {
  wasiHostModule: string | undefined;
}
