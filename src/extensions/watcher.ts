/**
 * Watches an extensions folder with chokidar and hands every relevant path to a sync function.
 * A file still being written is not loaded half-done: chokidar's awaitWriteFinish waits until its
 * size is stable, and a failed load is retried once more after the file settles (see ExtensionSet).
 */
import chokidar, { type FSWatcher } from 'chokidar';
import { componentFileFor } from './extension-set.ts';

export interface ExtensionWatcherOptions {
  directory: string;
  /** Called with the path that changed (a `.wasm` or a sidecar). */
  onChange: (path: string) => void;
  onError?: (error: unknown) => void;
  /** How long a file's size must stay unchanged before it counts as written. */
  stabilityMs?: number;
}

export interface ExtensionWatcher {
  ready: Promise<void>;
  close(): Promise<void>;
}

export function watchExtensions(options: ExtensionWatcherOptions): ExtensionWatcher {
  const stabilityMs = options.stabilityMs ?? 150;
  const watcher: FSWatcher = chokidar.watch(options.directory, {
    ignoreInitial: true,
    depth: 0,
    awaitWriteFinish: { stabilityThreshold: stabilityMs, pollInterval: Math.max(20, Math.floor(stabilityMs / 4)) },
    ignored: (path: string, stats?: { isFile(): boolean }) => stats?.isFile() === true && componentFileFor(path) === undefined,
  });
  const forward = (path: string): void => {
    if (componentFileFor(path) !== undefined) options.onChange(path);
  };
  watcher.on('add', forward).on('change', forward).on('unlink', forward);
  watcher.on('error', (error) => options.onError?.(error));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    close: () => watcher.close(),
  };
}
