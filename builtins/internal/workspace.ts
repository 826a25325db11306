/**
 * Workspace confinement shared by every built-in file tool.
 *
 * A requested path is resolved against the workspace root, then every symbolic link along it is
 * resolved (the longest existing prefix through `fs.realpath`, dangling links through `readlink`)
 * and the result must stay inside the real path of the root. Callers use the returned `real`
 * path for file system calls, so the path that was checked is the path that is used.
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

/** How many symbolic links may be followed while resolving one path (like the kernel's ELOOP limit). */
const MAX_SYMLINK_HOPS = 40;

export interface WorkspacePath {
  /** The path exactly as it was requested. */
  requested: string;
  /** Canonical absolute path with every existing symbolic link resolved; use it for file system calls. */
  real: string;
  /** The path relative to the workspace root with `/` separators; `.` for the root itself. */
  relative: string;
  /** Whether something exists at `real`. */
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
  return realpath(path.resolve(workspaceRoot));
}

/** An absolute path inside `rootReal`, relative to it with `/` separators (`.` for the root). */
export function toWorkspaceRelative(rootReal: string, absolute: string): string {
  const relative = path.relative(rootReal, absolute);
  if (relative === '') return '.';
  return relative.split(path.sep).join('/');
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

interface RealPathResult {
  real: string;
  exists: boolean;
}

/**
 * Like `fs.realpath`, but also for paths that do not exist yet: the longest existing prefix is
 * resolved and the missing rest appended. A dangling symbolic link is followed to where its target
 * would be created, so a link pointing outside cannot be used to create a file outside.
 */
async function resolveRealPath(absolute: string, hops: { count: number }): Promise<RealPathResult> {
  try {
    return { real: await realpath(absolute), exists: true };
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return { real: absolute, exists: false };
  const parentResult = await resolveRealPath(parent, hops);
  const name = path.basename(absolute);
  if (parentResult.exists) {
    let isSymbolicLink = false;
    try {
      isSymbolicLink = (await lstat(path.join(parentResult.real, name))).isSymbolicLink();
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    if (isSymbolicLink) {
      hops.count += 1;
      if (hops.count > MAX_SYMLINK_HOPS) {
        throw Object.assign(new Error(`Too many levels of symbolic links at ${absolute}`), { code: 'ELOOP' });
      }
      const target = await readlink(path.join(parentResult.real, name));
      return resolveRealPath(path.resolve(parentResult.real, target), hops);
    }
  }
  return { real: path.join(parentResult.real, name), exists: false };
}

function outsideMessage(requested: string): string {
  return (
    `Path "${requested}" is outside the workspace. Only files inside the workspace root can be used: ` +
    `give a path relative to the workspace root (for example "src/index.ts"), without ".." segments that climb above it.`
  );
}

/**
 * Resolves `requested` (relative to the workspace root, or absolute inside it) and checks that it
 * stays inside the workspace, symbolic links included. Never throws for a bad path: refusals come
 * back as `{ ok: false, message }` worded for a model.
 */
export async function resolveWorkspacePath(workspaceRoot: string, requested: string): Promise<WorkspacePathResolution> {
  if (requested.includes('\0')) {
    return { ok: false, message: `Path "${requested.replaceAll('\0', '\\0')}" contains a NUL byte; give a plain file path.` };
  }
  const rootAbsolute = path.resolve(workspaceRoot);
  let rootReal: string;
  try {
    rootReal = await realpath(rootAbsolute);
  } catch (error) {
    return { ok: false, message: `The workspace root ${rootAbsolute} cannot be used (${(error as Error).message}); the host is misconfigured.` };
  }
  const absolute = path.resolve(rootAbsolute, requested === '' ? '.' : requested);
  // Lexical check first (clearer message for ".." and foreign absolute paths). An absolute path may
  // name the workspace by its symlinked spelling or by its real path; both are inside.
  if (!isInsideDirectory(rootAbsolute, absolute) && !isInsideDirectory(rootReal, absolute)) {
    return { ok: false, message: outsideMessage(requested) };
  }
  let resolved: RealPathResult;
  try {
    resolved = await resolveRealPath(absolute, { count: 0 });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') {
      return { ok: false, message: `Path "${requested}" goes through a loop of symbolic links; use a path without the looping link.` };
    }
    if (code === 'EACCES' || code === 'EPERM') {
      return { ok: false, message: `Permission denied while resolving "${requested}"; choose a path the host can read.` };
    }
    return { ok: false, message: `Cannot resolve path "${requested}": ${(error as Error).message}` };
  }
  if (!isInsideDirectory(rootReal, resolved.real)) {
    return {
      ok: false,
      message:
        `Path "${requested}" goes through a symbolic link that points outside the workspace, so it is refused. ` +
        `Only files whose real location is inside the workspace root can be used.`,
    };
  }
  return {
    ok: true,
    path: { requested, real: resolved.real, relative: toWorkspaceRelative(rootReal, resolved.real), exists: resolved.exists },
  };
}
