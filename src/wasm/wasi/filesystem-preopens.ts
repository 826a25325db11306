/**
 * wasi:filesystem/preopens (0.2.0–0.2.3), per call: one root descriptor per grant in
 * `options.preopens` (none by default). A grant's real host directory is resolved once per process
 * and host path (`realpath`), so creating a host does no fs calls after the first time.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { ToolHostError } from '../../errors.ts';
import type { CallContext } from './call-context.ts';
import type { Grant } from './filesystem-path.ts';
import { Descriptor } from './filesystem-types.ts';
import type { WasiPreopen } from './types.ts';

const realRoots = new Map<string, string>();

function realRoot(hostPath: string): string {
  let root = realRoots.get(hostPath);
  if (root !== undefined) return root;
  if (!isAbsolute(hostPath)) throw new ToolHostError('WASI_PREOPEN_INVALID', `preopen host path is not absolute: ${hostPath}`);
  try {
    root = realpathSync.native(hostPath);
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
  } catch (error) {
    throw new ToolHostError('WASI_PREOPEN_INVALID', `preopen host path ${hostPath} is not a usable directory: ${(error as Error).message}`, {
      cause: error,
    });
  }
  realRoots.set(hostPath, root);
  return root;
}

export interface Preopens {
  getDirectories(): Array<[Descriptor, string]>;
}

const NO_PREOPENS: Preopens = Object.freeze({ getDirectories: (): Array<[Descriptor, string]> => [] });

export function createPreopens(preopens: readonly WasiPreopen[], ctx: CallContext): Preopens {
  if (preopens.length === 0) return NO_PREOPENS;
  const grants: Array<[Grant, string]> = preopens.map((p) => {
    if (p.mode !== 'ro' && p.mode !== 'rw') throw new ToolHostError('WASI_PREOPEN_INVALID', `preopen mode must be 'ro' or 'rw'`);
    if (p.guestPath.length === 0 || p.guestPath.includes('\0')) {
      throw new ToolHostError('WASI_PREOPEN_INVALID', `invalid preopen guest path: ${JSON.stringify(p.guestPath)}`);
    }
    return [{ root: realRoot(p.hostPath), mode: p.mode }, p.guestPath];
  });
  let dirs: Array<[Descriptor, string]> | undefined;
  return {
    getDirectories: () => (dirs ??= grants.map(([grant, guestPath]) => [Descriptor.forGrant(grant, ctx), guestPath])),
  };
}
