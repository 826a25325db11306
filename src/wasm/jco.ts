/**
 * The slice of jco's programmatic API the runtime uses, loaded lazily (workers never need it) and
 * typed here because the package ships no declarations for its main entry.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface JcoTranspileOptions {
  name: string;
  instantiation: 'sync' | 'async';
  typescript: boolean;
  nodejsCompat: boolean;
  tlaCompat?: boolean;
  base64Cutoff?: number;
  validLiftingOptimization?: boolean;
}

export interface JcoTranspileResult {
  files: Record<string, Uint8Array>;
  imports: string[];
  exports: [string, string][];
}

export interface JcoApi {
  transpile(component: Uint8Array, options: JcoTranspileOptions): Promise<JcoTranspileResult>;
  componentNew(core: Uint8Array, adapters: [string, Uint8Array][]): Promise<Uint8Array>;
  preview1AdapterCommandPath(): string | URL;
  preview1AdapterReactorPath(): string | URL;
}

const JCO_PACKAGE = '@bytecodealliance/jco';
let api: Promise<JcoApi> | undefined;

export function loadJco(): Promise<JcoApi> {
  api ??= import(JCO_PACKAGE as string) as Promise<JcoApi>;
  return api;
}

let adapter: Promise<Uint8Array> | undefined;

/** The preview1 command adapter bytes shipped inside the jco package. */
export function preview1CommandAdapter(): Promise<Uint8Array> {
  adapter ??= loadJco().then((jco) => readFileSync(jco.preview1AdapterCommandPath()));
  return adapter;
}

let reactorAdapter: Promise<Uint8Array> | undefined;

/** The preview1 reactor adapter bytes (no `run` export): serves split-off duplicate imports. */
export function preview1ReactorAdapter(): Promise<Uint8Array> {
  reactorAdapter ??= loadJco().then((jco) => readFileSync(jco.preview1AdapterReactorPath()));
  return reactorAdapter;
}

let version: string | undefined;

/** The installed jco version (part of the transpile cache key). */
export function jcoVersion(): string {
  if (version === undefined) {
    const entry = fileURLToPath(import.meta.resolve(JCO_PACKAGE));
    let directory = dirname(entry);
    for (;;) {
      try {
        const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (manifest.name === JCO_PACKAGE && typeof manifest.version === 'string') {
          version = manifest.version;
          break;
        }
      } catch {
        // keep walking up
      }
      const parent = dirname(directory);
      if (parent === directory) throw new Error('cannot find the jco package.json');
      directory = parent;
    }
  }
  return version;
}
