/**
 * The on-disk cache of jco transpile output, one directory per (component bytes, jco version,
 * transpile options). Entries are written to a temporary directory and renamed into place, so a
 * reader sees a whole entry or none, and a restart never transpiles the same bytes again.
 *
 * Integrity: the daemon imports the cached glue and compiles the cached core modules, so a changed
 * entry would be code run inside the daemon. Each manifest records the sha256 of every file and is
 * signed (HMAC-SHA256) with a key kept in the cache folder (`integrity.key`, mode 0600; commands the
 * host runs never see the folder, see src/command-sandbox.ts). An entry whose signature does not
 * verify is a cache miss with a warning (`TOOLHOST_CACHE_TAMPERED`), removed and transpiled again;
 * the files' hashes are checked again right before the bytes are imported or compiled (glue.ts,
 * module-cache.ts), so a file swapped after the manifest was read is refused, never run.
 *
 * A wasip1 core module runs on toolhost's own preview1 host (src/wasm/preview1/): its entry holds the
 * module alone (`execution: 'preview1'`, no glue), signed the same way. An entry for a core module
 * without `execution` was written by a version that wrapped it with the preview1 adapter: it counts
 * as an old format and is replaced.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jcoVersion, type JcoTranspileOptions } from './jco.ts';
import { isReadOnlyError } from './cache-fallback.ts';
import { GLUE_PATCH_VERSION, patchGlue } from './glue-patches.ts';

export type ComponentSourceKind = 'component' | 'wasip1-core-module';

/**
 * How an entry runs: `component` through jco's glue and the WASI 0.2 host; `preview1` as one core
 * instance on the preview1 host. `preview1-adapter` is a core module wrapped with the preview1
 * command adapter into a component (only when a load asks for it, see LoadOptions.preview1Adapter).
 */
export type EntryExecution = 'component' | 'preview1';
export type EntryVariant = 'default' | 'preview1-adapter';

/** File name of the module in a `preview1` entry. */
export const PREVIEW1_MODULE_FILE = 'module.wasm';

/** What a cache entry records besides the files themselves. */
export interface TranspileManifest {
  format: 2;
  sha256: string;
  sourceKind: ComponentSourceKind;
  /** Absent in entries written before the preview1 host (all ran through jco's glue). */
  execution?: EntryExecution;
  jcoVersion: string;
  /** Unversioned interface names the component imports, e.g. `wasi:cli/stdout`. */
  imports: string[];
  /** Exported names with their kinds, as jco reports them. */
  exports: [string, string][];
  /** File name of the ES module glue inside the entry directory ('' for a `preview1` entry). */
  glue: string;
  /** File names of the core modules, in the glue's naming. */
  coreModules: string[];
  /** sha256 (hex) of every file of the entry (the glue and the core modules), by name. */
  files: Record<string, string>;
}

