/**
 * Compiled core modules, once per process per (component version, memory cap). Each core module
 * is memory-capped before compiling. A `WasmModule` can be posted to workers, so the main
 * thread compiles and workers only instantiate.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadedComponent } from './load.ts';
import { compileModule, type WasmModule } from './webassembly.ts';
import { capMemoryPages } from './memory-limit.ts';

export type CoreModules = Readonly<Record<string, WasmModule>>;

const compiled = new Map<string, Promise<CoreModules>>();

/** The cache key of a component version compiled under a memory cap. */
export function compiledKey(sha256: string, memoryPages: number): string {
  return `${sha256}:${memoryPages}`;
}

async function compileAll(component: LoadedComponent, memoryPages: number): Promise<CoreModules> {
  const modules: Record<string, WasmModule> = {};
  for (const name of component.coreModules) {
    const bytes = await readFile(join(component.cacheEntry, name));
    modules[name] = await compileModule(capMemoryPages(bytes, memoryPages));
  }
  return modules;
}

/** Compiles (or returns the already compiled) core modules of `component` capped at `memoryPages`. */
export function compileCoreModules(component: LoadedComponent, memoryPages: number): Promise<CoreModules> {
  const key = compiledKey(component.sha256, memoryPages);
  let entry = compiled.get(key);
  if (entry === undefined) {
    entry = compileAll(component, memoryPages);
    compiled.set(key, entry);
    entry.catch(() => compiled.delete(key));
  }
  return entry;
}
