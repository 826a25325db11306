/**
 * Loading a tool's .wasm: classify it; a component is transpiled with jco once per version (sha256 of
 * the file bytes) into the on-disk cache and checked to export `wasi:cli/run` and import only `wasi:*`
 * interfaces; a wasip1 core module is cached as it is, to run on toolhost's preview1 host
 * (src/wasm/preview1/), once its imports are checked against the functions that host provides.
 * A component that is only such a module wrapped with the preview1 command adapter (what `jco new
 * --wasi-command` makes) runs as that inner module too (adapter-unwrap.ts). Wrapping a core module with the
 * adapter instead is kept for comparisons and tests (`preview1Adapter`).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { debuglog } from 'node:util';
import { ToolHostError } from '../errors.ts';
import { writableCacheDirectory } from './cache-fallback.ts';
import { classifyBinary, exportsCliRun, unsupportedImports } from './component-kind.ts';
import { readComponentImportNames, unversionedName } from './component-imports.ts';
import { readCoreModuleInterface, WASIP1_MODULE } from './core-module.ts';
import { splitDuplicateImports } from './duplicate-imports.ts';
import { needsMemoryRouting, routeGuestMemory } from './guest-memory.ts';
import { innerPreview1Command } from './adapter-unwrap.ts';
import { loadJco, preview1CommandAdapter, preview1ReactorAdapter } from './jco.ts';
import { PREVIEW1_FUNCTIONS } from './preview1/host.ts';
import { interfacesOfPreview1Imports } from './preview1/interfaces.ts';
import {
  defaultCacheDirectory,
  executionOf,
  readCachedTranspile,
  transpileOptions,
  writeCachedPreview1Module,
  writeCachedTranspile,
  type CachedTranspile,
  type ComponentSourceKind,
  type EntryExecution,
  type EntryVariant,
} from './transpile-cache.ts';

/** A loaded tool: plain data, cheap to post to workers. */
export interface LoadedComponent {
  /** Absolute path of the .wasm file. */
  readonly file: string;
  /** sha256 (hex) of the file bytes: identifies this version of the tool. */
  readonly sha256: string;
  readonly sourceKind: ComponentSourceKind;
  /**
   * How calls run: `component` through jco's glue on the WASI 0.2 host; `preview1` as one instance of
   * the wasip1 core module on the preview1 host (then `gluePath` and `glueSha256` are '').
   */
  readonly execution: EntryExecution;
  /** Unversioned interfaces the component imports, e.g. `wasi:cli/stdout` (for `inspect`). */
  readonly imports: readonly string[];
  /** Directory of the transpile cache entry holding the glue and core modules. */
  readonly cacheEntry: string;
  /** Absolute path of the jco glue ES module. */
  readonly gluePath: string;
  /** sha256 (hex) the glue's bytes must have (from the cache entry's signed manifest; checked at import). */
  readonly glueSha256: string;
  /** Core module file names inside `cacheEntry`, in the glue's naming. */
  readonly coreModules: readonly string[];
  /** sha256 (hex) of each core module's bytes (checked before compiling). */
  readonly coreModuleSha256: Readonly<Record<string, string>>;
  /** True when this load ran jco (cache miss); false when the disk cache had the entry. */
  readonly transpiled: boolean;
}

export interface LoadOptions {
  /** Transpile cache directory; default `$TOOLHOST_CACHE_DIR`, else `$XDG_CACHE_HOME/toolhost` or `~/.cache/toolhost`. */
  cacheDirectory?: string;
  /**
   * On a cache miss, transpile on a worker thread (transpile-thread.ts) so this thread's event loop
   * keeps running (a daemon answering requests while it loads); default false: on this thread, which
   * a one-shot command that waits for the load anyway prefers (no thread to start).
   */
  transpileOnThread?: boolean;
  /**
   * Wrap a wasip1 core module with the preview1 command adapter into a component, and keep an adapter-wrapped
   * component a component, as toolhost did before its preview1 host (for comparisons and tests; its cache
   * entries have a key of their own).
   */
  preview1Adapter?: boolean;
}

function loadError(file: string, reason: string, cause?: unknown): ToolHostError {
  return new ToolHostError('WASM_LOAD_FAILED', `Cannot load wasm tool ${file}: ${reason}`, cause === undefined ? undefined : { cause });
}

/**
 * `NODE_DEBUG=toolhost` prints one line per load: a transpile cache hit, or a miss and how long jco
 * took. Cheap when off; it is how one tells from outside whether a process re-transpiled.
 */
