/**
 * Pristine memories for the preview1 path: a module rewritten to import its memory
 * (imported-memory.ts) gets, for each call, a memory no earlier call can be seen in. The first is made
 * with the module's own limits; after a call, a memory that is still exactly its initial size is
 * zero-filled and kept for the next call of the same module on this thread, so it is then what a
 * new memory is — the minimum size, all zeros, the instance writing its data segments at
 * instantiation. A memory the call grew is dropped (a memory cannot shrink), as is any memory past
 * POOLED_MEMORY_MAX_PAGES (zero-filling it would cost more than a new one).
 *
 * Why: every `WebAssembly.Memory` reserves its own guarded address range, and V8 collects garbage
 * for external memory pressure every few hundred instances to give those back; a kept memory makes
 * no reservation and no garbage. One memory at most is kept per module per thread, held through the
 * module (freed with it). Calls are synchronous (`_start` runs to its end before the next call on
 * the thread), so a memory is never held by two calls; a call that never gives its memory back (the
 * thread's JavaScript terminated mid-call) only costs the next call a new one.
 */
import type { WasmModule } from '../webassembly.ts';
import { parsePristineMemoryName, PRISTINE_MEMORY_MODULE } from './imported-memory.ts';

/** Memories up to this many pages (1 MiB) are zero-filled and kept; larger ones are made anew. */
export const POOLED_MEMORY_MAX_PAGES = 16;

const PAGE_BYTES = 65536;

interface WebAssemblyMemoryApi {
  Module: { imports(module: WasmModule): { module: string; name: string; kind: string }[] };
  Memory: new (descriptor: { initial: number; maximum: number }) => PristineMemory;
}

export interface PristineMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyMemoryApi }).WebAssembly;

interface ModuleMemory {
  /** The import name the module asks for its memory by, undefined when it defines its own. */
  readonly name: string | undefined;
  readonly minimumPages: number;
  readonly maximumPages: number;
  kept: PristineMemory | undefined;
}

const byModule = new WeakMap<WasmModule, ModuleMemory>();

function describe(module: WasmModule): ModuleMemory {
  let entry = byModule.get(module);
  if (entry === undefined) {
    const memoryImport = webAssembly.Module.imports(module).find((item) => item.module === PRISTINE_MEMORY_MODULE && item.kind === 'memory');
    const limits = memoryImport === undefined ? undefined : parsePristineMemoryName(memoryImport.name);
    entry =
      memoryImport === undefined || limits === undefined
        ? { name: undefined, minimumPages: 0, maximumPages: 0, kept: undefined }
        : { name: memoryImport.name, ...limits, kept: undefined };
    byModule.set(module, entry);
  }
  return entry;
}

export interface PristineMemoryLease {
  /** The import object entry to instantiate the module with (`{"toolhost:pristine": {name: memory}}`). */
  readonly imports: Record<string, Record<string, PristineMemory>>;
  readonly memory: PristineMemory;
  /** Hands the memory back after the call: zero-filled and kept when it can be, dropped otherwise. Once. */
  release(): void;
}

/** A pristine memory for one call of `module`, or undefined when the module defines its own memory. */
export function leasePristineMemory(module: WasmModule): PristineMemoryLease | undefined {
  const entry = describe(module);
  if (entry.name === undefined) return undefined;
  const memory = entry.kept ?? new webAssembly.Memory({ initial: entry.minimumPages, maximum: entry.maximumPages });
  entry.kept = undefined;
  let released = false;
  return {
    imports: { [PRISTINE_MEMORY_MODULE]: { [entry.name]: memory } },
    memory,
    release() {
      if (released) return;
      released = true;
      if (entry.minimumPages > POOLED_MEMORY_MAX_PAGES || memory.buffer.byteLength !== entry.minimumPages * PAGE_BYTES) return;
      new Uint8Array(memory.buffer).fill(0);
      entry.kept = memory;
    },
  };
}
