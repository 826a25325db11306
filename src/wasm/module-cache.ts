/**
 * Compiled core modules, once per process per (component version, memory cap). Each core module
 * is memory-capped before compiling; a preview1 tool's module also has its data segments merged
 * (preview1/merged-data.ts: fewer to copy per instance) and is rewritten to import its memory
 * (preview1/imported-memory.ts), so each call can be given a pristine one. A `WasmModule` can
 * be posted to workers, so the main thread compiles and workers only instantiate.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolHostError } from '../errors.ts';
import { DEFAULT_POLICY } from '../policy.ts';
import type { LoadedComponent } from './load.ts';
import { compileModule, type WasmModule } from './webassembly.ts';
import { capMemoryPages, pagesForBytes } from './memory-limit.ts';
import { importDefinedMemory } from './preview1/imported-memory.ts';
import { mergeDataSegments } from './preview1/merged-data.ts';
import { PREVIEW1_MODULE_FILE } from './transpile-cache.ts';

export type CoreModules = Readonly<Record<string, WasmModule>>;

const compiled = new Map<string, Promise<CoreModules>>();

/**
 * Whether preview1 modules are rewritten for many calls (merged data segments, an imported memory
 * kept between calls). Worth it when a module serves many calls; a process that makes one call
 * (`toolhost call`, createInProcessRuntime) turns it off: the rewrites read and copy the whole module
 * (tens of ms for a 10 MB Go binary) to save a few ms per call.
 */
let rewriteForManyCalls = true;

/** Process-wide: compile preview1 modules as they are (see rewriteForManyCalls). */
export function compileForOneCall(): void {
  rewriteForManyCalls = false;
}

/**
 * The cache key of a tool version compiled under a memory cap: its cache entry (the same file bytes
 * give different core modules when wrapped with the adapter) and the cap.
 */
export function compiledKey(component: Pick<LoadedComponent, 'sha256' | 'cacheEntry'>, memoryPages: number): string {
  return `${component.sha256}:${component.cacheEntry}:${memoryPages}`;
}

async function compileAll(component: LoadedComponent, memoryPages: number): Promise<CoreModules> {
  const modules: Record<string, WasmModule> = {};
  for (const name of component.coreModules) {
    const bytes = await readFile(join(component.cacheEntry, name));
    // Compiled only when these are the bytes the signed manifest records (transpile-cache.ts).
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== component.coreModuleSha256[name]) {
      throw new ToolHostError('WASM_LOAD_FAILED', `Cannot load wasm tool ${component.file}: the cached core module ${name} changed after it was cached; it was not compiled (clear the cache: toolhost cache clear)`);
    }
    let capped = capMemoryPages(bytes, memoryPages);
    if (rewriteForManyCalls && component.execution === 'preview1' && name === PREVIEW1_MODULE_FILE) {
      capped = mergeDataSegments(capped) ?? capped;
      capped = importDefinedMemory(capped)?.bytes ?? capped;
    }
    modules[name] = await compileModule(capped);
  }
  return modules;
}

/** Compiles (or returns the already compiled) core modules of `component` capped at `memoryPages`. */
export function compileCoreModules(component: LoadedComponent, memoryPages: number): Promise<CoreModules> {
  const key = compiledKey(component, memoryPages);
  let entry = compiled.get(key);
  if (entry === undefined) {
    entry = compileAll(component, memoryPages);
    compiled.set(key, entry);
    entry.catch(() => compiled.delete(key));
  }
  return entry;
}

/**
 * Compiles a component's core modules under the default memory cap ahead of its first call;
 * ToolHostError WASM_LOAD_FAILED when the engine refuses one. A load may do it (so such a file fails
 * to load) or a daemon after it is ready; a call compiles what it needs itself in any case.
 */
export async function prepareComponent(component: LoadedComponent): Promise<void> {
  try {
    await compileCoreModules(component, pagesForBytes(DEFAULT_POLICY.memory_mb * 1024 * 1024));
  } catch (error) {
    throw new ToolHostError('WASM_LOAD_FAILED', `Cannot load wasm tool ${component.file}: ${(error as Error).message}`, { cause: error });
  }
}
