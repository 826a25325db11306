/**
 * Which hard-linked files a guest may still write, per call. Writing (or setting times) through a
 * regular file with more than one link is refused (`too-many-links`): a hard link planted inside a
 * grant can name any file of the same device, and its other names cannot be found. The exception is
 * an inode whose every link the guest made itself during this call with `link-at`, starting from a
 * file with a single name inside the grant: its recorded link count covers the current one.
 */
import type { Stats } from 'node:fs';
import type { LinkedEntry } from '../../confined-fs/entry-beneath.ts';
import type { CallContext } from './call-context.ts';

/** Bound on the inodes remembered per call; links beyond it are not exempted (writes are refused). */
const MAX_TRACKED_INODES = 4096;

export class GuestLinks {
  /** `dev:ino` → the link count the guest's own links account for. */
  private readonly counts = new Map<string, number>();

  /** Whether a write through this (hard-linked) file is allowed. */
  allows(stat: Stats): boolean {
    const known = this.counts.get(`${stat.dev}:${stat.ino}`);
    return known !== undefined && stat.nlink <= known;
  }

  /** Records a `link-at` the guest made, when the new name belongs to the inode it looked at. */
  record({ source, link }: LinkedEntry): void {
    if (link === undefined || !source.isFile() || link.dev !== source.dev || link.ino !== source.ino) return;
    const key = `${source.dev}:${source.ino}`;
    const accounted = source.nlink === 1 || (this.counts.get(key) ?? 0) >= source.nlink;
    if (!accounted || link.nlink !== source.nlink + 1) return;
    if (!this.counts.has(key) && this.counts.size >= MAX_TRACKED_INODES) return;
    this.counts.set(key, link.nlink);
  }
}

const perCall = new WeakMap<CallContext, GuestLinks>();

export function guestLinksOf(ctx: CallContext): GuestLinks {
  let links = perCall.get(ctx);
  if (links === undefined) {
    links = new GuestLinks();
    perCall.set(ctx, links);
  }
  return links;
}
