/**
 * The extension source the host uses for a folder of wasm tools: one wasm runtime (a worker pool, or
 * this thread for a one-shot call) with the transpile cache, an ExtensionSet that loads the folder's
 * `.wasm` files (or only the ones asked for), and, with `watch`, a chokidar watcher that hot-reloads
 * files as they appear, change or vanish.
 *
 * Start-up is on every CLI run and every MCP client start, so nothing is paid before it is needed:
 * chokidar loads only with `watch`, piscina only at the first pooled call, and with `compileOnLoad:
 * false` a tool's core modules compile at its first call (a watching host compiles them in the
 * background once it is ready, and boots its workers then, not while it loads).
 */
import { join } from 'node:path';
import type { ExtensionSource, ExtensionSourceFactory, HostLimits } from '../host-types.ts';
import { silentLogger } from '../logger.ts';
import { createHelpCache, helpCacheNamespace } from '../introspect/capture.ts';
import { packageVersion } from '../package-root.ts';
import { createInProcessRuntime } from '../wasm/in-process.ts';
import type { LoadedComponent } from '../wasm/load.ts';
import { createWasmRuntime, type WasmRuntime } from '../wasm/runtime.ts';
import { defaultCacheDirectory } from '../wasm/transpile-cache.ts';
import { ExtensionSet } from './extension-set.ts';
import type { NameClash } from './tool-names.ts';
import { loadWasmTool, probeWasmToolVersion } from './wasm-tool.ts';
import { createWasmSpecCache } from './wasm-spec-cache.ts';
import type { ExtensionWatcher } from './watcher.ts';

export interface WasmExtensionSource extends ExtensionSource {
  readonly runtime: WasmRuntime;
  readonly set: ExtensionSet;
  /** Files served under a suffixed name because the name they want was taken (see tool-names.ts). */
  clashes(): NameClash[];
}

/** How long after start a watching host waits before booting workers and compiling (see prepareInBackground). */
export const BACKGROUND_PREPARE_DELAY_MS = 250;

export interface WasmExtensionsOptions {
  /**
   * `pool` (default): calls run in the worker pool, each under its deadline, cancellable.
   * `in-process`: calls run on this thread (createInProcessRuntime), for a process that makes one
   * call and exits; no workers start at all.
   */
  runtime?: 'pool' | 'in-process';
  /** Load only these `.wasm` files of the folder (absolute paths), e.g. the one a call names. */
  files?: readonly string[];
  /**
   * Compile every tool's core modules as it loads, so a module the engine refuses fails the load
   * (default true). False: compile at the first call, or in the background once a watching host is
   * ready; `list` never compiles anything.
   */
  compileOnLoad?: boolean;
  /** Pool runtime only: run wasip1 commands through the preview1 adapter (WasmRuntimeOptions.preview1Adapter); for tests. */
  preview1Adapter?: boolean;
}

/** The runtime the calls run in: the worker pool (with the host's limits), or this thread for a one-shot call. */
function runtimeFor(extensionOptions: WasmExtensionsOptions, cacheDirectory: string, limits: HostLimits): WasmRuntime {
  if (extensionOptions.runtime === 'in-process') return createInProcessRuntime({ cacheDirectory });
  return createWasmRuntime({
    cacheDirectory,
    ...(extensionOptions.compileOnLoad === false ? { compileOnLoad: false } : {}),
    ...(extensionOptions.preview1Adapter === true ? { preview1Adapter: true } : {}),
    ...(limits.poolSize !== undefined ? { threads: limits.poolSize } : {}),
    ...(limits.maxQueue !== undefined ? { maxQueuedCalls: limits.maxQueue } : {}),
    ...(limits.perToolConcurrency !== undefined ? { maxConcurrentCallsPerTool: limits.perToolConcurrency } : {}),
  });
}

/** `runtime`, recording each component it loads into `components` (what the background compile works through). */
function recordingLoads(runtime: WasmRuntime, components: Map<string, LoadedComponent>): WasmRuntime {
  return {
    ...runtime,
    async load(file) {
      const component = await runtime.load(file);
      components.set(file, component);
      return component;
    },
  };
}