const debug = debuglog('toolhost');

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Digests of files this process hashed, with the stat signature they were taken under. */
const fileDigests = new Map<string, { signature: string; sha256: string }>();

function statSignatureOf(path: string): Promise<string> {
  return stat(path).then((stats) => `${stats.size}:${stats.mtimeMs}:${stats.ino}:${stats.ctimeMs}`);
}

/**
 * sha256 (hex) of a file's bytes, hashed once per process while its size, times and inode stay the
 * same: a host start asks for it twice per tool (the version probe, then the load), and a Go
 * component is tens of MB. `bytes` are returned when this call read them.
 */
export async function fileSha256(path: string): Promise<{ sha256: string; bytes?: Uint8Array }> {
  const signature = await statSignatureOf(path);
  const known = fileDigests.get(path);
  if (known !== undefined && known.signature === signature) return { sha256: known.sha256 };
  const bytes = await readFile(path);
  const sha256 = sha256Hex(bytes);
  // Signed with the stat taken before reading: a write during the read shows as a new signature next time.
  fileDigests.set(path, { signature, sha256 });
  return { sha256, bytes };
}

/**
 * The module with the adapters' pages kept above the guest's heap (guest-memory.ts; Go's sbrk would
 * hand them out otherwise), or the module as it is when it needs no routing (a C or Rust allocator,
 * see needsMemoryRouting) or cannot be read for it (e.g. SIMD instructions): such a module runs as before.
 */
function routedGuestMemory(bytes: Uint8Array): Uint8Array {
  try {
    if (!needsMemoryRouting(bytes)) return bytes;
    return routeGuestMemory(bytes)?.bytes ?? bytes;
  } catch {
    return bytes;
  }
}

/** Caches a wasip1 core module for the preview1 host; WASM_UNSUPPORTED_IMPORT when it imports a function that host lacks. */
async function cachePreview1Module(file: string, bytes: Uint8Array, sha256: string, cacheDirectory: string): Promise<CachedTranspile> {
  const names = readCoreModuleInterface(bytes).imports.map((entry) => entry.name);
  const unknown = [...new Set(names.filter((name) => !PREVIEW1_FUNCTIONS.includes(name)))];
  if (unknown.length > 0) {
    throw new ToolHostError(
      'WASM_UNSUPPORTED_IMPORT',
      `Cannot load wasm tool ${file}: it imports ${unknown.map((name) => `${WASIP1_MODULE}.${name}`).join(', ')}, which the preview1 host does not provide`,
    );
  }
  try {
    return await writeCachedPreview1Module(cacheDirectory, sha256, bytes, interfacesOfPreview1Imports(names));
  } catch (error) {
    throw loadError(file, `cannot write the transpile cache in ${cacheDirectory}: ${(error as Error).message}`, error);
  }
}

/** Caches a core module for the preview1 host, or wraps (with the adapter variant) and transpiles with jco and writes the cache entry: the synchronous, CPU-heavy part of a load. */
export async function transpileIntoCache(
  file: string,
  bytes: Uint8Array,
  sha256: string,
  sourceKind: ComponentSourceKind,
  cacheDirectory: string,
  variant: EntryVariant,
): Promise<CachedTranspile> {
  if (sourceKind === 'wasip1-core-module' && variant === 'default') return cachePreview1Module(file, bytes, sha256, cacheDirectory);
  const jco = await loadJco();
  let component = bytes;
  if (sourceKind === 'wasip1-core-module') {
    try {
      const split = splitDuplicateImports(routedGuestMemory(bytes), WASIP1_MODULE);
      const reactor = split.duplicateModules.length > 0 ? await preview1ReactorAdapter() : undefined;
      const adapters: [string, Uint8Array][] = [[WASIP1_MODULE, await preview1CommandAdapter()]];
      for (const module of split.duplicateModules) adapters.push([module, reactor as Uint8Array]);
      component = await jco.componentNew(split.bytes, adapters);
    } catch (error) {
      throw loadError(file, `wrapping the wasip1 core module failed: ${String((error as Error).message ?? error)}`, error);
    }
  }
  let output;
  let declaredImports: string[];
  try {
    declaredImports = readComponentImportNames(component).map(unversionedName);
    output = await jco.transpile(component, transpileOptions());
  } catch (error) {
    throw loadError(file, `not a valid component: ${String((error as Error).message ?? error)}`, error);
  }
  const imports = [...new Set([...declaredImports, ...output.imports])].sort();
  try {
    return await writeCachedTranspile(cacheDirectory, sha256, sourceKind, { ...output, imports }, variant);
  } catch (error) {
    throw loadError(file, `cannot write the transpile cache in ${cacheDirectory}: ${(error as Error).message}`, error);
  }
}

