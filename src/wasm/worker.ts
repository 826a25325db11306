/**
 * A pool worker: keeps compiled modules and imported glue per component version, and runs each
 * call on a fresh WASI host and a fresh instance (a wasip1 core module: one instance on a fresh
 * preview1 host, no glue).
 */
import { threadId, workerData } from 'node:worker_threads';
import { importGlue, type GlueModule } from './glue.ts';
import { invokeComponent } from './invoke.ts';
import type { CoreModules } from './module-cache.ts';
import { runPreview1Module } from './preview1/run.ts';
import type { EntryExecution } from './transpile-cache.ts';
import { loadWasiHostFactory, type CreateWasiHost } from './wasi-host-factory.ts';
import { StderrEventTap } from './stderr-events.ts';
import type { WasiHostOptions } from './wasi/types.ts';
import type { TaskEvents, WorkerReply, WorkerStartData, WorkerTask, WorkerWarmTask } from './worker-protocol.ts';

interface Prepared {
  modules: CoreModules;
  /** Absent for a `preview1` tool. */
  glue: GlueModule | undefined;
}

function prepare(execution: EntryExecution, modules: CoreModules, gluePath: string, glueSha256: string): Promise<Prepared> | Prepared {
  if (execution === 'preview1') return { modules, glue: undefined };
  return importGlue(gluePath, glueSha256).then((glue) => ({ modules, glue }));
}

const startData = (workerData ?? {}) as WorkerStartData;
const prepared = new Map<string, Prepared>();
let createHost: CreateWasiHost | undefined;

async function warm(task: WorkerWarmTask): Promise<WorkerReply> {
  createHost ??= await loadWasiHostFactory(startData.wasiHostModule);
  for (const tool of task.tools) {
    if (!prepared.has(tool.key)) prepared.set(tool.key, await prepare(tool.execution, tool.modules, tool.gluePath, tool.glueSha256));
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

/** The tap streaming a call's stderr to its event port, for a call someone listens to (the pool closes the port after `end`). */
function eventTap(events: TaskEvents): StderrEventTap {
  const { port } = events;
  return new StderrEventTap({ post: (message) => port.postMessage(message), lines: events.lines, progress: events.progress });
}

export default async function runTask(task: WorkerTask | WorkerWarmTask): Promise<WorkerReply> {
  if (task.kind === 'warm') return warm(task);
  let entry = prepared.get(task.key);
  if (entry === undefined) {
    if (task.modules === undefined) return { kind: 'missing-modules', threadId };
    entry = await prepare(task.execution, task.modules, task.gluePath, task.glueSha256);
    prepared.set(task.key, entry);
  }
  if (entry.glue !== undefined) createHost ??= await loadWasiHostFactory(startData.wasiHostModule);
  // Nothing more for a call nobody listens to; else the guest's stderr writes also go through the tap.
  const tap = task.events === undefined ? undefined : eventTap(task.events);
  const host: WasiHostOptions = tap === undefined ? task.host : { ...task.host, onStderr: tap.write };
  try {
    const result = entry.glue === undefined ? runPreview1Module(entry.modules, host) : invokeComponent(entry.glue, entry.modules, createHost as CreateWasiHost, host);
    return { kind: 'done', threadId, result };
  } finally {
    tap?.end();
  }
}
