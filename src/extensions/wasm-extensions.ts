/**
 * The extension source the host uses for a folder of wasm tools: one wasm runtime (worker pool +
 * transpile cache), an ExtensionSet that loads every `.wasm`, and, with `watch`, a chokidar watcher
 * that hot-reloads files as they appear, change or vanish.
 */
import { join } from 'node:path';
import type { ExtensionSource, ExtensionSourceFactory } from '../host.ts';
import { silentLogger } from '../logger.ts';
import { createHelpCache } from '../introspect/capture.ts';
import { createWasmRuntime, type WasmRuntime } from '../wasm/runtime.ts';
import { defaultCacheDirectory } from '../wasm/transpile-cache.ts';
import { ExtensionSet } from './extension-set.ts';
import type { NameClash } from './tool-names.ts';
import { loadWasmTool, probeWasmToolVersion } from './wasm-tool.ts';
import { watchExtensions, type ExtensionWatcher } from './watcher.ts';

export interface WasmExtensionSource extends ExtensionSource {
  readonly runtime: WasmRuntime;
  readonly set: ExtensionSet;
  /** Files served under a suffixed name because the name they want was taken (see tool-names.ts). */
  clashes(): NameClash[];
}

/** The factory `createHost(options, { extensions })` takes to load `options.extensionsDir`. */
export function wasmExtensions(): ExtensionSourceFactory {
  return ({ options, workspaceRoot, registry, emit }) => {
    const directory = options.extensionsDir as string;
    const logger = (options.logger ?? silentLogger()).child({ component: 'extensions' });
    const cacheDirectory = options.cacheDir ?? defaultCacheDirectory();
    const limits = options.limits ?? {};
    const runtime = createWasmRuntime({
      cacheDirectory,
      ...(limits.poolSize !== undefined ? { threads: limits.poolSize } : {}),
      ...(limits.maxQueue !== undefined ? { maxQueuedCalls: limits.maxQueue } : {}),
      ...(limits.perToolConcurrency !== undefined ? { maxConcurrentCallsPerTool: limits.perToolConcurrency } : {}),
    });
    const helpCache = createHelpCache(join(cacheDirectory, 'help'));
    const set = new ExtensionSet({
      directory,
      registry,
      emit,
      logger,
      ...(options.onLoadProgress ? { onLoadProgress: options.onLoadProgress } : {}),
      probeVersion: probeWasmToolVersion,
      load: (file) =>
        loadWasmTool(file, {
          runtime,
          workspaceRoot,
          helpCache,
          ...(options.policies ? { policies: options.policies } : {}),
          defaults: {
            ...(limits.timeoutMs !== undefined ? { timeoutMs: limits.timeoutMs } : {}),
            ...(limits.memoryMb !== undefined ? { memoryMb: limits.memoryMb } : {}),
            ...(limits.outputBytes !== undefined ? { outputBytes: limits.outputBytes } : {}),
          },
        }),
    });
    let watcher: ExtensionWatcher | undefined;
    return {
      runtime,
      set,
      async start() {
        if (options.watch) runtime.warmUp();
        await set.loadAll();
        if (options.watch) {
          watcher = watchExtensions({
            directory,
            onChange: (path) => void set.sync(path),
            onError: (error) => logger.error({ error: String(error) }, 'extensions watcher error'),
          });
          await watcher.ready;
        }
      },
      failures: () => set.failures(),
      clashes: () => set.clashes(),
      async close() {
        await watcher?.close();
        await set.idle();
        await runtime.close();
      },
    } satisfies WasmExtensionSource;
  };
}
