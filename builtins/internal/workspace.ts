/**
 * Workspace confinement shared by every built-in file tool (Linux: race-free; see src/confined-fs/).
 *
 * A call opens the workspace root once (`openWorkspace`: an anchor directory fd). A requested path is
 * first checked lexically (`toRelativeRequest`: NUL bytes, `..` above the root, absolute paths outside
 * it) and turned into a normalized path relative to the root. Every file system access then resolves
 * that path beneath the anchor fd, one component at a time with `O_NOFOLLOW` (`lookupBeneath`), and
 * acts on the held directory fd (`entryPath(parentFd, name)`), never on a path string that was checked
 * earlier: a directory swapped for a symlink to the outside mid-call is refused, not followed.
 * Symlinks that stay inside the workspace are expanded along the way; one pointing outside (absolute,
 * or climbing above the root) is refused.
 *
 * Linux only: elsewhere (no `/proc/self/fd`) every call is refused with a message rather than confined
 * unsafely.
 *
 * `resolveWorkspacePath` keeps the older promise API (a checked path plus whether it exists) for tools
 * that only need a location to show or to hand to the directory walk, which re-resolves beneath its own
 * anchor fd; it must not be used to open files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BeneathError, beneathLookupsAvailable, entryPath, lookupBeneath, openAnchor, openEntry } from '../../src/confined-fs/open-beneath.ts';
import { describeFileSystemError, errorCodeOf } from './files.ts';
import { HostFileError, hostFileMessage, NO_HOST_FILES, protectionOf, type HostFiles } from './host-files.ts';

/** An open workspace root for the duration of one call. */
export interface Workspace {
  /** The root as configured, made absolute (may be a symlinked spelling). */
  readonly rootAbsolute: string;
  /** The real path of the root when it was opened. */
  readonly rootReal: string;
  /** Directory fd of the root: every lookup starts here. */
  readonly anchorFd: number;
  /** The host's own files: hidden ones are refused, read-only ones refused for writing (host-files.ts). */
  readonly hostFiles: HostFiles;
  /** Closes the anchor fd. Call once, when the call is done with the workspace. */
  close(): void;
}

export type WorkspaceOpening = { ok: true; workspace: Workspace } | { ok: false; message: string };
export type RelativeRequest = { ok: true; relative: string } | { ok: false; message: string };

/** A located entry: the directory fd holding it and its name there. */
export interface LocatedEntry {
  /** Held directory fd (the anchor or one the lookup opened). */
  readonly parentFd: number;
  /** Name inside `parentFd`; '' when the path names `parentFd` itself (e.g. the root). */
  readonly name: string;
  /** Real location relative to the workspace root, `/` separators (`.` for the root); for messages. */
  readonly relative: string;
  /** Closes `parentFd` unless it is the anchor. */
  release(): void;
}

export interface WorkspacePath {
  /** The path exactly as it was requested. */
  requested: string;
  /** Canonical absolute path with every symbolic link resolved (for display and the directory walk). */
  real: string;
  /** The path relative to the workspace root with `/` separators; `.` for the root itself. */
  relative: string;
  /** Whether something existed at `real` when it was resolved. */
  exists: boolean;
}

export type WorkspacePathResolution = { ok: true; path: WorkspacePath } | { ok: false; message: string };

