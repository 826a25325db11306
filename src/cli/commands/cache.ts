/** `toolhost cache info|clear`: the on-disk transpile cache of wasm tools (and their captured help and probe results). */
import { existsSync, readdirSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { resolveConfig } from '../../config.ts';
import { formatBytes as formatByteSize } from '../../byte-size.ts';
import { ToolHostError } from '../../errors.ts';
import { defaultCacheDirectory, transpileOptionsKey } from '../../wasm/transpile-cache.ts';
import type { CommandContext } from '../command-context.ts';
import { DEFAULT_CACHE_DIRECTORY_TEXT } from '../host-setup.ts';
import { CliError, type CliIo, EXIT_OK, EXIT_USAGE, painterFor, writeJson } from '../output.ts';


/** `<sha256>-<options key>`: one transpiled component. */
const TRANSPILE_ENTRY = /^([0-9a-f]{64})-([0-9a-f]{16})$/;
const HELP_DIRECTORY = 'help';
/** What asking the programs found (src/introspect/probe/), laid out like the help folder. */
const PROBE_DIRECTORY = 'probe';
/** Finished specs of wasm tools (src/extensions/wasm-spec-cache.ts), laid out like the help folder. */
const SPEC_DIRECTORY = 'spec';
const TEMPORARY_ENTRY = /^\.tmp-/;

export interface CacheReport {
  directory: string;
  exists: boolean;
  /** Transpiled components. */
  entries: number;
  /** Of those, entries written by another jco version or transpile options (never read again). */
  stale_entries: number;
  /** Captured `--help` texts. */
  help_entries: number;
  /** Probe results (what asking each program found). */
  probe_entries: number;
  /** Finished specs of wasm tools (what a load found parsing help, sidecars, probes, overrides). */
  spec_entries: number;
  /** Unfinished writes left by an interrupted transpile. */
  temporary_entries: number;
  bytes: number;
}

interface CacheFlags {
  cacheDir?: string;
  config?: string;
  json?: boolean;
}

function sizeOf(path: string): number {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/** The cache directory of this run: --cache-dir > TOOLHOST_CACHE_DIR > config file > the user's cache directory. */
export function resolveCacheDirectory(flags: CacheFlags, io: Pick<CliIo, 'cwd' | 'env'>): string {
  try {
    const config = resolveConfig({ flags: { ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}), ...(flags.config ? { config: flags.config } : {}) }, env: io.env, cwd: io.cwd });
    return config.host.cacheDir ?? defaultCacheDirectory(io.env);
  } catch (error) {
    if (ToolHostError.is(error, 'CONFIG_INVALID')) throw new CliError(error.message, { exitCode: EXIT_USAGE, cause: error });
    throw error;
  }
}

/** The cache entries toolhost recognises; anything else in the folder is left alone. */
function recognisedEntries(directory: string): { transpiled: string[]; stale: string[]; help: string[]; probe: string[]; spec: string[]; temporary: string[] } {
  const found = { transpiled: [] as string[], stale: [] as string[], help: [] as string[], probe: [] as string[], spec: [] as string[], temporary: [] as string[] };
  if (!existsSync(directory)) return found;
  const currentKey = transpileOptionsKey();
  for (const name of readdirSync(directory)) {
    const match = TRANSPILE_ENTRY.exec(name);
    if (match) {
      found.transpiled.push(name);
      if (match[2] !== currentKey) found.stale.push(name);
    } else if (TEMPORARY_ENTRY.test(name)) {
      found.temporary.push(name);
    }
  }
  found.help = helpEntries(join(directory, HELP_DIRECTORY));
  found.probe = helpEntries(join(directory, PROBE_DIRECTORY));
  found.spec = helpEntries(join(directory, SPEC_DIRECTORY));
  return found;
}

/** A help cache namespace folder (helpCacheNamespace: toolhost version and capture argv). */
const HELP_NAMESPACE = /^v[A-Za-z0-9._-]+-[0-9a-f]{12}$/;

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** Captured help files, relative to the help folder: `<key>.json` and `<namespace>/<key>.json`. */
function helpEntries(helpDirectory: string): string[] {
  if (!isDirectory(helpDirectory)) return [];
  return readdirSync(helpDirectory).flatMap((name) => {
    if (name.endsWith('.json')) return [name];
    if (!HELP_NAMESPACE.test(name) || !isDirectory(join(helpDirectory, name))) return [];
    return readdirSync(join(helpDirectory, name))
      .filter((entry) => entry.endsWith('.json'))
      .map((entry) => join(name, entry));
  });
}