/**
 * Loads `file` as a tool component. Throws ToolHostError 'WASM_LOAD_FAILED' (unreadable, garbage,
 * truncated, a core module that is not a wasip1 command, no `wasi:cli/run` export) or
 * 'WASM_UNSUPPORTED_IMPORT' (imports outside `wasi:*`), naming the file and the reason.
 */
export async function loadComponent(file: string, options: LoadOptions = {}): Promise<LoadedComponent> {
  const path = resolve(file);
  const cacheDirectory = resolve(options.cacheDirectory ?? defaultCacheDirectory());
  let sha256: string;
  let bytes: Uint8Array | undefined;
  try {
    ({ sha256, bytes } = await fileSha256(path));
  } catch (error) {
    throw loadError(path, (error as Error).message, error);
  }
  const variant: EntryVariant = options.preview1Adapter === true ? 'preview1-adapter' : 'default';
  let entry = await readCachedTranspile(cacheDirectory, sha256, variant);
  // A read-only cache (baked into an image) serves what it has; the rest goes to a private temporary folder.
  const writeDirectory = entry === undefined ? await writableCacheDirectory(cacheDirectory) : cacheDirectory;
  if (entry === undefined && writeDirectory !== cacheDirectory) entry = await readCachedTranspile(writeDirectory, sha256, variant);
  const transpiled = entry === undefined;
  if (entry === undefined) {
    if (bytes === undefined) {
      // Hashed earlier in this process: read the bytes now, and start over if they are not what was hashed.
      try {
        bytes = await readFile(path);
      } catch (error) {
        throw loadError(path, (error as Error).message, error);
      }
      if (sha256Hex(bytes) !== sha256) {
        fileDigests.delete(path);
        return loadComponent(file, options);
      }
    }
    let classified = classifyBinary(bytes);
    if (classified.kind === 'refused') throw loadError(path, classified.reason);
    // A wasip1 command wrapped with the preview1 command adapter runs as its inner core module (adapter-unwrap.ts).
    const inner = classified.kind === 'component' && variant === 'default' ? innerPreview1Command(bytes) : undefined;
    if (inner !== undefined) {
      classified = { kind: 'wasip1-core-module' };
      bytes = inner;
    }
    const started = performance.now();
    // A core module for the preview1 host is only checked and copied: no jco, no thread needed.
    const runsJco = !(classified.kind === 'wasip1-core-module' && variant === 'default');
    entry =
      options.transpileOnThread === true && runsJco
        ? await (await import('./transpile-thread.ts')).transpileOnThread({ file: path, bytes, sha256, sourceKind: classified.kind, cacheDirectory: writeDirectory, variant })
        : await transpileIntoCache(path, bytes, sha256, classified.kind, writeDirectory, variant);
    debug('transpile cache miss: transpiled %s in %d ms into %s', path, Math.round(performance.now() - started), entry.directory);
  } else {
    debug('transpile cache hit: %s from %s', path, entry.directory);
  }
  const { manifest } = entry;
  const execution = executionOf(manifest);
  if (execution === 'component' && !exportsCliRun(manifest.exports)) {
    throw loadError(path, `component does not export wasi:cli/run (exports: ${manifest.exports.map(([name]) => name).join(', ') || 'none'})`);
  }
  const unsupported = unsupportedImports(manifest.imports);
  if (unsupported.length > 0) {
    throw new ToolHostError(
      'WASM_UNSUPPORTED_IMPORT',
      `Cannot load wasm tool ${path}: it imports ${unsupported.join(', ')}, which no WASI host interface provides`,
    );
  }
  return {
    file: path,
    sha256,
    sourceKind: manifest.sourceKind,
    execution,
    imports: [...manifest.imports],
    cacheEntry: entry.directory,
    gluePath: execution === 'component' ? join(entry.directory, manifest.glue) : '',
    glueSha256: execution === 'component' ? (manifest.files[manifest.glue] as string) : '',
    coreModules: [...manifest.coreModules],
    coreModuleSha256: Object.fromEntries(manifest.coreModules.map((name) => [name, manifest.files[name] as string])),
    transpiled,
  };
}