/** The host-wide limits a wasm tool's policy falls back to when neither its sidecar nor the config names one. */
function policyDefaults(limits: HostLimits): { timeoutMs?: number; memoryMb?: number; outputBytes?: number } {
  return {
    ...(limits.timeoutMs !== undefined ? { timeoutMs: limits.timeoutMs } : {}),
    ...(limits.memoryMb !== undefined ? { memoryMb: limits.memoryMb } : {}),
    ...(limits.outputBytes !== undefined ? { outputBytes: limits.outputBytes } : {}),
  };
}

/** The factory `createHost(options, { extensions })` takes to load `options.extensionsDir`. */
export function wasmExtensions(extensionOptions: WasmExtensionsOptions = {}): ExtensionSourceFactory {
  return ({ options, workspaceRoot, registry, emit }) => {
    const directory = options.extensionsDir as string;
    const logger = (options.logger ?? silentLogger()).child({ component: 'extensions' });
    const cacheDirectory = options.cacheDir ?? defaultCacheDirectory();
    const limits = options.limits ?? {};
    const runtime = runtimeFor(extensionOptions, cacheDirectory, limits);
    /** The components loaded so far, by file: what the background compile after start works through. */
    const components = new Map<string, LoadedComponent>();
    const recordingRuntime = recordingLoads(runtime, components);
    const helpCache = createHelpCache(join(cacheDirectory, 'help'), { namespace: helpCacheNamespace(packageVersion()) });
    const probeCache = createHelpCache(join(cacheDirectory, 'probe'), { namespace: helpCacheNamespace(packageVersion()) });
    // Finished specs (wasm-spec-cache.ts): a load that finds one runs no help and loads no parser.
    const specCache = createWasmSpecCache(join(cacheDirectory, 'spec'), { namespace: helpCacheNamespace(packageVersion()) });
    const set = new ExtensionSet({
      directory,
      registry,
      emit,
      logger,
      ...(extensionOptions.files ? { files: extensionOptions.files } : {}),
      ...(options.onLoadProgress ? { onLoadProgress: options.onLoadProgress } : {}),
      probeVersion: probeWasmToolVersion,
      load: (file) =>
        loadWasmTool(file, {
          runtime: recordingRuntime,
          workspaceRoot,
          helpCache,
          probeCache,
          specCache,
          ...(options.policies ? { policies: options.policies } : {}),
          defaults: policyDefaults(limits),
        }),
    });
    let watcher: ExtensionWatcher | undefined;
    let closed = false;

    /**
     * After a watching host is ready: boot the workers and compile the loaded tools, off the start-up
     * path. A short delay lets the first requests a client sends on connecting (MCP's initialize and
     * tools/list, a daemon's health check) be answered before worker threads compete for the CPU; a
     * call that comes sooner starts the pool itself.
     */
    function prepareInBackground(): void {
      const timer = setTimeout(() => {
        if (closed) return;
        runtime.warmUp();
        // jco is not imported here: the daemon transpiles on a thread of its own (runtime.ts), which imports it there.
        // Importing it on this thread cost ~0.3-0.8 s of event loop once, after ready (test/bench/load-stall.ts).
        if (extensionOptions.compileOnLoad !== false) return;
        for (const component of components.values()) {
          runtime.prepare(component).catch((error: unknown) => {
            logger.warn({ file: component.file, error: error instanceof Error ? error.message : String(error) }, 'wasm tool cannot be compiled; its calls will fail');
          });
        }
      }, BACKGROUND_PREPARE_DELAY_MS);
      timer.unref();
    }

    return {
      runtime,
      set,
      async start() {
        await set.loadAll();
        if (options.watch && !closed) {
          const { watchExtensions } = await import('./watcher.ts');
          watcher = watchExtensions({
            directory,
            onChange: (path) => void set.sync(path),
            onError: (error) => logger.error({ error: String(error) }, 'extensions watcher error'),
          });
          await watcher.ready;
          prepareInBackground();
        }
      },
      failures: () => set.failures(),
      pending: () => set.pending(),
      pendingFor: (name) => set.pendingFor(name),
      loadedCount: () => set.loadedCount(),
      whenSettled: (name) => set.whenSettled(name),
      clashes: () => set.clashes(),
      async close() {
        closed = true;
        // A first load still running (a host loading in the background) takes no further file.
        set.stop();
        await watcher?.close();
        await set.idle();
        await runtime.close();
      },
    } satisfies WasmExtensionSource;
  };
}
