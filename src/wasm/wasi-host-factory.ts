/**
 * Where the per-call WASI host comes from: a module exporting `createWasiHost` (src/wasm/wasi/ by
 * default). Loaded by URL so a worker can import it by itself.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import type { WasiHost, WasiHostOptions } from './wasi/types.ts';

export type CreateWasiHost = (options: WasiHostOptions) => WasiHost;

/** The sources run `.ts` modules through tsx; the build (dist/) has `.js` ones, and tsc rewrites only import specifiers. */
export const DEFAULT_WASI_HOST_MODULE = new URL(import.meta.url.endsWith('.ts') ? './wasi/index.ts' : './wasi/index.js', import.meta.url).href;

const factories = new Map<string, Promise<CreateWasiHost>>();

/**
 * Imports a module by URL. In a worker running TypeScript sources, tsx hooks only `require` (its ESM
 * hooks do not reach worker threads on Node 20), so `.ts` modules are required there; Node 20.19+
 * can require the ES modules they depend on.
 */
function importModule(moduleUrl: string): Promise<unknown> {
  if (!isMainThread && moduleUrl.endsWith('.ts')) {
    return Promise.resolve().then(() => createRequire(import.meta.url)(fileURLToPath(moduleUrl)) as unknown);
  }
  return import(moduleUrl);
}

export function loadWasiHostFactory(moduleUrl: string = DEFAULT_WASI_HOST_MODULE): Promise<CreateWasiHost> {
  let entry = factories.get(moduleUrl);
  if (entry === undefined) {
    entry = (importModule(moduleUrl) as Promise<{ createWasiHost?: unknown }>).then((module) => {
      if (typeof module.createWasiHost !== 'function') throw new Error(`${moduleUrl} does not export createWasiHost`);
      return module.createWasiHost as CreateWasiHost;
    });
    factories.set(moduleUrl, entry);
    entry.catch(() => factories.delete(moduleUrl));
  }
  return entry;
}