export function cacheReport(directory: string): CacheReport {
  const entries = recognisedEntries(directory);
  return {
    directory,
    exists: existsSync(directory),
    entries: entries.transpiled.length,
    stale_entries: entries.stale.length,
    help_entries: entries.help.length,
    probe_entries: entries.probe.length,
    spec_entries: entries.spec.length,
    temporary_entries: entries.temporary.length,
    bytes: sizeOf(directory),
  };
}

/** Removes every recognised entry, then the folder itself if that left it empty. */
export function clearCache(directory: string): { removed: number; bytes: number } {
  const entries = recognisedEntries(directory);
  let bytes = 0;
  const remove = (path: string): void => {
    bytes += sizeOf(path);
    rmSync(path, { recursive: true, force: true });
  };
  for (const name of [...entries.transpiled, ...entries.temporary]) remove(join(directory, name));
  for (const name of entries.help) remove(join(directory, HELP_DIRECTORY, name));
  for (const name of entries.probe) remove(join(directory, PROBE_DIRECTORY, name));
  for (const name of entries.spec) remove(join(directory, SPEC_DIRECTORY, name));
  // The key that signs the entries' manifests goes with them (a new one is made with the next entry).
  rmSync(join(directory, 'integrity.key'), { force: true });
  const folders = [HELP_DIRECTORY, PROBE_DIRECTORY, SPEC_DIRECTORY].map((name) => join(directory, name));
  const namespaces = folders.flatMap((folder) => (isDirectory(folder) ? readdirSync(folder).filter((name) => HELP_NAMESPACE.test(name)).map((name) => join(folder, name)) : []));
  for (const emptied of [...namespaces, ...folders, directory]) {
    if (isDirectory(emptied) && readdirSync(emptied).length === 0) rmdirSync(emptied);
  }
  return { removed: entries.transpiled.length + entries.temporary.length + entries.help.length + entries.probe.length + entries.spec.length, bytes };
}

/** "512 B", "1.5 KiB", "12.0 MiB": the spelling the CLI prints. */
export function formatBytes(bytes: number): string {
  return formatByteSize(bytes, 'iec');
}

function addCacheOptions(command: Command): Command {
  return command
    .option('--cache-dir <dir>', `the cache folder (env TOOLHOST_CACHE_DIR; default: ${DEFAULT_CACHE_DIRECTORY_TEXT})`)
    .option('--config <file>', 'JSON config file whose cache_dir to use (env TOOLHOST_CONFIG)')
    .option('--json', 'print the result as JSON');
}

export function defineCacheCommand(cache: Command, context: CommandContext): Command {
  cache
    .addHelpText('after', '\nEntries are keyed by the component sha256 and the jco version: a changed tool or a jco upgrade never reads a stale entry.');
  addCacheOptions(cache.command('info').description('where the cache is, how many entries, how big')).action(
    context.action(async (flags: CacheFlags) => {
      const report = cacheReport(resolveCacheDirectory(flags, context.io));
      if (flags.json) {
        writeJson(context.io, report);
        return EXIT_OK;
      }
      const paint = painterFor(context.io.stdout, context.io.env);
      const stale = report.stale_entries > 0 ? `, ${report.stale_entries} from another jco version (run \`toolhost cache clear\`)` : '';
      const lines = [
        `${paint('bold', 'cache directory')}  ${report.directory}${report.exists ? '' : ' (does not exist yet)'}`,
        `${paint('bold', 'components     ')}  ${report.entries}${stale}`,
        `${paint('bold', 'help texts     ')}  ${report.help_entries}`,
        `${paint('bold', 'probe results  ')}  ${report.probe_entries}`,
        `${paint('bold', 'tool specs     ')}  ${report.spec_entries}`,
        `${paint('bold', 'size           ')}  ${formatBytes(report.bytes)}`,
      ];
      context.io.stdout.write(`${lines.join('\n')}\n`);
      return EXIT_OK;
    }),
  );
  addCacheOptions(cache.command('clear').description('delete the cached transpiles and help texts (they are rebuilt on the next load)')).action(
    context.action(async (flags: CacheFlags) => {
      const directory = resolveCacheDirectory(flags, context.io);
      const outcome = clearCache(directory);
      if (flags.json) writeJson(context.io, { directory, removed: outcome.removed, bytes: outcome.bytes });
      else context.io.stdout.write(`removed ${outcome.removed} cache entries (${formatBytes(outcome.bytes)}) from ${directory}\n`);
      return EXIT_OK;
    }),
  );
  return cache;
}
