/**
 * The daemon's view of its lockfile: read again only when the file changes (size, times or inode
 * differ: `toolhost add|sync|update` replace it by a rename), so every `GET /v1/tools/{name}/inspect`
 * costs one stat. An absent file is no lock; an unreadable or invalid one is reported, never thrown.
 */
import { statSync } from 'node:fs';
import { lockfileStateOf, type LockfileState } from './provenance.ts';

export interface LockfileCache {
  /** The lockfile's absolute path. */
  readonly path: string;
  /** The lockfile as it is now. */
  current(): LockfileState;
}

function signatureOf(path: string): string | undefined {
  try {
    const stats = statSync(path, { bigint: true });
    return `${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.ino}:${stats.dev}`;
  } catch {
    return undefined;
  }
}

export function createLockfileCache(path: string): LockfileCache {
  let known: { signature: string | undefined; state: LockfileState } | undefined;
  return {
    path,
    current() {
      const signature = signatureOf(path);
      if (known !== undefined && known.signature === signature) return known.state;
      // Signed with the stat taken before reading: a write during the read shows as a new signature next time.
      const state: LockfileState = signature === undefined ? { kind: 'absent' } : lockfileStateOf(path);
      known = { signature, state };
      return state;
    },
  };
}
