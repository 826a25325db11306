/**
 * Guest paths of wasi:filesystem, resolved beneath host directory fds (src/confined-fs/). Node has no
 * `openat`; the confined-fs primitives give its equivalent on Linux: every guest path is walked one
 * component at a time from the host fd of the directory descriptor it is relative to (the grant's
 * root fd for a preopen, the descriptor's own fd for a directory the guest opened), each step with
 * `O_NOFOLLOW`, symlinks expanded by the host, never by the kernel. So:
 * - absolute guest paths are refused (`not-permitted`);
 * - `..`, directly or through a symlink, cannot climb above the descriptor (`not-permitted`);
 * - a symlink pointing outside (absolute, or climbing too high) is refused; more than 40 expansions
 *   give `loop`;
 * - the final entry is created, removed, renamed, linked or opened through the fd of its parent
 *   directory, so a racer swapping a directory on the way for a symlink cannot redirect it, and
 *   nothing is created or truncated before the directory holding it is known to be inside.
 * No host path string of a guest entry is ever built; the grant's root path is opened once per call.
 */
import type { WasiFsMode } from './types.ts';
import { toFsError } from './filesystem-errors.ts';

export interface Grant {
  /** Real (symlink-free) absolute host directory of the grant. */
  readonly root: string;
  readonly mode: WasiFsMode;
}

/** A guest path must name something: the empty path is `no-entry` (the rest is checked by the walk). */
export function checkGuestPath(path: string): void {
  if (path.length === 0) throw 'no-entry';
}

/** Runs a host fs action, turning a thrown errno (or confined-fs refusal) into its WASI error code. */
export function fsCall<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw toFsError(error);
  }
}
