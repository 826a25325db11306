/**
 * The jco `--instantiation sync` glue of a component, imported once per thread per version.
 *
 * The glue is read, checked against the sha256 its cache entry's signed manifest records
 * (transpile-cache.ts), and imported from those very bytes (a `data:` URL; the glue imports
 * nothing), so a file changed on disk after the check is never the one that runs.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
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

async function importVerified(gluePath: string, sha256: string): Promise<GlueModule> {
  const bytes = await readFile(gluePath);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== sha256) throw new Error(`the glue ${gluePath} changed after it was cached (sha256 ${actual}, expected ${sha256}); it was not run`);
  return (await import(`data:text/javascript;base64,${bytes.toString('base64')}`)) as GlueModule;
}

/** The glue at `gluePath`, imported once per (path, sha256) in this thread, only if its bytes have that sha256. */
export function importGlue(gluePath: string, sha256: string): Promise<GlueModule> {
  const key = `${gluePath}\0${sha256}`;
  let entry = glues.get(key);
  if (entry === undefined) {
    entry = importVerified(gluePath, sha256);
    glues.set(key, entry);
    entry.catch(() => glues.delete(key));
  }
  return entry;
}