/** The manifest as stored: signed with the cache's integrity key. */
interface SignedManifest extends TranspileManifest {
  /** HMAC-SHA256 (hex) of the manifest without this field, in key order as written. */
  mac: string;
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
const KEY_FILE = 'integrity.key';

const keys = new Map<string, Promise<Buffer>>();

async function readOrCreateKey(cacheDirectory: string): Promise<Buffer> {
  const file = join(cacheDirectory, KEY_FILE);
  try {
    const key = await readFile(file);
    if (key.length >= 32) return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(cacheDirectory, { recursive: true });
  const key = randomBytes(32);
  try {
    const handle = await open(file, 'wx', 0o600);
    try {
      await handle.writeFile(key);
    } finally {
      await handle.close();
    }
    return key;
  } catch (error) {
    // Another process made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFile(file);
    throw error;
  }
}

/** The cache's integrity key (made on first use, 32 random bytes, mode 0600), once per process per folder. */
function integrityKey(cacheDirectory: string): Promise<Buffer> {
  let entry = keys.get(cacheDirectory);
  if (entry === undefined) {
    entry = readOrCreateKey(cacheDirectory);
    keys.set(cacheDirectory, entry);
    entry.catch(() => keys.delete(cacheDirectory));
  }
  return entry;
}

function macOf(key: Buffer, manifest: TranspileManifest): string {
  return createHmac('sha256', key).update(JSON.stringify(manifest)).digest('hex');
}

function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export { CACHE_FOLDER_NAME, defaultCacheDirectory, userCacheDirectory } from '../cache-directory.ts';

let optionsKey: string | undefined;

let adapterOptionsKey: string | undefined;

/**
 * A short digest of everything besides the component bytes that shapes transpile output (computed
 * once). The `preview1-adapter` variant has a key of its own, so its entries never meet the default ones.
 */
export function transpileOptionsKey(variant: EntryVariant = 'default'): string {
  if (variant === 'preview1-adapter') {
    adapterOptionsKey ??= createHash('sha256')
      .update(JSON.stringify({ jco: jcoVersion(), options: TRANSPILE_OPTIONS, patches: GLUE_PATCH_VERSION, variant }))
      .digest('hex')
      .slice(0, 16);
    return adapterOptionsKey;
  }
  // `unwrap`: since adapter-wrapped commands run on the preview1 host, a component's default entry may be a core module.
  optionsKey ??= createHash('sha256')
    .update(JSON.stringify({ jco: jcoVersion(), options: TRANSPILE_OPTIONS, patches: GLUE_PATCH_VERSION, unwrap: 1 }))
    .digest('hex')
    .slice(0, 16);
  return optionsKey;
}

export function cacheEntryDirectory(cacheDirectory: string, sha256: string, variant: EntryVariant = 'default'): string {
  return join(cacheDirectory, `${sha256}-${transpileOptionsKey(variant)}`);
}

/** How an entry runs; an entry from before the preview1 host ran everything through the glue. */
export function executionOf(manifest: TranspileManifest): EntryExecution {
  return manifest.execution ?? 'component';
}

/** Why an entry was not used; `tampered` is warned about. */
type EntryCheck = { ok: true; manifest: TranspileManifest } | { ok: false; problem: 'absent' | 'old-format' | 'tampered' };

async function checkEntry(cacheDirectory: string, directory: string, sha256: string, variant: EntryVariant): Promise<EntryCheck> {
  let stored: SignedManifest;
  try {
    stored = JSON.parse(await readFile(join(directory, MANIFEST_FILE), 'utf8')) as SignedManifest;
  } catch (error) {
    return { ok: false, problem: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : 'tampered' };
  }
  if (typeof stored !== 'object' || stored === null) return { ok: false, problem: 'tampered' };
  if (stored.format !== 2) return { ok: false, problem: 'old-format' };
  const { mac, ...manifest } = stored;
  const expected = Buffer.from(macOf(await integrityKey(cacheDirectory), manifest), 'hex');
  const presented = Buffer.from(typeof mac === 'string' ? mac : '', 'hex');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return { ok: false, problem: 'tampered' };
  if (manifest.sha256 !== sha256) return { ok: false, problem: 'tampered' };
  // A core module wrapped with the adapter by an earlier version: replaced by a preview1 entry.
  if (variant === 'default' && manifest.sourceKind === 'wasip1-core-module' && manifest.execution !== 'preview1') return { ok: false, problem: 'old-format' };
  // Every file as signed: an entry edited on disk is never used, whatever its manifest says.
  for (const [name, digest] of Object.entries(manifest.files ?? {})) {
    const bytes = await readFile(join(directory, name)).catch(() => undefined);
    if (bytes === undefined || sha256Of(bytes) !== digest) return { ok: false, problem: 'tampered' };
  }
  const glueMissing = executionOf(manifest) === 'component' && manifest.files?.[manifest.glue] === undefined;
  if (glueMissing || manifest.coreModules.length === 0 || manifest.coreModules.some((name) => manifest.files[name] === undefined)) return { ok: false, problem: 'tampered' };
  return { ok: true, manifest };
}

/**
 * Reads the entry for `sha256`, or undefined when it is absent, from an older format, or does not
 * verify (then it is removed, with a process warning, so the caller transpiles it again).
 */
export async function readCachedTranspile(cacheDirectory: string, sha256: string, variant: EntryVariant = 'default'): Promise<CachedTranspile | undefined> {
  const directory = cacheEntryDirectory(cacheDirectory, sha256, variant);
  let checked: EntryCheck;
  try {
    checked = await checkEntry(cacheDirectory, directory, sha256, variant);
  } catch (error) {
    // A read-only folder without an integrity key holds no entry that can be verified: a miss (src/wasm/cache-fallback.ts).
    if (isReadOnlyError(error)) return undefined;
    throw error;
  }
  if (checked.ok) return { directory, manifest: checked.manifest };
  if (checked.problem === 'tampered') {
    process.emitWarning(`toolhost: the transpile cache entry ${directory} does not match its signature; it was not used and is transpiled again`, {
      code: 'TOOLHOST_CACHE_TAMPERED',
    });
  }
  // In a read-only cache the bad entry stays (unused); the caller transpiles into a writable folder.
  if (checked.problem !== 'absent') await rm(directory, { recursive: true, force: true }).catch((error: unknown) => (isReadOnlyError(error) ? undefined : Promise.reject(error)));
  return undefined;
}

export interface TranspileOutput {
  files: Record<string, Uint8Array>;
  imports: string[];
  exports: [string, string][];
}

/** Writes an entry atomically (its files, then the signed manifest); when another writer got there first, its entry is kept. */
async function writeEntry(
  cacheDirectory: string,
  sha256: string,
  variant: EntryVariant,
  files: Record<string, Uint8Array>,
  fields: Omit<TranspileManifest, 'format' | 'sha256' | 'jcoVersion' | 'files'>,
): Promise<CachedTranspile> {
  const directory = cacheEntryDirectory(cacheDirectory, sha256, variant);
  const temporary = join(cacheDirectory, `.tmp-${sha256.slice(0, 16)}-${randomBytes(6).toString('hex')}`);
  await mkdir(temporary, { recursive: true });
  const digests: Record<string, string> = {};
  for (const [name, bytes] of Object.entries(files)) {
    digests[name] = sha256Of(bytes);
    await writeFile(join(temporary, name), bytes);
  }
  const manifest: TranspileManifest = { format: 2, sha256, ...fields, jcoVersion: jcoVersion(), files: digests };
  const signed: SignedManifest = { ...manifest, mac: macOf(await integrityKey(cacheDirectory), manifest) };
  await writeFile(join(temporary, MANIFEST_FILE), JSON.stringify(signed, null, 2));
  try {
    await rename(temporary, directory);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    const existing = await readCachedTranspile(cacheDirectory, sha256, variant);
    if (existing === undefined) throw error;
    return existing;
  }
  return { directory, manifest };
}

/** Writes the entry of jco's transpile output (a component, or a core module wrapped with the adapter). */
export async function writeCachedTranspile(
  cacheDirectory: string,
  sha256: string,
  sourceKind: ComponentSourceKind,
  output: TranspileOutput,
  variant: EntryVariant = 'default',
): Promise<CachedTranspile> {
  const files: Record<string, Uint8Array> = {};
  const coreModules: string[] = [];
  let glueSource: Uint8Array | undefined;
  for (const [name, bytes] of Object.entries(output.files)) {
    if (name.endsWith('.wasm')) {
      coreModules.push(name);
      files[name] = bytes;
    } else if (name === `${TRANSPILE_OPTIONS.name}.js`) {
      glueSource = bytes;
    }
  }
  if (glueSource === undefined) throw new Error(`jco produced no ${TRANSPILE_OPTIONS.name}.js`);
  files[GLUE_FILE] = new TextEncoder().encode(patchGlue(new TextDecoder().decode(glueSource)));
  return writeEntry(cacheDirectory, sha256, variant, files, {
    sourceKind,
    execution: 'component',
    imports: [...output.imports],
    exports: output.exports.map(([name, kind]) => [name, kind]),
    glue: GLUE_FILE,
    coreModules: coreModules.sort(),
  });
}

/**
 * Writes the entry of a wasip1 core module run on the preview1 host: the module's bytes as they are
 * (capped per call when compiled), and `imports`, the WASI 0.2 interfaces its preview1 imports stand for.
 */
export function writeCachedPreview1Module(cacheDirectory: string, sha256: string, bytes: Uint8Array, imports: readonly string[]): Promise<CachedTranspile> {
  return writeEntry(cacheDirectory, sha256, 'default', { [PREVIEW1_MODULE_FILE]: bytes }, {
    sourceKind: 'wasip1-core-module',
    execution: 'preview1',
    imports: [...imports],
    exports: [['_start', 'func']],
    glue: '',
    coreModules: [PREVIEW1_MODULE_FILE],
  });
}
