/**
 * The contract between the host and the tools that run operating-system commands for a caller (the
 * `shell` built-in and its background processes): how those commands are confined. The host builds
 * one `CommandSandboxSettings` from its options (`commandSandboxSettings`) and hands it to every call
 * as `ToolContext.sandbox`; the tools apply it (builtins/internal/process-sandbox.ts).
 *
 * What it says, in the sandbox's terms:
 * - `network`: `none` gives each command its own network namespace with only a loopback of its own,
 *   so nothing on the host's network (the daemon's own port included) is reachable; `host` shares the
 *   host's network (opt-in, config `shell.network`).
 * - `maxProcesses`: the most processes (and threads) one command may have alive at once.
 * - `memoryMb`: the most memory one command may use (needs a writable cgroup; undefined: no cap).
 * - `readOnlyPaths`: host paths a command may read but never change (the toolhost installation, the
 *   extensions folder), even when they sit inside the writable workspace.
 * - `hiddenPaths`: host paths a command cannot see at all (the cache holding transpiled code and help,
 *   the config file, the secrets file, the admin token's folder).
 */
import { dirname, resolve } from 'node:path';

export type CommandNetwork = 'none' | 'host';

export interface CommandSandboxSettings {
  readonly network: CommandNetwork;
  readonly maxProcesses: number;
  readonly memoryMb: number | undefined;
  readonly readOnlyPaths: readonly string[];
  readonly hiddenPaths: readonly string[];
}

/** The `shell` section of the host options (config key `shell`). */
export interface ShellSandboxOptions {
  /** Default `none`. */
  network?: CommandNetwork;
  /** Default `DEFAULT_SHELL_MAX_PROCESSES`. */
  maxProcesses?: number;
  /** Default `DEFAULT_SHELL_MEMORY_MB`. */
  memoryMb?: number;
}

export const DEFAULT_SHELL_MAX_PROCESSES = 256;
export const DEFAULT_SHELL_MEMORY_MB = 4096;

/** What the host knows of its own files: everything a command must not change or read. */
export interface ProtectedPaths {
  /** The toolhost package folder (sources, build, node_modules). */
  installDirectory?: string;
  extensionsDirectory?: string;
  cacheDirectory?: string;
  configFile?: string;
  secretsFile?: string;
  /** More folders or files to hide (e.g. the admin token's folder). */
  hidden?: readonly string[];
  /** More folders or files to keep read-only. */
  readOnly?: readonly string[];
}

function unique(paths: readonly (string | undefined)[]): string[] {
  return [...new Set(paths.filter((path): path is string => path !== undefined && path !== '').map((path) => resolve(path)))];
}

/** The settings a host hands its command-running tools. */
export function commandSandboxSettings(options: ShellSandboxOptions = {}, paths: ProtectedPaths = {}): CommandSandboxSettings {
  return Object.freeze({
    network: options.network ?? 'none',
    maxProcesses: options.maxProcesses ?? DEFAULT_SHELL_MAX_PROCESSES,
    memoryMb: options.memoryMb ?? DEFAULT_SHELL_MEMORY_MB,
    readOnlyPaths: Object.freeze(unique([paths.installDirectory, paths.extensionsDirectory, ...(paths.readOnly ?? [])])),
    hiddenPaths: Object.freeze(unique([paths.cacheDirectory, paths.configFile, paths.secretsFile, ...(paths.hidden ?? [])])),
  });
}

/** Settings for a tool run outside a host (tests, embedders calling `execute` directly): no network, nothing protected. */
export const DEFAULT_COMMAND_SANDBOX: CommandSandboxSettings = commandSandboxSettings();

/** The folder holding a file, for callers that hide a whole folder. */
export function folderOf(file: string): string {
  return dirname(resolve(file));
}
