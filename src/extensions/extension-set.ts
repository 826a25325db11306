/**
 * The set of extension tools loaded from one folder: `<base>.wasm` plus optional sidecars
 * `<base>.policy.json`, `<base>.tool.json` and a spec the author ships (`<base>.usage.kdl`,
 * `<base>.oclif.manifest.json`, `<base>.carapace.yaml`). It loads every component at start, and keeps the
 * registry in step with the folder when files appear, change or vanish (see watcher.ts).
 *
 * Guarantees: one bad file never stops the others; a broken replacement leaves the previous good
 * version serving (and reports load_failed); work on one file is serialized; a tool object is
 * immutable, so calls in flight finish on the version they started with. Names: a file's tool is
 * named after its stem (or its `.tool.json` name); a clash is settled by the rule in tool-names.ts
 * and reported, never by dropping a file.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ToolHostError } from '../errors.ts';
import type { HostEvent, LoadFailure } from '../host-types.ts';
import type { Logger } from '../logger.ts';
import type { ToolRegistry } from '../registry.ts';
import type { AnyTool } from '../tool.ts';
import { readToolOverrides } from '../introspect/overrides.ts';
import { SPEC_SIDECAR_SUFFIXES } from '../introspect/sidecars/index.ts';
import { chooseToolName, clashReason, registrationOrder, sidecarPaths, wantedToolName, type NameClash } from './tool-names.ts';

/** Something wrong with a tool that still loaded (it serves; the operator should fix it). */
export interface LoadWarning {
  /** Stable identifier, e.g. `grant-folder-missing`. */
  code: string;
  message: string;
}

export interface LoadedExtension {
  tool: AnyTool;
  /** Identifies the loaded version: the component's sha256 plus its sidecars' contents. */
  version: string;
  /** Problems that did not stop the load; logged at warn level when the tool (re)loads. */
  warnings?: readonly LoadWarning[];
}

/** Loads one `.wasm` file (with its sidecars) into a tool. Throws a ToolHostError to refuse it. */
export type ExtensionLoader = (file: string) => Promise<LoadedExtension>;

/** Cheap version probe: what `version` a load of this file would produce, without loading it. */
export type ExtensionVersionProbe = (file: string) => Promise<string>;

export interface ExtensionSetOptions {
  directory: string;
  registry: ToolRegistry;
  load: ExtensionLoader;
  probeVersion: ExtensionVersionProbe;
  emit: (event: HostEvent) => void;
  logger: Logger;
  onLoadProgress?: (progress: { file: string; done: number; total: number }) => void;
  /** Loads running at once during the initial scan. */
  concurrency?: number;
  /** Load only these `.wasm` files of the folder (a one-shot call loads just the tool it names). */
  files?: readonly string[];
}

export const SIDECAR_SUFFIXES: readonly string[] = ['.policy.json', '.tool.json', ...SPEC_SIDECAR_SUFFIXES];

/** The `.wasm` file an extensions-folder path belongs to, or undefined for unrelated files. */
export function componentFileFor(path: string): string | undefined {
  if (path.endsWith('.wasm')) return path;
  for (const suffix of SIDECAR_SUFFIXES) {
    if (path.endsWith(suffix)) return join(dirname(path), `${basename(path).slice(0, -suffix.length)}.wasm`);
  }
  return undefined;
}

/** A loaded file: the tool as served (under its final name) and the name it asked for. */
interface LoadedEntry extends LoadedExtension {
  wanted: string;
}

export class ExtensionSet {
  private readonly loaded = new Map<string, LoadedEntry>();
  /** Files served under another name than the one they want (see tool-names.ts). */
  private readonly clashed = new Map<string, NameClash>();
  private readonly failed = new Map<string, LoadFailure>();
  private readonly queues = new Map<string, Promise<void>>();
  /**
   * Loads finished by `loadAll`'s concurrent phase, waiting to be registered in order, with the stat
   * signature of the file and its sidecars taken before each load began.
   */
  private readonly prepared = new Map<string, { loaded: LoadedExtension; signature: string }>();
  /** Files of the first load not settled yet, with their name group and when they will be. */
  private readonly firstLoad = new Map<string, { group: string; done: Promise<void> }>();
  private readonly options: ExtensionSetOptions;

