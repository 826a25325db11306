/**
 * The host flags `list`, `call`, `serve` and `mcp` share (`--workspace`, `--extensions`,
 * `--permission-mode`), their defaults, and opening a host from them for one CLI run.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { createHost } from '../host.ts';
import type { Host, HostOptions } from '../host-types.ts';
import { createLogger, silentLogger, type Logger } from '../logger.ts';
import { isPermissionLevel, PERMISSION_LEVELS, type PermissionLevel } from '../permission.ts';
import { type CliIo, usageError, writeWarning } from './output.ts';
import { createProgressReporter } from './progress.ts';

/** The drop-in folder used when `--extensions` is not given and it exists under the cwd. */
export const DEFAULT_EXTENSIONS_DIR = 'extensions/tools';

export interface HostFlags {
  workspace?: string;
  extensions?: string;
  permissionMode?: string;
}

export interface ResolvedHostFlags {
  workspaceRoot: string;
  extensionsDir: string | undefined;
  permissionMode: PermissionLevel;
}

/** Adds `--workspace`, `--extensions` and (optionally) `--permission-mode` to a command. */
export function addHostOptions(command: Command, options: { permissionMode?: boolean } = {}): Command {
  command
    .option('--workspace <dir>', 'workspace root for file tools and relative policy paths (default: the current directory)')
    .option('--extensions <dir>', `folder of .wasm tools (default: ./${DEFAULT_EXTENSIONS_DIR} when it exists)`);
  if (options.permissionMode !== false) {
    command.option('--permission-mode <level>', `highest permission a tool may need: ${PERMISSION_LEVELS.join(', ')} (default: execute)`);
  }
  return command;
}

function requireDirectory(path: string, flag: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw usageError(`${flag} ${path}: no such directory`, `create it first or pass an existing directory to ${flag}`);
  }
  if (!isDirectory) throw usageError(`${flag} ${path}: not a directory`, `pass a directory to ${flag}`);
}

/** Applies the defaults (workspace = cwd, extensions = ./extensions/tools if present, mode execute) and checks the paths. */
export function resolveHostFlags(flags: HostFlags, io: Pick<CliIo, 'cwd'>): ResolvedHostFlags {
  const workspaceRoot = resolve(io.cwd, flags.workspace ?? '.');
  requireDirectory(workspaceRoot, '--workspace');
  let extensionsDir: string | undefined;
  if (flags.extensions !== undefined) {
    extensionsDir = resolve(io.cwd, flags.extensions);
    requireDirectory(extensionsDir, '--extensions');
  } else {
    const fallback = resolve(io.cwd, DEFAULT_EXTENSIONS_DIR);
    if (existsSync(fallback) && statSync(fallback).isDirectory()) extensionsDir = fallback;
  }
  const mode = flags.permissionMode ?? 'execute';
  if (!isPermissionLevel(mode)) {
    throw usageError(`--permission-mode ${mode}: unknown permission level`, `use one of ${PERMISSION_LEVELS.join(', ')}`);
  }
  return { workspaceRoot, extensionsDir, permissionMode: mode };
}

/** The logger of a short CLI run: silent unless `--debug` (then debug-level JSON logs on stderr). */
export function commandLogger(debug: boolean): Logger {
  return debug ? createLogger({ level: 'debug', stderr: true }) : silentLogger();
}

export interface OpenHostOptions {
  debug: boolean;
  watch?: boolean;
  logger?: Logger;
  /** Extra host options (limits, cache, policies from a config file). */
  hostOptions?: HostOptions;
}

/**
 * Opens a host for one CLI run: built-ins plus the extensions folder, progress on stderr while
 * components transpile (TTY only), and one warning line per extension that failed to load.
 */
export async function openHost(resolved: ResolvedHostFlags, io: CliIo, options: OpenHostOptions): Promise<Host> {
  const progress = createProgressReporter(io);
  const { createExtensionSource } = await import('./extension-source.ts');
  const extensions = resolved.extensionsDir === undefined ? undefined : createExtensionSource();
  let host: Host;
  try {
    host = await createHost(
      {
        ...options.hostOptions,
        workspaceRoot: resolved.workspaceRoot,
        permissionMode: resolved.permissionMode,
        watch: options.watch ?? false,
        logger: options.logger ?? commandLogger(options.debug),
        onLoadProgress: progress.update,
        ...(resolved.extensionsDir === undefined ? {} : { extensionsDir: resolved.extensionsDir }),
      },
      extensions === undefined ? {} : { extensions },
    );
  } finally {
    progress.done();
  }
  for (const failure of host.loadFailures()) {
    writeWarning(io, `could not load ${failure.file}: ${failure.error}`);
  }
  return host;
}
