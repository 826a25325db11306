/**
 * The host flags `list`, `call`, `serve` and `mcp` share (`--workspace`, `--extensions`,
 * `--permission-mode`, `--config`, `--cache-dir`), resolved with src/config.ts (flags > env >
 * config file > defaults), and opening what the composition root (src/compose.ts) builds from them
 * with the CLI's progress line and load warnings.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { composeHost } from '../compose.ts';
import { CONFIG_ENV, type ConfigFlags, type ResolvedConfig, resolveConfig } from '../config.ts';
import { ToolHostError } from '../errors.ts';
import type { WasmExtensionsOptions } from '../extensions/wasm-extensions.ts';
import type { Host } from '../host-types.ts';
import { createLogger, silentLogger, type Logger } from '../logger.ts';
import { PERMISSION_LEVELS } from '../permission.ts';
import { type CliIo, CliError, EXIT_USAGE, usageError, writeWarning } from './output.ts';
import { createProgressReporter, type ProgressReporter } from './progress.ts';

/** How the default cache folder reads in help texts (used when no flag, env or config file says otherwise). */
export const DEFAULT_CACHE_DIRECTORY_TEXT = '$XDG_CACHE_HOME/toolhost, else ~/.cache/toolhost';

/** The drop-in folder used when no extensions folder is configured and it exists under the cwd. */
export const DEFAULT_EXTENSIONS_DIR = 'extensions/tools';

export type HostFlags = Pick<ConfigFlags, 'workspace' | 'extensions' | 'permissionMode' | 'config' | 'cacheDir'>;

/** Adds `--workspace`, `--extensions`, `--permission-mode`, `--config` and `--cache-dir` to a command. */
export function addHostOptions(command: Command): Command {
  return command
    .option('--workspace <dir>', 'workspace root for file tools and relative policy paths (env TOOLHOST_WORKSPACE; default: the current directory)')
    .option('--extensions <dir>', `folder of .wasm tools (env TOOLHOST_EXTENSIONS; default: ./${DEFAULT_EXTENSIONS_DIR} when it exists)`)
    .option('--permission-mode <level>', `highest permission a tool may need: ${PERMISSION_LEVELS.join(', ')} (env TOOLHOST_PERMISSION_MODE; default: execute)`)
    .option('--config <file>', 'JSON config file (env TOOLHOST_CONFIG); flags and env override it')
    .option('--cache-dir <dir>', `transpile cache of wasm tools (env TOOLHOST_CACHE_DIR; default: ${DEFAULT_CACHE_DIRECTORY_TEXT})`);
}

function requireDirectory(path: string, what: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw usageError(`${what} ${path}: no such directory`, 'create it first or point the setting at an existing directory');
  }
  if (!isDirectory) throw usageError(`${what} ${path}: not a directory`, 'point the setting at a directory');
}

/** Turns config errors (bad file, bad flag value) into one-line usage errors. */
function asUsageError(error: unknown): never {
  if (ToolHostError.is(error, 'CONFIG_INVALID')) throw new CliError(error.message, { exitCode: EXIT_USAGE, cause: error });
  throw error;
}

/**
 * Resolves the configuration of one run: flags > env > config file > defaults, where the defaults are
 * workspace = cwd and extensions = ./extensions/tools if that folder exists. Checks the folders exist.
 */
export function resolveHostConfig(flags: ConfigFlags, io: Pick<CliIo, 'cwd' | 'env'>): ResolvedConfig {
  const fallbackExtensions = resolve(io.cwd, DEFAULT_EXTENSIONS_DIR);
  const hasFallback = existsSync(fallbackExtensions) && statSync(fallbackExtensions).isDirectory();
  let config: ResolvedConfig;
  try {
    config = resolveConfig({ flags, env: io.env, cwd: io.cwd, ...(hasFallback ? { defaults: { extensions: fallbackExtensions } } : {}) });
  } catch (error) {
    asUsageError(error);
  }
  if (config.host.workspaceRoot !== undefined) requireDirectory(config.host.workspaceRoot, 'workspace');
  if (config.host.extensionsDir !== undefined) requireDirectory(config.host.extensionsDir, 'extensions folder');
  return config;
}

