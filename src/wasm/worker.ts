/**
 * A pool worker: keeps compiled modules and imported glue per component version, and runs each
 * call on a fresh WASI host and a fresh instance.
 */
import { threadId, workerData } from 'node:worker_threads';
import { importGlue, type GlueModule } from './glue.ts';
import { invokeComponent } from './invoke.ts';
import type { CoreModules } from './module-cache.ts';
import { loadWasiHostFactory, type CreateWasiHost } from './wasi-host-factory.ts';
import type { WorkerReply, WorkerStartData, WorkerTask } from './worker-protocol.ts';

interface Prepared {
  modules: CoreModules;
  glue: GlueModule;
}

const startData = (workerData ?? {}) as WorkerStartData;
const prepared = new Map<string, Prepared>();
let createHost: CreateWasiHost | undefined;

export default async function runTask(task: WorkerTask): Promise<WorkerReply> {
  let entry = prepared.get(task.key);
  if (entry === undefined) {
    if (task.modules === undefined) return { kind: 'missing-modules', threadId };
    entry = { modules: task.modules, glue: await importGlue(task.gluePath) };
    prepared.set(task.key, entry);
  }
  createHost ??= await loadWasiHostFactory(startData.wasiHostModule);
  return { kind: 'done', threadId, result: invokeComponent(entry.glue, entry.modules, createHost, task.host) };
}