  /** Settles once `loadAll` has listed the folder (and `firstLoad` holds its files). */
  private readonly listed: Promise<void>;
  private markListed!: () => void;
  private listedYet = false;
  private stopped = false;

  constructor(options: ExtensionSetOptions) {
    this.options = options;
    this.listed = new Promise<void>((resolve) => (this.markListed = resolve));
    void this.listed.then(() => (this.listedYet = true));
  }

  /**
   * Loads every component in the folder (or the `files` the set was given); settles once each has
   * loaded or failed. Files load concurrently and each tool is registered as soon as it is ready
   * (its `added` event goes out then), except that files which may compete for one name (see
   * nameGroup) register in registration order, so which keeps the name never depends on timing.
   * `pending()` lists the files not settled yet, and `whenSettled(name)` waits for the ones that may
   * provide a name.
   */
  async loadAll(): Promise<void> {
    let listing: { files: string[]; groups: string[] };
    try {
      listing = await this.listFirstLoad();
    } catch (error) {
      this.markListed();
      throw error;
    }
    const { files, groups } = listing;
    // Each file's registration waits for the one before it in its name group (a chain per group).
    const previousInGroup = new Map<string, Promise<void>>();
    const registrations = new Map<string, { group: string; after: Promise<void>; settled: () => void; done: Promise<void> }>();
    files.forEach((file, index) => {
      const group = groups[index] as string;
      let settled!: () => void;
      const done = new Promise<void>((resolve) => (settled = resolve));
      registrations.set(file, { group, after: previousInGroup.get(group) ?? Promise.resolve(), settled, done });
      previousInGroup.set(group, done);
      this.firstLoad.set(file, { group, done });
    });
    this.markListed();
    let registered = 0;
    const register = async (file: string, prepared: { loaded: LoadedExtension; signature: string } | undefined): Promise<void> => {
      const registration = registrations.get(file) as { after: Promise<void>; settled: () => void };
      await registration.after;
      if (prepared) this.prepared.set(file, prepared);
      if (!this.stopped) await this.sync(file);
      this.firstLoad.delete(file);
      registration.settled();
      registered += 1;
      this.options.onLoadProgress?.({ file, done: registered, total: files.length });
    };
    let next = 0;
    const registering: Promise<void>[] = [];
    const prepare = async (): Promise<void> => {
      while (next < files.length && !this.stopped) {
        const file = files[next++] as string;
        const signature = filesSignature(file);
        const loaded = await this.options.load(file).catch(() => undefined);
        // Not awaited: this loader goes on to the next file while the tool registers (a failed load
        // is retried by sync, which reports the error).
        registering.push(register(file, loaded ? { loaded, signature } : undefined));
      }
    };
    const concurrency = Math.max(1, this.options.concurrency ?? 2);
    await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, prepare));
    await Promise.all(registering);
  }

  /** The `.wasm` files of the first load in registration order, each with its name group. */
  private async listFirstLoad(): Promise<{ files: string[]; groups: string[] }> {
    const { directory } = this.options;
    if (!existsSync(directory)) {
      this.options.logger.warn({ directory }, 'extensions folder does not exist; no wasm tools loaded');
      return { files: [], groups: [] };
    }
    const names = this.options.files?.map((file) => basename(file)) ?? readdirSync(directory);
    const files = names
      .filter((name) => name.endsWith('.wasm'))
      .map((name) => join(directory, name))
      .sort(registrationOrder);
    const groups = await Promise.all(files.map(async (file) => nameGroup(await this.wantedName(file))));
    return { files, groups };
  }

  /** Ends a first load still running: files not started are skipped, loads that finish are not registered. */
  stop(): void {
    this.stopped = true;
  }

  /** Files of the first load (`loadAll`) not yet loaded or failed, in registration order. */
  pending(): string[] {
    return [...this.firstLoad.keys()];
  }

  /** The files of the first load, still pending, that may provide the tool `name` (its name group). */
  pendingFor(name: string): string[] {
    const group = nameGroup(name);
    return [...this.firstLoad].filter(([, entry]) => entry.group === group).map(([file]) => file);
  }

  /** Files loaded and serving a tool. */
  loadedCount(): number {
    return this.loaded.size;
  }

  /**
   * Settles once every file of the first load that may provide the tool `name` (its name group) has
   * loaded or failed; undefined when none is pending (the registry's answer for `name` is final).
   */
  whenSettled(name: string): Promise<void> | undefined {
    if (!this.listedYet) return this.listed.then(() => this.whenSettled(name));
    const group = nameGroup(name);
    const waiting = [...this.firstLoad.values()].filter((entry) => entry.group === group).map((entry) => entry.done);
    return waiting.length === 0 ? undefined : Promise.all(waiting).then(() => undefined);
  }

  /** The name a file asks for before it is loaded: its `.tool.json` name, else its stem (an unreadable sidecar counts as absent). */
  private async wantedName(file: string): Promise<string> {
    const sidecar = sidecarPaths(file).overrides;
    const overrideName = existsSync(sidecar) ? await readToolOverrides(sidecar).then((overrides) => overrides.name, () => undefined) : undefined;
    return wantedToolName(file, overrideName);
  }

  /** Brings the registry in line with one file (component or sidecar path): load, reload or unload. */
  sync(path: string): Promise<void> {
    const file = componentFileFor(path);
    if (!file) return Promise.resolve();
    const previous = this.queues.get(file) ?? Promise.resolve();
    const next = previous.then(() => this.syncNow(file)).catch((error: unknown) => {
      this.options.logger.error({ file, error: String(error) }, 'extension sync failed unexpectedly');
    });
    this.queues.set(file, next);
    void next.finally(() => {
      if (this.queues.get(file) === next) this.queues.delete(file);
    });
    return next;
  }

  /** Settles once no file is being loaded. */
  async idle(): Promise<void> {
    while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
  }

  failures(): LoadFailure[] {
    return [...this.failed.values()];
  }

  tools(): AnyTool[] {
    return [...this.loaded.values()].map((entry) => entry.tool);
  }

  /** Files served under a suffixed name because the name they want was taken, in file order. */
  clashes(): NameClash[] {
    return [...this.clashed.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }

  private async syncNow(file: string): Promise<void> {
    const { registry, logger } = this.options;
    const current = this.loaded.get(file);
    if (!existsSync(file)) {
      this.failed.delete(file);
      this.clashed.delete(file);
      if (current) {
        this.loaded.delete(file);
        registry.remove(current.tool.name, current.tool);
        logger.info({ file, tool: current.tool.name }, 'extension unloaded');
      }
      return;
    }
    if (current) {
      const version = await this.options.probeVersion(file).catch(() => undefined);
      if (version !== undefined && version === current.version && !this.failed.has(file)) return;
    }
    let loaded: LoadedExtension;
    const before = statSignature(file);
    const ready = this.prepared.get(file);
    this.prepared.delete(file);
    try {
      loaded = ready !== undefined && (await this.stillCurrent(file, ready)) ? ready.loaded : await this.options.load(file);
    } catch (error) {
      if (statSignature(file) !== before) {
        // The file changed while it was being loaded (still being written): try again on the settled bytes.
        logger.debug({ file }, 'extension changed during load; retrying');
        return this.syncNow(file);
      }
      const failure: LoadFailure = {
        file,
        error: error instanceof Error ? error.message : String(error),
        ...(error instanceof ToolHostError ? { code: error.code } : {}),
      };
      this.failed.set(file, failure);
      logger.warn({ ...failure, keptPrevious: current !== undefined }, 'extension failed to load');
      this.options.emit({ type: 'load_failed', ...failure });
      return;
    }
    this.failed.delete(file);
    const next = this.named(file, loaded, current);
    if (current && current.tool.name !== next.tool.name) {
      registry.remove(current.tool.name, current.tool);
    }
    const outcome = current && current.tool.name === next.tool.name && registry.get(next.tool.name) === current.tool ? registry.replace(next.tool) : registry.add(next.tool);
    if (!outcome.ok) {
      // Not expected (`named` picks a free name); kept so a refusal is still reported, never silent.
      // Refused by a name collision: record it like a load failure so `check`/`/healthz` can show it.
      const failure: LoadFailure = { file, error: `Tool name collision: ${outcome.collision.reason}`, code: 'TOOL_NAME_COLLISION' };
      this.failed.set(file, failure);
      this.loaded.delete(file);
      this.clashed.delete(file);
      return;
    }
    this.loaded.set(file, next);
    logger.info({ file, tool: next.tool.name, version: next.version.slice(0, 12) }, current ? 'extension reloaded' : 'extension loaded');
    for (const warning of loaded.warnings ?? []) logger.warn({ file, tool: next.tool.name, code: warning.code }, `extension loaded with a warning: ${warning.message}`);
  }

  /**
   * Whether a prepared load still matches the files: unchanged stat signatures say so without reading
   * them (hashing a large component again costs as much as the load did); else the content decides.
   */
  private async stillCurrent(file: string, ready: { loaded: LoadedExtension; signature: string }): Promise<boolean> {
    if (filesSignature(file) === ready.signature) return true;
    return ready.loaded.version === (await this.options.probeVersion(file));
  }

  /**
   * Gives a freshly loaded tool its final name: the name the file already serves under while the name
   * it wants is unchanged (stable across reloads), else the wanted name when free, else the lowest
   * free `_<n>` suffix, reported as a clash (event, log, `clashes()`, `details.name_clash`).
   */
  private named(file: string, loaded: LoadedExtension, current: LoadedEntry | undefined): LoadedEntry {
    const { registry } = this.options;
    const wanted = loaded.tool.name;
    if (current && current.wanted === wanted) {
      const previous = this.clashed.get(file);
      return { ...this.renamed(loaded, current.tool.name, previous), wanted };
    }
    const name = chooseToolName(wanted, (candidate) => {
      const holder = registry.get(candidate);
      return holder !== undefined && holder !== current?.tool;
    });
    if (name === wanted) {
      this.clashed.delete(file);
      return { ...loaded, wanted };
    }
    const holder = registry.get(wanted);
    const holderFile = holder?.details?.['file'];
    const partial: Omit<NameClash, 'reason'> = {
      file,
      wanted,
      name,
      holder: holder?.source ?? 'wasm',
      ...(typeof holderFile === 'string' ? { holderFile } : {}),
    };
    const clash: NameClash = { ...partial, reason: clashReason(partial) };
    this.clashed.set(file, clash);
    this.options.logger.warn({ file, name: wanted, servedAs: name, reason: clash.reason }, 'tool name collision');
    this.options.emit({ type: 'collision', name: wanted, kept: clash.holder, rejected: loaded.tool.source, reason: clash.reason, file });
    return { ...this.renamed(loaded, name, clash), wanted };
  }

  /** The loaded tool under `name`, carrying its clash (if any) in `details.name_clash`. */
  private renamed(loaded: LoadedExtension, name: string, clash: NameClash | undefined): LoadedExtension {
    if (name === loaded.tool.name && clash === undefined) return loaded;
    const details = { ...loaded.tool.details, ...(clash ? { name_clash: { wanted: clash.wanted, reason: clash.reason } } : {}) };
    const tool: AnyTool = { ...loaded.tool, name, details };
    return { ...loaded, tool };
  }
}

/**
 * The names that can compete with `name`: a file wanting `x`, `X` or `x_2` may end up served as `x_2`
 * (the clash suffix, tool-names.ts), so they share a group: the name without a trailing `_<n>`,
 * lower-cased, cut to the part a suffix never shortens. Over-grouping only orders registrations.
 */
export function nameGroup(name: string): string {
  return name.replace(/_\d+$/, '').toLowerCase().slice(0, 40);
}

/** Size, mtime and inode of a component and each of its sidecars: what changes when any is rewritten. */
function filesSignature(file: string): string {
  const base = file.slice(0, -'.wasm'.length);
  return [file, ...SIDECAR_SUFFIXES.map((suffix) => `${base}${suffix}`)].map(statSignature).join('|');
}

function statSignature(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.size}:${stats.mtimeMs}:${stats.ino}`;
  } catch {
    return 'missing';
  }
}