/** True when `candidate` is `parent` itself or lies below it. Both must be absolute and normalized. */
export function isInsideDirectory(parent: string, candidate: string): boolean {
  if (candidate === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return candidate.startsWith(prefix);
}

/** The real path of the workspace root (symbolic links resolved). Throws when the root does not exist. */
export async function realWorkspaceRoot(workspaceRoot: string): Promise<string> {
  return fs.promises.realpath(path.resolve(workspaceRoot));
}

/** An absolute path inside `rootReal`, relative to it with `/` separators (`.` for the root). */
export function toWorkspaceRelative(rootReal: string, absolute: string): string {
  const relative = path.relative(rootReal, absolute);
  if (relative === '') return '.';
  return relative.split(path.sep).join('/');
}

/** Joins a workspace-relative directory and an entry name (`.` + `a` = `a`). */
export function joinRelative(directory: string, name: string): string {
  if (name === '') return directory;
  return directory === '.' ? name : `${directory}/${name}`;
}

/** Opens the workspace root for one call. Never throws: a missing root is a message. */
export function openWorkspace(workspaceRoot: string, hostFiles: HostFiles = NO_HOST_FILES): WorkspaceOpening {
  const rootAbsolute = path.resolve(workspaceRoot);
  if (!beneathLookupsAvailable) {
    return { ok: false, message: 'The built-in file tools need Linux (/proc/self/fd) to confine paths safely; this host does not provide it.' };
  }
  let anchorFd: number;
  try {
    anchorFd = openAnchor(rootAbsolute);
  } catch (error) {
    return { ok: false, message: `The workspace root ${rootAbsolute} cannot be used (${(error as Error).message}); the host is misconfigured.` };
  }
  let rootReal: string;
  try {
    rootReal = fs.readlinkSync(entryPath(anchorFd));
  } catch {
    rootReal = rootAbsolute;
  }
  let closed = false;
  return {
    ok: true,
    workspace: {
      rootAbsolute,
      rootReal,
      anchorFd,
      hostFiles,
      close() {
        if (closed) return;
        closed = true;
        fs.closeSync(anchorFd);
      },
    },
  };
}

function outsideMessage(requested: string): string {
  return (
    `Path "${requested}" is outside the workspace. Only files inside the workspace root can be used: ` +
    `give a path relative to the workspace root (for example "src/index.ts"), without ".." segments that climb above it.`
  );
}

/**
 * The lexical check: `requested` (relative to the root, or absolute in either spelling of the root)
 * as a normalized relative path without `.`/`..` segments or trailing slashes (`.` for the root).
 * Like the shell, `link/..` is normalized away before any symlink is looked at.
 */
export function toRelativeRequest(workspace: Workspace, requested: string): RelativeRequest {
  if (requested.includes('\0')) {
    return { ok: false, message: `Path "${requested.replaceAll('\0', '\\0')}" contains a NUL byte; give a plain file path.` };
  }
  const absolute = path.resolve(workspace.rootAbsolute, requested === '' ? '.' : requested);
  let relative: string;
  if (isInsideDirectory(workspace.rootAbsolute, absolute)) relative = toWorkspaceRelative(workspace.rootAbsolute, absolute);
  else if (isInsideDirectory(workspace.rootReal, absolute)) relative = toWorkspaceRelative(workspace.rootReal, absolute);
  else return { ok: false, message: outsideMessage(requested) };
  return { ok: true, relative };
}

/**
 * Words a failure of a confined access to `requested` for a model: refusals of the confined walk
 * (a symlink pointing outside, a loop, a hard link) and plain file system errors (`shown` names the path).
 */
export function describeWorkspaceError(error: unknown, requested: string, shown: string = requested): string {
  if (error instanceof HostFileError) return hostFileMessage(error, shown);
  if (error instanceof BeneathError) {
    if (error.escape) {
      return (
        `Path "${requested}" goes through a symbolic link that points outside the workspace, so it is refused. ` +
        `Only files whose real location is inside the workspace root can be used.`
      );
    }
    if (error.code === 'ELOOP') return `Path "${requested}" goes through a loop of symbolic links; use a path without the looping link.`;
    if (error.code === 'EMLINK') return hardLinkMessage(shown);
  }
  if (errorCodeOf(error) === 'ELOOP') {
    return `Path "${requested}" goes through a loop of symbolic links, or was replaced by one while it was used; use a path without the link.`;
  }
  return describeFileSystemError(error, shown);
}

/** Why a write through a hard link is refused. */
export function hardLinkMessage(shown: string): string {
  return (
    `"${shown}" is a hard link: the same file also exists under another name, possibly outside the workspace, ` +
    `so changing it here is refused. Copy it to a new file (e.g. with shell "cp") if you need an independent version.`
  );
}

/**
 * The real location of entry `name` in the held directory `parentFd`, relative to the root; `fallback`
 * when the directory is no longer below the root's path (moved meanwhile).
 */
export function locatedRelative(workspace: Workspace, parentFd: number, name: string, fallback: string): string {
  let directory: string;
  try {
    directory = fs.readlinkSync(entryPath(parentFd));
  } catch {
    return fallback;
  }
  if (!isInsideDirectory(workspace.rootReal, directory)) return fallback;
  return joinRelative(toWorkspaceRelative(workspace.rootReal, directory), name);
}

/**
 * Resolves the workspace-relative `relative` (from `toRelativeRequest`) beneath the anchor down to its
 * final entry, expanding a final symlink that stays inside. Throws `BeneathError` for refusals,
 * `HostFileError` for one of the host's own files (hidden; read-only ones when `intent` is `write`), and
 * Node errno errors (`ENOENT`, `ENOTDIR`, ...) otherwise; describe them with `describeWorkspaceError`.
 */
export function locateEntry(workspace: Workspace, relative: string, intent: 'read' | 'write' = 'read'): LocatedEntry {
  const lookup = lookupBeneath(workspace.anchorFd, relative, { followFinal: true });
  const located = locatedRelative(workspace, lookup.parentFd, lookup.name, relative);
  const protection = protectionOf(workspace.hostFiles, workspace.rootReal, located === '.' ? workspace.rootReal : path.join(workspace.rootReal, located));
  if (protection === 'hidden' || (protection === 'read-only' && intent === 'write')) {
    lookup.release();
    throw new HostFileError(protection, located);
  }
  return {
    parentFd: lookup.parentFd,
    name: lookup.name,
    relative: located,
    release: () => lookup.release(),
  };
}

export type OpenedRequest =
  | { ok: true; fd: number; stats: fs.Stats; relative: string }
  | { ok: false; missing: true }
  | { ok: false; missing: false; message: string };

/**
 * Opens what `requested` names (read-only) beneath the workspace fd: the one way read_file and list_dir
 * reach an entry. `missing` tells "no such entry" apart from a refusal, which each caller words its own
 * way. The caller closes `fd`.
 */
export function openRequestedEntry(workspace: Workspace, requested: string): OpenedRequest {
  const request = toRelativeRequest(workspace, requested);
  if (!request.ok) return { ok: false, missing: false, message: request.message };
  try {
    const entry = locateEntry(workspace, request.relative);
    try {
      const { fd, stat } = openEntry(entry.parentFd, entry.name, fs.constants.O_RDONLY);
      return { ok: true, fd, stats: stat, relative: entry.relative };
    } finally {
      entry.release();
    }
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true };
    return { ok: false, missing: false, message: describeWorkspaceError(error, requested) };
  }
}

