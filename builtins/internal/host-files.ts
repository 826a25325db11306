/**
 * The host's own files as the built-in file tools (and MCP resources) see them: the same rule the
 * `shell` sandbox applies with its mounts (src/command-sandbox.ts, process-sandbox.ts), applied to
 * confined paths.
 *
 * - Hidden (the cache of transpiled code and help, the config file, the secrets file, the admin
 *   token's folder): cannot be read, listed, searched or written, even when they sit inside the
 *   workspace. A hidden folder that holds the whole workspace hides nothing (as in the sandbox).
 * - Read-only (the toolhost installation, the extensions folder) when inside the workspace: may be
 *   read, never changed — a model that could write `extensions/tools/x.policy.json` or a `.wasm`
 *   there would choose what runs and what it may reach.
 *
 * Paths are compared by real location: the protected paths are resolved once (realpath, cached per
 * settings object), and callers pass the real location of what they resolved beneath the workspace.
 * Linear in the number of protected paths; never throws.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CommandSandboxSettings } from '../../src/command-sandbox.ts';

export type HostFileProtection = 'hidden' | 'read-only';

export interface HostFiles {
  /** Real absolute paths the tools cannot see. */
  readonly hidden: readonly string[];
  /** Real absolute paths the tools cannot change. */
  readonly readOnly: readonly string[];
}

export const NO_HOST_FILES: HostFiles = Object.freeze({ hidden: [], readOnly: [] });

/** A refusal of a host file: thrown inside the confined lookups, described by `hostFileMessage`. */
export class HostFileError extends Error {
  constructor(
    readonly protection: HostFileProtection,
    readonly relative: string,
  ) {
    super(`${relative} is ${protection === 'hidden' ? 'one of the host’s own files' : 'read-only'}`);
    this.name = 'HostFileError';
  }
}

function realOrResolved(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function isSameOrInside(parent: string, candidate: string): boolean {
  if (candidate === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return candidate.startsWith(prefix);
}

const cache = new WeakMap<CommandSandboxSettings, HostFiles>();

/** The host files of a tool's sandbox settings (none outside a host). */
export function hostFilesOf(settings: CommandSandboxSettings | undefined): HostFiles {
  if (settings === undefined) return NO_HOST_FILES;
  let files = cache.get(settings);
  if (files === undefined) {
    files = Object.freeze({ hidden: settings.hiddenPaths.map(realOrResolved), readOnly: settings.readOnlyPaths.map(realOrResolved) });
    cache.set(settings, files);
  }
  return files;
}

/**
 * How `realPath` (absolute, real) is protected in a workspace whose real root is `rootReal`, if at all.
 * Read-only applies inside the workspace only (outside it the tools reach nothing anyway), and not when
 * the read-only folder holds the whole workspace (a workspace inside the toolhost checkout stays usable,
 * as in the sandbox, where only paths inside the workspace are bound read-only).
 */
export function protectionOf(files: HostFiles, rootReal: string, realPath: string): HostFileProtection | undefined {
  for (const hidden of files.hidden) {
    if (isSameOrInside(hidden, rootReal)) continue;
    if (isSameOrInside(hidden, realPath)) return 'hidden';
  }
  for (const readOnly of files.readOnly) {
    if (readOnly === rootReal || !isSameOrInside(rootReal, readOnly)) continue;
    if (isSameOrInside(readOnly, realPath)) return 'read-only';
  }
  return undefined;
}

/** True when `realPath` must not be listed, searched or read. */
export function isHiddenHostFile(files: HostFiles, rootReal: string, realPath: string): boolean {
  return files.hidden.length > 0 && protectionOf(files, rootReal, realPath) === 'hidden';
}

/** Words a refusal for a model. */
export function hostFileMessage(error: HostFileError, shown: string): string {
  if (error.protection === 'hidden') {
    return `"${shown}" is one of toolhost's own files (its cache, config or secrets) and is not accessible to tools.`;
  }
  return `"${shown}" is inside toolhost's installation or extensions folder, which tools may read but not change.`;
}
