/**
 * A pool worker: keeps compiled modules and imported glue per component version, and runs each
 * call on a fresh WASI host and a fresh instance.
 */
import { threadId, workerData } from 'node:worker_threads';
import { importGlue, type GlueModule } from './glue.ts';
import { invokeComponent } from './invoke.ts';
import type { CoreModules } from './module-cache.ts';
import { loadWasiHostFactory, type CreateWasiHost } from './wasi-host-factory.ts';
import type { WorkerReply, WorkerStartData, WorkerTask, WorkerWarmTask } from './worker-protocol.ts';

interface Prepared {
  modules: CoreModules;
  glue: GlueModule;
}

const startData = (workerData ?? {}) as WorkerStartData;
const prepared = new Map<string, Prepared>();
let createHost: CreateWasiHost | undefined;

async function warm(task: WorkerWarmTask): Promise<WorkerReply> {
  createHost ??= await loadWasiHostFactory(startData.wasiHostModule);
  for (const tool of task.tools) {
    if (!prepared.has(tool.key)) prepared.set(tool.key, { modules: tool.modules, glue: await importGlue(tool.gluePath, tool.glueSha256) });
  }
  const arrived = new Int32Array(task.barrier);
  Atomics.add(arrived, 0, 1);
  Atomics.notify(arrived, 0);
  for (let seen = Atomics.load(arrived, 0); seen < task.parties; seen = Atomics.load(arrived, 0)) {
    const left = task.deadline - Date.now();
    if (left <= 0) break;
    Atomics.wait(arrived, 0, seen, left);
  }
  return { kind: 'warmed', threadId };
}

export default async function runTask(task: WorkerTask | WorkerWarmTask): Promise<WorkerReply> {
  if (task.kind === 'warm') return warm(task);
  let entry = prepared.get(task.key);
  if (entry === undefined) {
    if (task.modules === undefined) return { kind: 'missing-modules', threadId };
    entry = { modules: task.modules, glue: await importGlue(task.gluePath, task.glueSha256) };
    prepared.set(task.key, entry);
  }
  createHost ??= await loadWasiHostFactory(startData.wasiHostModule);
  return { kind: 'done', threadId, result: invokeComponent(entry.glue, entry.modules, createHost, task.host) };
}