/**
 * Resolves `requested` (relative to the workspace root, or absolute inside it) beneath the root and
 * reports its canonical location and whether it exists. Never throws for a bad path: refusals come
 * back as `{ ok: false, message }` worded for a model. A path below a missing directory or a file is
 * reported as not existing (the operation on it fails later).
 */
export async function resolveWorkspacePath(workspaceRoot: string, requested: string, hostFiles: HostFiles = NO_HOST_FILES): Promise<WorkspacePathResolution> {
  const opening = openWorkspace(workspaceRoot, hostFiles);
  if (!opening.ok) return opening;
  const workspace = opening.workspace;
  try {
    const request = toRelativeRequest(workspace, requested);
    if (!request.ok) return request;
    const toPath = (relative: string, exists: boolean): WorkspacePathResolution => ({
      ok: true,
      path: { requested, real: relative === '.' ? workspace.rootReal : path.join(workspace.rootReal, relative), relative, exists },
    });
    let entry: LocatedEntry;
    try {
      entry = locateEntry(workspace, request.relative);
    } catch (error) {
      if (error instanceof BeneathError || error instanceof HostFileError) return { ok: false, message: describeWorkspaceError(error, requested) };
      const code = errorCodeOf(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return toPath(request.relative, false);
      if (code === 'ELOOP') return { ok: false, message: describeWorkspaceError(error, requested) };
      if (code === 'EACCES' || code === 'EPERM') {
        return { ok: false, message: `Permission denied while resolving "${requested}"; choose a path the host can read.` };
      }
      return { ok: false, message: `Cannot resolve path "${requested}": ${(error as Error).message}` };
    }
    try {
      const exists = entry.name === '' || fs.lstatSync(entryPath(entry.parentFd, entry.name), { throwIfNoEntry: false }) !== undefined;
      return toPath(entry.relative, exists);
    } finally {
      entry.release();
    }
  } finally {
    workspace.close();
  }
}
