/**
 * Change watching for workspace resources, with chokidar (as the extensions folder's watcher,
 * src/extensions/watcher.ts), started only when a client asks and stopped when none does any more:
 * - `watchFile`: one chokidar watcher per watched file (shared by every subscriber of that file,
 *   counted; at most `maxFiles` files at once), reporting `change`, `add` (re-created) and `unlink`. Resolves once the watch is in
 *   place, so a change made after a subscription is answered is seen.
 * - `onTreeChange`: one watcher of the whole workspace (files appearing or disappearing), started at
 *   the first listener, closed after the last; it skips the file tools' ignored directories
 *   (`node_modules`, `.git`) and anything deeper than `maxDepth`, and never follows symbolic links.
 *   chokidar scans the tree asynchronously (the event loop is not held); `ready` settles when the
 *   scan is done. It watches at most `maxDirectories` directories (one inotify watch each, a shared
 *   per-user budget): past that, directories are left out (logged once) and changes in them are not
 *   announced.
 * Watching never reads a file and reports nothing but that a path changed; the paths watched are
 * the confined real locations the workspace source resolved.
 */
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { Logger } from '../logger.ts';
import { ResourceError } from './types.ts';

export interface WorkspaceWatchOptions {
  /** Real path of the workspace root. */
  rootReal: () => string;
  ignoredDirectoryNames: ReadonlySet<string>;
  maxDepth: number;
  /** Most directories the tree watch covers. */
  maxDirectories: number;
  /** Most files watched at once (over every subscriber); a watch past it is refused (`LIMIT`). */
  maxFiles: number;
  logger?: Logger | undefined;
}

interface FileWatch {
  watcher: FSWatcher;
  ready: Promise<void>;
  listeners: Set<() => void>;
}

interface TreeWatch {
  watcher: FSWatcher;
  ready: Promise<void>;
}

type Chokidar = typeof import('chokidar').default;

export class WorkspaceWatch {
  private readonly files = new Map<string, FileWatch>();
  private readonly treeListeners = new Set<() => void>();
  private tree: TreeWatch | undefined;
  private readonly treeDirectories = new Set<string>();
  private chokidar: Promise<Chokidar> | undefined;
  private closed = false;

  constructor(private readonly options: WorkspaceWatchOptions) {}

  /** How many files are watched now (for limits and tests). */
  get watchedFiles(): number {
    return this.files.size;
  }

  /** Directories the tree watch covers now (at most `maxDirectories`). */
  get watchedDirectories(): number {
    return this.treeDirectories.size;
  }

  /** Whether the tree watcher runs now. */
  get watchingTree(): boolean {
    return this.tree !== undefined;
  }

  /** Watches the file at `absolute`; resolves once watching, with the function that ends this watch. */
  async watchFile(absolute: string, onChange: () => void): Promise<() => void> {
    let watch = this.files.get(absolute);
    if (watch === undefined) {
      const chokidar = await this.load();
      watch = this.files.get(absolute);
      if (watch === undefined) {
        if (this.files.size >= this.options.maxFiles) {
          throw new ResourceError('LIMIT', `${this.options.maxFiles} workspace files are watched already (over every session); unsubscribe from some first.`);
        }
        const watcher = chokidar.watch(absolute, { ignoreInitial: true, followSymlinks: false, persistent: true });
        const listeners = new Set<() => void>();
        const fire = (): void => {
          for (const listener of [...listeners]) listener();
        };
        watcher.on('change', fire).on('add', fire).on('unlink', fire);
        watcher.on('error', (error) => this.options.logger?.debug({ error: String(error), file: absolute }, 'resource watch error'));
        watch = { watcher, listeners, ready: new Promise<void>((resolve) => watcher.once('ready', () => resolve())) };
        this.files.set(absolute, watch);
      }
    }
    const current = watch;
    const listener = (): void => onChange();
    current.listeners.add(listener);
    await current.ready;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      current.listeners.delete(listener);
      if (current.listeners.size > 0 || this.files.get(absolute) !== current) return;
      this.files.delete(absolute);
      void current.watcher.close();
    };
  }

  /** Calls `listener` when files appear or disappear anywhere in the workspace. */
  onTreeChange(listener: () => void): { ready: Promise<void>; stop: () => void } {
    this.treeListeners.add(listener);
    const tree = this.startTree();
    let stopped = false;
    return {
      ready: tree.then(() => undefined),
      stop: () => {
        if (stopped) return;
        stopped = true;
        this.treeListeners.delete(listener);
        if (this.treeListeners.size === 0) this.stopTree();
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const watchers = [...this.files.values()].map((watch) => watch.watcher);
    this.files.clear();
    this.treeListeners.clear();
    if (this.tree !== undefined) watchers.push(this.tree.watcher);
    this.tree = undefined;
    await Promise.allSettled(watchers.map((watcher) => watcher.close()));
  }

  private load(): Promise<Chokidar> {
    if (this.closed) return Promise.reject(new Error('the workspace watch is closed'));
    this.chokidar ??= import('chokidar').then((module) => module.default);
    return this.chokidar;
  }

  private startingTree: Promise<void> | undefined;

  private startTree(): Promise<void> {
    if (this.tree !== undefined) return this.tree.ready;
    this.startingTree ??= this.load()
      .then((chokidar) => {
        this.startingTree = undefined;
        if (this.tree !== undefined) return this.tree.ready;
        if (this.treeListeners.size === 0 || this.closed) return undefined;
        const ignored = this.options.ignoredDirectoryNames;
        const root = this.options.rootReal();
        const directories = this.treeDirectories;
        directories.clear();
        let capped = false;
        const isIgnored = (candidate: string, stats?: { isDirectory(): boolean }): boolean => {
          if (candidate === root) return false;
          if (ignored.has(path.basename(candidate))) return true;
          if (stats?.isDirectory() !== true || directories.has(candidate)) return false;
          if (directories.size >= this.options.maxDirectories) {
            if (!capped) this.options.logger?.warn({ maxDirectories: this.options.maxDirectories }, 'the workspace has more directories than resource list changes are watched in; changes in the others are not announced');
            capped = true;
            return true;
          }
          directories.add(candidate);
          return false;
        };
        const watcher = chokidar.watch(root, { ignoreInitial: true, followSymlinks: false, depth: this.options.maxDepth, ignored: isIgnored });
        const fire = (): void => {
          for (const listener of [...this.treeListeners]) listener();
        };
        watcher.on('add', fire).on('unlink', fire).on('addDir', fire).on('unlinkDir', fire);
        watcher.on('error', (error) => this.options.logger?.debug({ error: String(error) }, 'workspace watch error'));
        const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
        this.tree = { watcher, ready };
        return ready;
      })
      .catch((error: unknown) => {
        this.startingTree = undefined;
        this.options.logger?.debug({ error: String(error) }, 'workspace watch not started');
      });
    return this.startingTree;
  }

  private stopTree(): void {
    const tree = this.tree;
    this.tree = undefined;
    this.treeDirectories.clear();
    if (tree !== undefined) void tree.watcher.close();
  }
}
