/**
 * wasi:filesystem/preopens (0.2.0–0.2.3), per call: one root descriptor per grant in
 * `options.preopens` (none by default). A grant's real host directory is resolved once per process
 * and host path (`realpath`), so creating a host does no fs calls after the first time. Per call,
 * each grant's directory is opened once, when the guest first asks for the preopens (one fd each,
 * counted in the call's fd cap, closed at `WasiHost.dispose()`); every guest path is resolved beneath
 * that fd. Each `get-directories` hands out new descriptors borrowing it (the preview1 adapter drops
 * the handles of repeated calls). Linux only (`/proc/self/fd`): elsewhere a host with grants is refused.
 */
import { closeSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { beneathLookupsAvailable, openAnchor } from '../../confined-fs/open-beneath.ts';
import { ToolHostError } from '../../errors.ts';
import type { CallContext } from './call-context.ts';
import type { Grant } from './filesystem-path.ts';
import { Descriptor, type SharedFd } from './filesystem-types.ts';
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

/** A grant's root directory fd for one call: opened on first use, closed at `WasiHost.dispose()`. */
class GrantRoot implements SharedFd {
  fd = -1;
  readonly grant: Grant;
  private readonly ctx: CallContext;

  constructor(grant: Grant, ctx: CallContext) {
    this.grant = grant;
    this.ctx = ctx;
  }

  open(): void {
    if (this.fd >= 0) return;
    try {
      this.fd = openAnchor(this.grant.root);
    } catch (error) {
      throw new ToolHostError('WASI_PREOPEN_INVALID', `preopen host path ${this.grant.root} cannot be opened: ${(error as Error).message}`, {
        cause: error,
      });
    }
    this.ctx.openFiles.add(this);
  }

  close(): void {
    const fd = this.fd;
    if (fd < 0) return;
    this.fd = -1;
    this.ctx.openFiles.delete(this);
    closeSync(fd);
  }
}

export interface Preopens {
  getDirectories(): Array<[Descriptor, string]>;
}

const NO_PREOPENS: Preopens = Object.freeze({ getDirectories: (): Array<[Descriptor, string]> => [] });

export function createPreopens(preopens: readonly WasiPreopen[], ctx: CallContext): Preopens {
  if (preopens.length === 0) return NO_PREOPENS;
  if (!beneathLookupsAvailable) {
    // Confinement resolves guest paths through /proc/self/fd (Linux); without it, no grant is served.
    throw new ToolHostError('WASI_PREOPEN_INVALID', 'filesystem grants need /proc/self/fd (Linux); this platform has none');
  }
  const grants: Array<[Grant, string]> = preopens.map((p) => {
    if (p.mode !== 'ro' && p.mode !== 'rw') throw new ToolHostError('WASI_PREOPEN_INVALID', `preopen mode must be 'ro' or 'rw'`);
    if (p.guestPath.length === 0 || p.guestPath.includes('\0')) {
      throw new ToolHostError('WASI_PREOPEN_INVALID', `invalid preopen guest path: ${JSON.stringify(p.guestPath)}`);
    }
    return [{ root: realRoot(p.hostPath), mode: p.mode }, p.guestPath];
  });
  const roots = grants.map(([grant]) => new GrantRoot(grant, ctx));
  return {
    getDirectories: () =>
      grants.map(([grant, guestPath], index): [Descriptor, string] => {
        const root = roots[index] as GrantRoot;
        root.open();
        return [Descriptor.forGrant(grant, root, ctx), guestPath];
      }),
  };
}
