/**
 * The jco `--instantiation sync` glue of a component, imported once per thread per version.
 */
import { pathToFileURL } from 'node:url';
import type { WasmModule } from './webassembly.ts';

export interface ComponentInstance {
  run: { run(): void };
}

export interface GlueModule {
  instantiate(
    getCoreModule: (name: string) => WasmModule,
    imports: Record<string, unknown>,
    instantiateCore?: (module: WasmModule, importObject?: unknown) => { exports: Record<string, unknown> },
  ): ComponentInstance;
}

const glues = new Map<string, Promise<GlueModule>>();

export function importGlue(gluePath: string): Promise<GlueModule> {
  let entry = glues.get(gluePath);
  if (entry === undefined) {
    entry = import(pathToFileURL(gluePath).href) as Promise<GlueModule>;
    glues.set(gluePath, entry);
    entry.catch(() => glues.delete(gluePath));
  }
  return entry;
}