/** The extensions folder a run would use (absolute), and where that setting came from; undefined: none. */
export interface ExtensionsFolder {
  path: string;
  source: '--extensions' | 'TOOLHOST_EXTENSIONS' | 'the config file' | `the default ./${typeof DEFAULT_EXTENSIONS_DIR}`;
}

export function extensionsFolderOf(config: ResolvedConfig, flags: HostFlags, io: Pick<CliIo, 'cwd' | 'env'>): ExtensionsFolder | undefined {
  const path = config.host.extensionsDir;
  if (path === undefined) return undefined;
  const source: ExtensionsFolder['source'] =
    flags.extensions !== undefined
      ? '--extensions'
      : (io.env[CONFIG_ENV.extensions] ?? '').trim() !== ''
        ? 'TOOLHOST_EXTENSIONS'
        : path === resolve(io.cwd, DEFAULT_EXTENSIONS_DIR)
          ? `the default ./${DEFAULT_EXTENSIONS_DIR}`
          : 'the config file';
  return { path, source };
}

/**
 * The stderr line of `serve`, `mcp` and `list` that says which extensions folder is in effect, or
 * that there is none (a client started from another directory otherwise gets only the built-ins, silently).
 */
export function extensionsFolderLine(folder: ExtensionsFolder | undefined, io: Pick<CliIo, 'cwd'>): string {
  if (folder !== undefined) return `toolhost: extensions folder ${folder.path} (from ${folder.source})\n`;
  return (
    `toolhost: no extensions folder: serving the built-in tools only (pass --extensions <dir>, set TOOLHOST_EXTENSIONS or the config key "extensions", ` +
    `or create ./${DEFAULT_EXTENSIONS_DIR} under ${io.cwd})\n`
  );
}

/** Writes `extensionsFolderLine` for this run's configuration to stderr. */
export function reportExtensionsFolder(config: ResolvedConfig, flags: HostFlags, io: CliIo): void {
  io.stderr.write(extensionsFolderLine(extensionsFolderOf(config, flags, io), io));
}

/** The logger of a short CLI run: silent unless `--debug` (then debug-level JSON logs on stderr). */
export function commandLogger(debug: boolean): Logger {
  return debug ? createLogger({ level: 'debug', stderr: true }) : silentLogger();
}

/** The logger of a long-running command (serve, mcp): JSON logs on stderr, debug level with `--debug`. */
export function daemonLogger(debug: boolean): Logger {
  return createLogger({ stderr: true, ...(debug ? { level: 'debug' } : {}) });
}

/** One warning line per extension that failed to load. */
export function reportLoadFailures(host: Host, io: CliIo): void {
  for (const failure of host.loadFailures()) writeWarning(io, `could not load ${failure.file}: ${failure.error}`);
}

/**
 * Runs `open` (one of the composition root's functions) with a progress line on stderr while
 * components load (TTY only), then warns once per extension that failed to load.
 */
export async function openWithProgress<Opened extends { host: Host }>(io: CliIo, open: (onLoadProgress: ProgressReporter['update']) => Promise<Opened>): Promise<Opened> {
  const progress = createProgressReporter(io);
  let opened: Opened;
  try {
    opened = await open(progress.update);
  } finally {
    progress.done();
  }
  reportLoadFailures(opened.host, io);
  return opened;
}

export interface OpenHostOptions {
  logger: Logger;
  watch?: boolean;
  /** How the extensions folder loads (which runtime, which files, when to compile); see wasmExtensions. */
  extensions?: WasmExtensionsOptions;
  /** False: a host without the built-ins (a one-shot call of a wasm tool never imports them). */
  builtins?: boolean;
}

/** Opens a host for one CLI run: built-ins plus the extensions folder, with progress and load warnings. */
export async function openHost(config: ResolvedConfig, io: CliIo, options: OpenHostOptions): Promise<Host> {
  const { host } = await openWithProgress(io, async (onLoadProgress) => ({
    host: await composeHost({
      config: options.builtins === false ? { ...config, host: { ...config.host, builtins: false } } : config,
      logger: options.logger,
      watch: options.watch ?? false,
      onLoadProgress,
      ...(options.extensions ? { extensions: options.extensions } : {}),
    }),
  }));
  return host;
}
