/**
 * The on-disk cache of jco transpile output, one directory per (component bytes, jco version,
 * transpile options). Entries are written to a temporary directory and renamed into place, so a
 * reader sees a whole entry or none, and a restart never transpiles the same bytes again.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jcoVersion, type JcoTranspileOptions } from './jco.ts';
import { GLUE_PATCH_VERSION, patchGlue } from './glue-patches.ts';

export type ComponentSourceKind = 'component' | 'wasip1-core-module';

/** What a cache entry records besides the files themselves. */
export interface TranspileManifest {
  format: 1;
  sha256: string;
  sourceKind: ComponentSourceKind;
  jcoVersion: string;
  /** Unversioned interface names the component imports, e.g. `wasi:cli/stdout`. */
  imports: string[];
  /** Exported names with their kinds, as jco reports them. */
  exports: [string, string][];
  /** File name of the ES module glue inside the entry directory. */
  glue: string;
  /** File names of the core modules, in the glue's naming. */
  coreModules: string[];
}

export interface CachedTranspile {
  directory: string;
  manifest: TranspileManifest;
}

/**
 * The options every transpile uses, frozen: jco's `transpile` writes defaults into the object it is
 * given (e.g. `wasiShim: false`), and these options are part of the cache key, so a shared object it
 * mutated would give the first load of every process a different key from the next ones (and make
 * `cache info` call fresh entries stale). Hand jco `transpileOptions()`, a fresh copy, instead.
 */
export const TRANSPILE_OPTIONS: Readonly<JcoTranspileOptions> = Object.freeze({
  name: 'tool',
  instantiation: 'sync',
  typescript: false,
  nodejsCompat: false,
  tlaCompat: false,
  // 0: every core module is a separate file, so the runtime can cap and compile each one itself.
  base64Cutoff: 0,
  validLiftingOptimization: false,
});

/** A copy of TRANSPILE_OPTIONS that jco may write into. */
export function transpileOptions(): JcoTranspileOptions {
  return { ...TRANSPILE_OPTIONS };
}

const GLUE_FILE = 'tool.mjs';
const MANIFEST_FILE = 'manifest.json';

export { CACHE_FOLDER_NAME, defaultCacheDirectory, userCacheDirectory } from '../cache-directory.ts';

let optionsKey: string | undefined;

/** A short digest of everything besides the component bytes that shapes transpile output (computed once). */
export function transpileOptionsKey(): string {
  optionsKey ??= createHash('sha256')
    .update(JSON.stringify({ jco: jcoVersion(), options: TRANSPILE_OPTIONS, patches: GLUE_PATCH_VERSION }))
    .digest('hex')
    .slice(0, 16);
  return optionsKey;
}

export function cacheEntryDirectory(cacheDirectory: string, sha256: string): string {
  return join(cacheDirectory, `${sha256}-${transpileOptionsKey()}`);
}

/** Reads the entry for `sha256`, or undefined when it is absent or unreadable. */
export async function readCachedTranspile(cacheDirectory: string, sha256: string): Promise<CachedTranspile | undefined> {
  const directory = cacheEntryDirectory(cacheDirectory, sha256);
  try {
    const manifest = JSON.parse(await readFile(join(directory, MANIFEST_FILE), 'utf8')) as TranspileManifest;
    if (manifest.format !== 1 || manifest.sha256 !== sha256) return undefined;
    return { directory, manifest };
  } catch {
    return undefined;
  }
}

export interface TranspileOutput {
  files: Record<string, Uint8Array>;
  imports: string[];
  exports: [string, string][];
}

/** Writes an entry atomically; when another writer got there first, its entry is kept. */
export async function writeCachedTranspile(
  cacheDirectory: string,
  sha256: string,
  sourceKind: ComponentSourceKind,
  output: TranspileOutput,
): Promise<CachedTranspile> {
  const directory = cacheEntryDirectory(cacheDirectory, sha256);
  const temporary = join(cacheDirectory, `.tmp-${sha256.slice(0, 16)}-${randomBytes(6).toString('hex')}`);
  await mkdir(temporary, { recursive: true });
  const coreModules: string[] = [];
  let glueSource: Uint8Array | undefined;
  for (const [name, bytes] of Object.entries(output.files)) {
    if (name.endsWith('.wasm')) {
      coreModules.push(name);
      await writeFile(join(temporary, name), bytes);
    } else if (name === `${TRANSPILE_OPTIONS.name}.js`) {
      glueSource = bytes;
    }
  }
  if (glueSource === undefined) throw new Error(`jco produced no ${TRANSPILE_OPTIONS.name}.js`);
  await writeFile(join(temporary, GLUE_FILE), patchGlue(new TextDecoder().decode(glueSource)));
  const manifest: TranspileManifest = {
    format: 1,
    sha256,
    sourceKind,
    jcoVersion: jcoVersion(),
    imports: [...output.imports],
    exports: output.exports.map(([name, kind]) => [name, kind]),
    glue: GLUE_FILE,
    coreModules: coreModules.sort(),
  };
  await writeFile(join(temporary, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
  try {
    await rename(temporary, directory);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    const existing = await readCachedTranspile(cacheDirectory, sha256);
    if (existing === undefined) throw error;
    return existing;
  }
  return { directory, manifest };
}
